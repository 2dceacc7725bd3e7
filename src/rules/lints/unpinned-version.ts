// An ExternalSecret (or the spec a ClusterExternalSecret gives its ExternalSecrets) whose content
// the checksum cannot follow: remoteRefs without `version`, `dataFrom.find`, generators that run
// on a timer. When the remote value rotates, nothing in Git changes.
import { isObject, type Json } from '../../model/json.js';
import { getPath } from '../../model/path.js';
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import { refreshOf, rotatesEveryRun } from '../sources/eso-dependencies.js';
import { isKind, type Lint } from './lint.js';

/** Where each ESO kind keeps its ExternalSecret spec. */
const specAt: ReadonlyMap<string, string> = new Map([
  ['ExternalSecret', 'spec'],
  ['ClusterExternalSecret', 'spec.externalSecretSpec'],
]);

export const unpinnedVersion: Lint = {
  id: 'unpinned-version',
  severity: 'warning',
  summary: 'An ExternalSecret whose remote value can rotate without a change in Git',
  help: 'Pin remoteRef.version; for a generator use refreshPolicy OnChange or refreshInterval 0; or accept it (set the rule to info or off): the checksum cannot follow a rotation of the remote value.',
  check({ consumersOf }, { report }) {
    // A ClusterExternalSecret is a source per namespace: one warning for the resource.
    const reported = new Set<Resource>();
    for (const [source, consumers] of consumersOf) {
      const at = specAt.get(source.resource.kind);
      if (
        consumers.size === 0 ||
        at === undefined ||
        !isKind(source.resource, 'external-secrets.io', source.resource.kind) ||
        reported.has(source.resource)
      ) {
        continue;
      }
      reported.add(source.resource);
      const reasons = unpinnedReasons(getPath(source.resource.value, at));
      if (reasons.length === 0) continue;
      const shown =
        reasons.length > 3 ? [...reasons.slice(0, 3), `${reasons.length - 3} more`] : reasons;
      const generators = reasons.filter((r) => r.includes(' generator ')).length;
      const fixes = [
        generators < reasons.length
          ? 'pin remoteRef.version so that a new version rolls its consumers'
          : '',
        generators > 0
          ? 'for a generator, refreshPolicy OnChange or refreshInterval 0 if a value made once will do (a short-lived token must rotate: read it from a volume, which the kubelet updates)'
          : '',
      ];
      report(
        source.resource,
        `the checksum of ${describe(source.resource)} cannot follow a rotation of the remote ` +
          `value (${shown.join('; ')}): ${fixes.filter((f) => f !== '').join('; ')}, or set ` +
          'unpinnedVersionSeverity to info or off',
        at,
      );
    }
  },
};

/**
 * Why an ExternalSecret spec's content can change upstream without the spec changing (one reason
 * per entry that is not pinned); empty when every entry is pinned. `secret-rollout impact` reuses it.
 */
export function unpinnedReasons(spec: Json | undefined): string[] {
  const reasons: string[] = [];
  const list = (value: Json | undefined) => (Array.isArray(value) ? value : []);
  list(getPath(spec, 'data')).forEach((entry, i) => {
    if (isObject(getPath(entry, 'sourceRef.generatorRef'))) {
      reasons.push(`data[${i}] uses a generator`);
    } else if (
      isObject(getPath(entry, 'remoteRef')) &&
      !isPinned(getPath(entry, 'remoteRef.version'))
    ) {
      reasons.push(`data[${i}].remoteRef has no fixed version`);
    }
  });
  const refresh = refreshOf(spec);
  list(getPath(spec, 'dataFrom')).forEach((entry, i) => {
    const generator = getPath(entry, 'sourceRef.generatorRef');
    if (isObject(generator)) {
      // A generator runs at every sync: only a timer syncs without a change of the ExternalSecret
      // (which moves the checksum). Fake returns its spec; others read a remote side.
      const { kind, name } = generator;
      if (!refresh.periodic || kind === 'Fake') return;
      reasons.push(
        typeof kind === 'string' && rotatesEveryRun(kind)
          ? `dataFrom[${i}] uses generator ${kind} ${name}, which makes a new value at every refresh (${refresh.why}) and restarts no pod`
          : `dataFrom[${i}] uses generator ${kind} ${name}, whose value the remote side decides`,
      );
    } else if (isObject(getPath(entry, 'find'))) {
      reasons.push(`dataFrom[${i}] uses find`);
    } else if (
      isObject(getPath(entry, 'extract')) &&
      !isPinned(getPath(entry, 'extract.version'))
    ) {
      reasons.push(`dataFrom[${i}].extract has no fixed version`);
    }
  });
  return reasons;
}

/**
 * A version that names one value for good. Labels that move with rotation do not: AWS Secrets
 * Manager stages (AWSCURRENT, AWSPENDING) and "latest" (GCP, Azure, Vault-style providers).
 */
function isPinned(version: Json | undefined): boolean {
  if (typeof version === 'number') return true;
  if (typeof version !== 'string' || version.trim() === '') return false;
  return !/^(awscurrent|awspending|latest)$/i.test(version.trim());
}
