// An independent model of what the function must do, written from its specification (not from
// src/plan or src/transform): which pod templates consume which ExternalSecrets, the checksum each
// template gets, the sync waves of ExternalSecrets and stores, and the operator readers (a KEDA
// TriggerAuthentication, a custom kind named by secretReferences) ordered after their sources.
import { createHash } from 'node:crypto';
import type { Item, Options } from './gen.js';
import { isObj, type Json, type Obj } from './render.js';

export const waveKey = 'argocd.argoproj.io/sync-wave';
/** Set on an ExternalSecret whose templateFrom sources or generators are in the input. */
export const dependenciesKey = 'checksum/dependencies';
const hookKey = 'helm.sh/hook-weight';

export interface Expected {
  /** A wave conflict of severity error: exit 1, nothing changed. */
  error: boolean;
  /** Per item: the checksum its pod template must carry (undefined: none set by the function). */
  checksums: Map<number, string>;
  /** Per ExternalSecret/store item: the sync-wave it must end up with. */
  waves: Map<number, bigint>;
  /** ExternalSecret item → consumer items; store item → ExternalSecret items. */
  edges: [number, number][];
  storeEdges: [number, number][];
  /** Bare Pods that consume an ExternalSecret (ordered, never annotated). */
  barePods: Set<number>;
}

interface Res {
  index: number;
  value: Obj;
  apiVersion: string;
  kind: string;
  name: string;
  ns: string | undefined;
  annotations: Record<string, string>;
}

interface Source {
  res: Res;
  /** A Secret, or with `target.manifest` (ConfigMap, the one the generator makes) a ConfigMap. */
  produces: 'Secret' | 'ConfigMap';
  secretName: string;
  essential: Obj;
  narrowable: boolean;
  secretKeys: Set<string>;
  stores: { kind: string; name: string }[];
}

type Keys = 'all' | Set<string>;

function at(value: Json | undefined, path: readonly string[]): Json | undefined {
  let node = value;
  for (const k of path) {
    if (!isObj(node)) return undefined;
    node = node[k];
  }
  return node;
}

const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObj(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function checksumOf(consumed: { source: Source; keys: Keys }[]): string {
  const entries = consumed
    .map(({ source, keys }) => {
      let content: Json = source.essential;
      if (keys !== 'all' && source.narrowable && [...keys].every((k) => source.secretKeys.has(k))) {
        const data = (source.essential.data as Obj[]).filter((e) =>
          keys.has(e.secretKey as string),
        );
        content = { ...source.essential, data };
      }
      return canonical({ secret: source.secretName, content });
    })
    .sort();
  return createHash('sha256')
    .update(`[${entries.join(',')}]`)
    .digest('hex');
}

function wave(annotations: Record<string, string>, fallback: boolean): bigint | undefined {
  const int = (s: string | undefined) =>
    s !== undefined && /^[+-]?\d+$/.test(s.trim()) ? BigInt(s.trim()) : undefined;
  const explicit = int(annotations[waveKey]);
  if (explicit !== undefined || !fallback) return explicit;
  return int(annotations[hookKey]) ?? 0n;
}

/** Secret (or ConfigMap) uses of a PodSpec: name → keys read. */
function uses(podSpec: Obj, kind: Source['produces']): Map<string, Keys> {
  const [keyRef, fromRef, volumeField, volumeName, projected] =
    kind === 'Secret'
      ? ['secretKeyRef', 'secretRef', 'secret', 'secretName', 'secret']
      : ['configMapKeyRef', 'configMapRef', 'configMap', 'name', 'configMap'];
  const out = new Map<string, Keys>();
  const add = (name: Json | undefined, keys: Keys) => {
    if (typeof name !== 'string') return;
    const prior = out.get(name);
    if (prior === undefined) out.set(name, keys);
    else if (prior === 'all' || keys === 'all') out.set(name, 'all');
    else out.set(name, new Set([...prior, ...keys]));
  };
  const itemKeys = (items: Json | undefined): Keys => {
    if (!Array.isArray(items) || items.length === 0) return 'all';
    const keys = items.map((i) => (isObj(i) ? i.key : undefined));
    return keys.every((k) => typeof k === 'string') ? new Set(keys as string[]) : 'all';
  };
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of (podSpec[list] as Obj[] | undefined) ?? []) {
      for (const e of (c.env as Obj[] | undefined) ?? []) {
        const ref = at(e, ['valueFrom', keyRef]);
        if (isObj(ref)) add(ref.name, typeof ref.key === 'string' ? new Set([ref.key]) : 'all');
      }
      for (const e of (c.envFrom as Obj[] | undefined) ?? []) {
        const ref = e[fromRef];
        if (isObj(ref)) add(ref.name, 'all');
      }
    }
  }
  for (const v of (podSpec.volumes as Obj[] | undefined) ?? []) {
    const volume = v[volumeField];
    if (isObj(volume)) add(volume[volumeName], itemKeys(volume.items));
    for (const s of (at(v, ['projected', 'sources']) as Obj[] | undefined) ?? []) {
      const source = s[projected];
      if (isObj(source)) add(source.name, itemKeys(source.items));
    }
  }
  return out;
}

/**
 * A HelmRelease's values, by this test's own reading of docs/helm-release.md: strings whose path
 * ends in secretKeyRef.name / configMapKeyRef.name (their key), secretRef.name / configMapRef.name
 * or, for a Secret, secretName (all keys).
 */
function valuesUses(values: Json | undefined, kind: Source['produces']): Map<string, Keys> {
  const [ref, keyRef] =
    kind === 'Secret' ? ['secretRef', 'secretKeyRef'] : ['configMapRef', 'configMapKeyRef'];
  const out = new Map<string, Keys>();
  const visit = (node: Json | undefined, path: (string | number)[]) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        visit(child, [...path, i]);
      });
    }
    if (!isObj(node)) return;
    for (const [key, child] of Object.entries(node)) {
      const parent = path[path.length - 1];
      let keys: Keys | undefined;
      if (typeof child !== 'string') keys = undefined;
      else if ((kind === 'Secret' && key === 'secretName') || (key === 'name' && parent === ref))
        keys = 'all';
      else if (key === 'name' && parent === keyRef)
        keys = typeof node.key === 'string' ? new Set([node.key]) : 'all';
      if (keys === undefined) visit(child as Json, [...path, key]);
      else {
        const prior = out.get(child as string);
        out.set(
          child as string,
          prior === undefined
            ? keys
            : prior === 'all' || keys === 'all'
              ? 'all'
              : new Set([...prior, ...keys]),
        );
      }
    }
  };
  visit(values, []);
  return out;
}

/** Pull secrets: they always order their ExternalSecret first; in the checksum only when opted in. */
function pullSecrets(podSpec: Obj): string[] {
  return ((podSpec.imagePullSecrets as Obj[] | undefined) ?? [])
    .map((p) => p.name)
    .filter((n): n is string => typeof n === 'string');
}

export function model(items: readonly Item[], options: Options): Expected {
  const resources: Res[] = items.map((item, index) => {
    const metadata = (item.value.metadata ?? {}) as Obj;
    const ns = metadata.namespace as string | undefined;
    return {
      index,
      value: item.value,
      apiVersion: item.value.apiVersion as string,
      kind: item.value.kind as string,
      name: metadata.name as string,
      ns: ns === '' ? undefined : ns,
      annotations: (metadata.annotations ?? {}) as Record<string, string>,
    };
  });
  const isSource = (r: Res) =>
    r.kind === 'ExternalSecret' && group(r.apiVersion) === 'external-secrets.io';
  const isStore = (r: Res) =>
    (r.kind === 'SecretStore' || r.kind === 'ClusterSecretStore') &&
    group(r.apiVersion) === 'external-secrets.io';

  const sources: Source[] = [];
  for (const res of resources) {
    if (!isSource(res)) continue;
    const spec = res.value.spec as Obj;
    const target = (spec.target ?? undefined) as Obj | undefined;
    const stores: Source['stores'] = [];
    const addStore = (ref: Json | undefined) => {
      if (!isObj(ref)) return;
      const s = {
        kind: (ref.kind as string | undefined) ?? 'SecretStore',
        name: ref.name as string,
      };
      if (!stores.some((x) => x.kind === s.kind && x.name === s.name)) stores.push(s);
    };
    addStore(spec.secretStoreRef);
    for (const e of (spec.data as Obj[] | undefined) ?? [])
      addStore(at(e, ['sourceRef', 'storeRef']));
    for (const e of (spec.dataFrom as Obj[] | undefined) ?? [])
      addStore(at(e, ['sourceRef', 'storeRef']));
    const essential = items[res.index]?.essential as Obj;
    sources.push({
      res,
      produces: target?.manifest != null ? 'ConfigMap' : 'Secret',
      secretName: (target?.name as string | undefined) || res.name,
      essential,
      narrowable: essential.dataFrom === undefined && target?.template == null,
      secretKeys: new Set(
        ((spec.data as Obj[] | undefined) ?? []).map((e) => e.secretKey as string),
      ),
      stores,
    });
  }

  const expected: Expected = {
    error: false,
    checksums: new Map(),
    waves: new Map(),
    edges: [],
    storeEdges: [],
    barePods: new Set(),
  };
  const consumersOf = new Map<Source, Res[]>();
  for (const res of resources) {
    if (isSource(res)) continue;
    const bare = res.kind === 'Pod' && res.apiVersion === 'v1';
    const helm = res.kind === 'HelmRelease';
    const specs: Obj[] = [];
    if (helm) specs.push({});
    else if (bare) {
      if (isObj(res.value.spec)) specs.push(res.value.spec);
    } else {
      for (const path of [
        ['spec', 'template', 'spec'],
        ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
      ]) {
        const podSpec = at(res.value, path);
        if (isObj(podSpec) && podSpec.containers !== undefined) specs.push(podSpec);
      }
    }
    for (const podSpec of specs) {
      const consumed: { source: Source; keys: Keys }[] = [];
      const pulled = pullSecrets(podSpec);
      for (const kind of ['Secret', 'ConfigMap'] as const) {
        const read = helm
          ? valuesUses(at(res.value, ['spec', 'values']), kind)
          : uses(podSpec, kind);
        if (kind === 'Secret' && options.imagePullSecrets) {
          for (const name of pulled) read.set(name, 'all');
        }
        for (const [name, keys] of read) {
          for (const source of sources) {
            if (source.produces === kind && source.secretName === name && source.res.ns === res.ns)
              consumed.push({ source, keys });
          }
        }
      }
      const ordered = [...consumed.map((c) => c.source)];
      for (const source of sources) {
        const pulls = source.produces === 'Secret' && pulled.includes(source.secretName);
        if (pulls && source.res.ns === res.ns) ordered.push(source);
      }
      for (const source of ordered) {
        const list = consumersOf.get(source) ?? [];
        if (!list.includes(res)) list.push(res);
        consumersOf.set(source, list);
      }
      if (consumed.length === 0) continue;
      if (bare) expected.barePods.add(res.index);
      else expected.checksums.set(res.index, checksumOf(consumed));
    }
  }
  // Operator readers (docs/secret-readers.md): ordered after the sources of the Secret they
  // name, like consumers, never checksummed. A TriggerAuthentication is in the reader table; the
  // custom Backup kind counts only when secretReferences names it.
  for (const res of resources) {
    const secret =
      res.kind === 'TriggerAuthentication' && group(res.apiVersion) === 'keda.sh'
        ? at((at(res.value, ['spec', 'secretTargetRef']) as Json[] | undefined)?.[0], ['name'])
        : options.secretReferences &&
            res.kind === 'Backup' &&
            group(res.apiVersion) === 'example.com'
          ? at(res.value, ['spec', 'credentials', 'name'])
          : undefined;
    for (const source of sources) {
      if (source.secretName !== secret || source.res.ns !== res.ns) continue;
      const list = consumersOf.get(source) ?? [];
      if (!list.includes(res)) list.push(res);
      consumersOf.set(source, list);
    }
  }
  for (const [source, consumers] of consumersOf) {
    for (const c of consumers) expected.edges.push([source.res.index, c.index]);
  }
  if (!options.syncWaves) return expected;

  const waveOfConsumer = (r: Res) => wave(r.annotations, true) as bigint;
  const stores = resources.filter(isStore);
  const serves = (store: Res, source: (typeof sources)[number]) =>
    (store.kind === 'ClusterSecretStore' || source.res.ns === store.ns) &&
    source.stores.some((r) => r.kind === store.kind && r.name === store.name);
  // `fixed`: waves written on what must come before; a wave is raised above them when there is room.
  const place = (res: Res, after: bigint[], fallback: bigint, fixed: bigint[] = []) => {
    let lowest: bigint | undefined;
    for (const w of after) if (lowest === undefined || w < lowest) lowest = w;
    let wanted = lowest === undefined || fallback < lowest ? fallback : lowest - 1n;
    const floor = fixed.reduce<bigint | undefined>(
      (m, w) => (m === undefined || w > m ? w : m),
      undefined,
    );
    if (floor !== undefined && wanted <= floor && floor < (lowest ?? 2n ** 63n) - 1n) {
      wanted = floor + 1n;
    }
    const explicit = wave(res.annotations, false);
    if (explicit !== undefined) {
      if (after.some((w) => w <= explicit) && options.severity === 'error') expected.error = true;
      expected.waves.set(res.index, explicit);
    } else {
      expected.waves.set(res.index, wanted);
    }
  };
  for (const source of sources) {
    const consumers = consumersOf.get(source) ?? [];
    const storeWaves = stores
      .filter((store) => serves(store, source))
      .flatMap((store) => wave(store.annotations, false) ?? []);
    place(
      source.res,
      consumers.map(waveOfConsumer),
      BigInt(options.externalSecretWave),
      storeWaves,
    );
  }
  for (const store of stores) {
    const readers = sources.filter((s) => serves(store, s));
    for (const r of readers) expected.storeEdges.push([store.index, r.res.index]);
    place(
      store,
      readers.map((r) => expected.waves.get(r.res.index) as bigint),
      BigInt(options.storeWave),
    );
  }
  return expected;
}
