// A workload that reads a Secret the Secrets Store CSI driver syncs from a SecretProviderClass but
// does not mount that class: the driver creates and updates the Secret only while a pod mounts the
// class (docs/operators.md §6), so these pods can be created before it exists, or work only while
// another workload's pods mount it.
import { addTo, namesOf } from '../../model/fold.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { SecretSource } from '../sources/source.js';
import { secretsStoreDriver } from '../workloads/references.js';
import type { Lint } from './lint.js';

/** How a pod fails on a Secret that does not exist: env and envFrom, or a secret volume. */
const failure = 'CreateContainerConfigError, or a secret volume that cannot mount';

export const csiSyncMount: Lint = {
  id: 'csi-sync-mount',
  severity: 'warning',
  summary:
    'A workload reads a Secret the Secrets Store CSI driver syncs without mounting its class',
  help: 'Mount the SecretProviderClass in the workload’s pod template: the driver creates and updates a synced Secret only while a pod mounts its class.',
  check({ sources, consumersOf }, { report }) {
    // A SecretProviderClass is one source for its mount and one per synced Secret, all on its item.
    const mounts = new Map<Resource, SecretSource>();
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
    // source (most inputs have no class, and the lint stops here).
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i] as SecretSource;
      if (s.produces === 'SecretProviderClass') mounts.set(s.resource, s);
    }
    if (mounts.size === 0) return;
    // Per class, each consumer of its synced Secrets that does not mount it, with their names.
    const unmounted = new Map<SecretSource, Map<Resource, string[]>>();
    // Who mounts each class, as a Set made once per class (consumersOf has lists).
    const mountedBy = new Map<SecretSource, ReadonlySet<Resource>>();
    for (const synced of sources) {
      const mount = synced.produces === 'Secret' ? mounts.get(synced.resource) : undefined;
      if (!mount) continue;
      let mounting = mountedBy.get(mount);
      if (mounting === undefined) {
        mounting = new Set(consumersOf.get(mount));
        mountedBy.set(mount, mounting);
      }
      for (const consumer of consumersOf.get(synced) ?? []) {
        if (mounting.has(consumer)) continue;
        const readers = unmounted.get(mount) ?? new Map<Resource, string[]>();
        unmounted.set(mount, readers);
        addTo(readers, consumer, synced.secretName);
      }
    }
    for (const [mount, readers] of unmounted) {
      const spc = describe(mount.resource);
      // Five named, the rest counted: each reader's warning repeats it (all of them named was
      // readers × mounters: bench/adversarial csi-mount-lists).
      const others = namesOf(consumersOf.get(mount) ?? [], describe);
      const fix =
        'Mount the class in this pod template: a csi volume with driver ' +
        `${secretsStoreDriver.driver} and volumeAttributes.secretProviderClass: ${mount.secretName}`;
      for (const [consumer, names] of readers) {
        const several = names.length > 1;
        const reads = `${describe(consumer)} reads Secret${several ? 's' : ''} ${names.join(', ')}, which ${spc} syncs`;
        const theSecret = several ? 'the Secrets' : 'the Secret';
        report(
          consumer,
          others === ''
            ? `${reads}, but no pod template in the input mounts that class: the Secrets Store ` +
                'CSI driver creates a synced Secret only while a pod mounts its class, so nothing ' +
                `ever creates ${theSecret} and its pods fail (${failure}). ${fix}`
            : `${reads}, but does not mount that class: the Secrets Store CSI driver creates and ` +
                'updates a synced Secret only while a pod mounts its class, here only pods of ' +
                `${others}. Its pods can be created before the driver writes ${theSecret} ` +
                `(${failure}) and work only while those pods run. ${fix}`,
        );
      }
    }
  },
};
