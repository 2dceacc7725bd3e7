// What the rules keep until the output is written, counted per consumer (issue #24, peak RSS): a
// consumer with nothing after it shares one empty set of successors, and a checksum keeps no
// record per source it covers. The output is pinned by checksum.test.ts and waves.test.ts.
import { describe, expect, it, vi } from 'vitest';
import type { Resource } from '../src/model/resource.js';
import { groupedOf } from '../src/model/results.js';
import { planChecksums } from '../src/rules/checksums.js';
import type { Consumption } from '../src/rules/consumers.js';
import { listContent } from '../src/rules/sources/fields.js';
import type { TransformOutput } from '../src/rules/transform.js';
import {
  deployment,
  envFrom,
  everyoneReadsAll,
  externalSecret,
  resourceList,
  resultsOf,
  runOk,
  secretKeyRef,
} from './helpers.js';

const seen = vi.hoisted(() => ({
  out: undefined as TransformOutput | undefined,
  consumption: undefined as Consumption | undefined,
  /** While set, the lists pushed to while finding the consumers are noted in it. */
  pushedTo: undefined as Set<unknown> | undefined,
}));
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return {
    ...actual,
    findConsumers: (...args: Parameters<typeof actual.findConsumers>) => {
      const { push } = Array.prototype;
      const pushedTo = seen.pushedTo;
      if (pushedTo) {
        Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
          pushedTo.add(this);
          return push.apply(this, items);
        };
      }
      try {
        seen.consumption = actual.findConsumers(...args);
      } finally {
        Array.prototype.push = push;
      }
      return seen.consumption;
    },
  };
});
// Counted: how often an item's sync phase is read (two annotations each time).
const phases = vi.hoisted(() => ({ read: 0 }));
vi.mock('../src/rules/order/phases.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/order/phases.js')>();
  return {
    ...actual,
    phaseOf: (...args: Parameters<typeof actual.phaseOf>) => {
      phases.read++;
      return actual.phaseOf(...args);
    },
  };
});
vi.mock('../src/rules/transform.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/transform.js')>();
  return {
    ...actual,
    transform: (...args: Parameters<typeof actual.transform>) => {
      seen.out = actual.transform(...args);
      return seen.out;
    },
  };
});

// Counted while the lints run: WeakMap entries set (refs kept by resource, groups by result).
const lintsRun = vi.hoisted(() => ({ weakSets: 0 }));
vi.mock('../src/rules/lints/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/lints/index.js')>();
  return {
    ...actual,
    runLints: (...args: Parameters<typeof actual.runLints>) => {
      const { set } = WeakMap.prototype;
      WeakMap.prototype.set = function (this: WeakMap<object, unknown>, key, value) {
        lintsRun.weakSets++;
        return set.call(this, key, value);
      };
      try {
        return actual.runLints(...args);
      } finally {
        WeakMap.prototype.set = set;
      }
    },
  };
});

/** A wave plan's node (order/waves.ts WaveNode). */
const isNode = (value: unknown) =>
  typeof value === 'object' && value !== null && 'before' in value && 'wave' in value;

const consumers = 200;
const sources = 3;
const items = everyoneReadsAll(sources, consumers);

describe('the rules plan of many consumers', () => {
  phases.read = 0;
  runOk(resourceList(items), { ordering: 'argocd' });
  const plan = (seen.out as TransformOutput).plan;
  const phasesRead = phases.read;

  it("reads an item's sync phase once per item, not once per source it reads", () => {
    // main bab480e: the wave plan and the hook-phase lint each read a consumer's once per source
    // it reads, 2 × 600, and each source's twice (1,206).
    expect(phasesRead).toBeLessThanOrEqual(2 * (sources + consumers) + 2 * sources);
  });

  // main 5687333 made each source a list of its consumers' nodes beside consumersOf's list of
  // them (160k entries, 1.3 MB on the fan-in bench at 10k items).
  it("takes a source's list of consumers as its successors, not a copy", () => {
    expect(plan.consumersOf.size).toBe(sources);
    for (const [source, consumersOfSource] of plan.consumersOf) {
      expect(plan.nodes.get(source.resource)?.before).toBe(consumersOfSource);
    }
  });

  // main 0c4fb3f made each wave edit a path of its own (2,021 lists on the fan-in bench, kept to
  // the writer).
  it("writes each item's wave through one path of the item's annotations, shared", () => {
    const waves = (seen.out as TransformOutput).edits.filter(
      (e) => e.key === 'argocd.argoproj.io/sync-wave',
    );
    expect(waves).toHaveLength(sources);
    expect(new Set(waves.map((e) => e.path)).size).toBe(1);
    expect(waves[0]?.path).toEqual(['metadata', 'annotations']);
  });

  // main 5687333 kept the nodes in a Map (an entry each, 10k on fan-in, and the tables it grew
  // from: ≈0.7 MB).
  it('keeps its nodes by item number, not in a Map entry each', () => {
    const set = vi.spyOn(Map.prototype, 'set');
    let nodeEntries: number;
    try {
      runOk(resourceList(items), { ordering: 'argocd' });
      nodeEntries = set.mock.calls.filter(([, value]) => isNode(value)).length;
    } finally {
      set.mockRestore();
    }
    expect(nodeEntries).toBe(0);
    const { nodes } = (seen.out as TransformOutput).plan;
    expect([...nodes.values()]).toHaveLength(sources + consumers);
  });

  it('gives a list of successors only to the nodes that have one', () => {
    const nodes = [...plan.nodes.values()];
    expect(nodes).toHaveLength(sources + consumers);
    // One per node until session 10, 203.
    expect(new Set(nodes.map((n) => n.before)).size).toBe(sources + 1);
    expect(nodes.filter((n) => n.before.length > 0)).toHaveLength(sources);
    // main bab480e: a Set each (≈2.5 KB for the 80 consumers of a source on the fan-in bench).
    expect(nodes.filter((n) => !Array.isArray(n.before))).toEqual([]);
    // The consumers, with no wave annotation, share one wave; the sources get the ones placed.
    // main bab480e: one per node, 203.
    expect(new Set(nodes.map((n) => n.wave)).size).toBe(sources + 1);
    expect(nodes.filter((n) => n.before.length > 0).map((n) => n.before.length)).toEqual([
      consumers,
      consumers,
      consumers,
    ]);
  });

  it('keeps no Map per pod template of the sources it reads', () => {
    const templates = (seen.consumption?.consumers ?? []).filter((c) => 'shape' in c);
    expect(templates).toHaveLength(consumers);
    // main: a Map of the sources read and their keys per template, 200, kept by its checksum.
    expect(templates.filter((t) => t.consumed instanceof Map)).toEqual([]);
    const kept = [...plan.checksums.values()].flat().flatMap((c) => Object.values(c));
    expect(kept.filter((v) => v instanceof Map)).toEqual([]);
    expect(templates[0]?.consumed.sources.map((s) => s.secretName)).toEqual(['s0', 's1', 's2']);
  });

  it("keeps a template's sources and keys as rows of the run's columns, not lists of its own", () => {
    const templates = (seen.consumption?.consumers ?? []).filter((c) => 'shape' in c);
    // The arrays and typed arrays a template's reads hold, two levels down (its record, then what
    // that holds): main 400, a list of sources and one of keys per template.
    const held = new Set<object>();
    const note = (value: unknown, depth: number) => {
      if (typeof value !== 'object' || value === null) return;
      if (Array.isArray(value) || ArrayBuffer.isView(value)) held.add(value);
      if (depth > 0) for (const inner of Object.values(value)) note(inner, depth - 1);
    };
    for (const { consumed } of templates) note(consumed, 2);
    expect(templates).toHaveLength(consumers);
    expect(held.size).toBeLessThanOrEqual(4);
    expect(templates[199]?.consumed.sources.map((s) => s.secretName)).toEqual(['s0', 's1', 's2']);
    expect([0, 1, 2].map((i) => templates[199]?.consumed.keys(i))).toEqual(['all', 'all', 'all']);
  });

  it('keeps no record per consumer, and no PodSpec or empty annotations record per template', () => {
    const templates = (seen.consumption?.consumers ?? []).filter((c) => 'shape' in c);
    // main: each template's PodTemplate (its PodSpec, 200) and a new {} for its annotations (200),
    // and a record with a list of templates per consumer (200).
    expect(seen.consumption?.consumers).toHaveLength(consumers);
    expect(seen.consumption?.consumers.filter((c) => 'templates' in c)).toEqual([]);
    expect(templates.filter((t) => 'template' in t)).toEqual([]);
    expect(new Set(templates.map((t) => t.current)).size).toBe(1);
  });

  it('lists the consumers of each source once, in a list', () => {
    const lists = [...plan.consumersOf.values()];
    expect(lists).toHaveLength(sources);
    // main: a Set per source, 3 of 200 entries each (≈2.6 KB a Set of 80 on the fan-in bench).
    expect(lists.filter((l) => !Array.isArray(l))).toEqual([]);
    expect(lists.map((l) => new Set(l).size)).toEqual([consumers, consumers, consumers]);
    expect(lists[0]?.length).toBe(consumers);
  });

  it('keeps no record per source and checksum, and gives them when asked', () => {
    const checksums = [...plan.checksums.values()].flat();
    expect(checksums).toHaveLength(consumers);
    // main: a `consumed` array of one `{ source, keys }` record per source, 600 in all.
    const kept = checksums.flatMap((c) => Object.values(c).filter(Array.isArray).flat());
    expect(kept.filter((v) => typeof v === 'object' && v !== null && 'keys' in v)).toEqual([]);
    const [first] = checksums;
    expect(first?.consumed.map((r) => [r.source.secretName, r.keys])).toEqual([
      ['s0', 'all'],
      ['s1', 'all'],
      ['s2', 'all'],
    ]);
  });
});

describe("each source's consumers", () => {
  it('are listed in a list made at its length, not pushed to per consumer', () => {
    // A list pushed to grows by copies (17, 41, 77, 131 entries for 80 consumers), each kept to
    // the end of a run; main pushed each of the 3 × 200 consumers onto its source's list.
    const pushedTo = new Set<unknown>();
    seen.pushedTo = pushedTo;
    try {
      runOk(resourceList(items));
    } finally {
      seen.pushedTo = undefined;
    }
    const lists = new Set<unknown>(seen.consumption?.consumersOf.values());
    expect(lists.size).toBe(sources);
    expect(pushedTo.size).toBeGreaterThan(0);
    expect([...lists].filter((list) => pushedTo.has(list))).toEqual([]);
    expect([...lists].map((l) => (l as Resource[]).map((r) => r.name))).toEqual(
      Array.from({ length: sources }, () => Array.from({ length: consumers }, (_, c) => `d${c}`)),
    );
  });
});

describe('the keyed references of many consumers', () => {
  it('keeps for the lints only those that read a key their Secret will not have', () => {
    // Each ExternalSecret makes `password` and `user`: one consumer in fifty reads `pasword`.
    const keyed = Array.from({ length: consumers }, (_, c) =>
      deployment(`k${c}`, secretKeyRef('s0', c % 50 === 0 ? 'pasword' : 'password')),
    );
    const { stdout } = runOk(resourceList([externalSecret('s0'), ...keyed]));
    // main: a record per keyed reference, 200, kept from the consumers stage to the lints.
    expect(seen.consumption?.keyedReads.map((r) => r.consumer.name)).toEqual([
      'k0',
      'k50',
      'k100',
      'k150',
    ]);
    const warned = resultsOf(stdout).filter((r) => String(r.message).includes('reads key pasword'));
    expect(warned).toHaveLength(4);
  });
});

describe('the order graph of a source added to from several sides', () => {
  // One ClusterExternalSecret is a source per namespace it selects: each of them orders its store
  // before it, and its consumers after it; one workload is also an operator reader of it.
  const namespaces = ['shop', 'shop-b'].map(
    (name) =>
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels: {team: shop}\n`,
  );
  // Its Secret is named after it (no target), read whole (dataFrom).
  const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata: {name: db}
spec:
  namespaceSelectors: [{matchLabels: {team: shop}}]
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    dataFrom: [{extract: {key: db, version: "1"}}]
`;
  const store = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider: {vault: {server: "https://vault", path: secret}}
`;
  it('lists each successor once, in the order found', () => {
    runOk(
      resourceList([
        ...namespaces,
        store,
        ces,
        deployment('api', envFrom('db'), { namespace: 'shop' }),
        deployment('web', envFrom('db'), { namespace: 'shop-b' }),
      ]),
      { ordering: 'argocd' },
    );
    const { nodes } = (seen.out as TransformOutput).plan;
    const successors = (kind: string) =>
      [...nodes.values()]
        .find((n) => n.resource.kind === kind)
        ?.before.map((n) => `${n.kind} ${n.name}`);
    // The store was added to once per namespace the ClusterExternalSecret writes in.
    expect(successors('ClusterSecretStore')).toEqual(['ClusterExternalSecret db']);
    expect(successors('ClusterExternalSecret')).toEqual(['Deployment api', 'Deployment web']);
  });
});

// What planChecksums makes per source and checksum, counted: a pair (content and Secret name) is
// found by its content alone when read under one name, as nearly every content is.
describe('planChecksums, counted', () => {
  /** n ExternalSecrets s0…, each read by a Deployment d0… as `reads` says, run once (seen.consumption). */
  function consumed(n: number, reads: (i: number) => string) {
    const items = Array.from({ length: n }, (_, i) => [
      externalSecret(`s${i}`),
      deployment(`d${i}`, reads(i)),
    ]).flat();
    const text = resourceList(items);
    runOk(text);
    return { consumption: seen.consumption as Consumption, text, items };
  }

  /**
   * The Maps made and WeakMap entries set by planChecksums over 30 sources, each read by one
   * Deployment as `reads` says, once the run has made what it shares (the results' refs); its
   * checksums checked against an uncounted call's.
   */
  function counted(reads: (source: string) => string): { made: number; weakSets: number } {
    const { consumption, text } = consumed(30, (i) => reads(`s${i}`));
    const size = { characters: text.length, bytes: () => text.length };
    const expected = planChecksums(consumption, size);
    const weak = vi.spyOn(WeakMap.prototype, 'set');
    let planned: ReturnType<typeof planChecksums>;
    let made: number;
    let weakSets: number;
    try {
      ({ value: planned, made } = mapsMadeBy(() => planChecksums(consumption, size)));
      weakSets = weak.mock.calls.length;
    } finally {
      weak.mockRestore();
    }
    expect([...planned.checksummed.values()].flat().map((c) => c.value)).toEqual(
      [...expected.checksummed.values()].flat().map((c) => c.value),
    );
    return { made, weakSets };
  }

  it('makes no Map per content it hashes', () => {
    // The run's own (the plan's, the work's look-ups); main made one more per content: 35.
    expect(counted(envFrom).made).toBeLessThanOrEqual(7);
  });

  // main 5687333 made a Map per source read by key (its pair numbers by key set and by the set's
  // text), and a WeakMap entry per content and per key set (its text, kept beside the entry's).
  it('makes no Map per source read by key, nor a text per content beside its entry', () => {
    const { made, weakSets } = counted((source) => secretKeyRef(source, 'password'));
    // main: 31 WeakMap entries (one per content, one per key set), 36 Maps (one per source).
    expect(weakSets).toBe(0);
    expect(made).toBeLessThanOrEqual(8);
  });

  it('keeps no Map entry nor list per checksummed resource', () => {
    const n = 30;
    const { consumption, text, items } = consumed(n, (i) => envFrom(`s${i}`));
    const set = vi.spyOn(Map.prototype, 'set');
    let plan: ReturnType<typeof planChecksums>;
    let sets: number;
    try {
      plan = planChecksums(consumption, { characters: text.length, bytes: () => text.length });
      sets = set.mock.calls.length;
    } finally {
      set.mockRestore();
    }
    // The work's own, three per content (its pair, id and value); main fdb9a90 set one more per
    // resource, a list of its one checksum: 120.
    expect(sets).toBeLessThanOrEqual(3 * n);
    const resources = [...plan.checksummed.keys()];
    expect(resources.map((r) => r.name)).toEqual(
      items.filter((_, i) => i % 2 === 1).map((_, i) => `d${i}`),
    );
    for (const [resource, list] of plan.checksummed) {
      expect(plan.checksummed.get(resource)).toEqual(list);
      expect(list.map((c) => c.annotation)).toHaveLength(1);
    }
  });

  /** n ExternalSecrets, each read whole by one Deployment with the next one (two a list). */
  function twoEach(n: number): { consumption: Consumption; text: string } {
    return consumed(
      n,
      (i) => `envFrom:\n- secretRef: {name: s${i}}\n- secretRef: {name: s${(i + 1) % n}}`,
    );
  }

  // main 0c4fb3f kept each list's value in a Map by its pair numbers as a text: an entry and a
  // text per checksum of two sources or more (7,900 on the fan-in bench).
  it('keeps no Map entry nor text per list of pairs it hashes', () => {
    const n = 30;
    const { consumption, text } = twoEach(n);
    const set = vi.spyOn(Map.prototype, 'set');
    const fromCharCode = vi.spyOn(String, 'fromCharCode');
    try {
      const plan = planChecksums(consumption, {
        characters: text.length,
        bytes: () => text.length,
      });
      expect(new Set([...plan.checksummed.values()].flat().map((c) => c.value)).size).toBe(n);
      // Two per source (its pair number read whole, its content's pair); main: 3n.
      expect(set.mock.calls.length).toBeLessThanOrEqual(2 * n);
      expect(fromCharCode).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
      fromCharCode.mockRestore();
    }
  });

  // main 0c4fb3f kept each source's pair number in a Map per key set, by source: an entry per
  // source and set read (0.45 MB on the fan-in bench).
  it("finds a source's pair by its number, in a column once a sixteenth of the sources have one", () => {
    const n = 64;
    const { consumption, text } = consumed(n, (i) => secretKeyRef(`s${i}`, 'password'));
    const size = { characters: text.length, bytes: () => text.length };
    const expected = planChecksums(consumption, size);
    const set = vi.spyOn(Map.prototype, 'set');
    let sets: number;
    let plan: ReturnType<typeof planChecksums>;
    try {
      plan = planChecksums(consumption, size);
      sets = set.mock.calls.length;
    } finally {
      set.mockRestore();
    }
    expect([...plan.checksummed.values()].flat().map((c) => c.value)).toEqual(
      [...expected.checksummed.values()].flat().map((c) => c.value),
    );
    // Each content's pair, the key set's table by its text, and the sources' pairs in a Map
    // until n / 16 of them: main 2n + 1.
    expect(sets).toBeLessThanOrEqual(n + 1 + n / 16);
  });

  it('makes no column for a key set read of few sources (a column per set would be sets × sources)', () => {
    const n = 64;
    const { consumption, text } = consumed(n, (i) => secretKeyRef(`s${i}`, `key-${i}`));
    let made = 0;
    const BuiltIn = globalThis.Int32Array;
    globalThis.Int32Array = class extends BuiltIn {
      constructor(...args: ConstructorParameters<Int32ArrayConstructor>) {
        super(...args);
        made++;
      }
    } as Int32ArrayConstructor;
    try {
      planChecksums(consumption, { characters: text.length, bytes: () => text.length });
    } finally {
      globalThis.Int32Array = BuiltIn;
    }
    // The checksums' table by item number, the lists' table and their hashes: no column.
    expect(made).toBeLessThanOrEqual(3);
  });

  // main 0c4fb3f wrote a content's canonical JSON and its name's, then joined them into the
  // entry's text and kept a slice of it and the name's beside it.
  it("writes a pair's entry in one call of the JSON writer, keeping its text alone", () => {
    const n = 30;
    const { consumption, text } = twoEach(n);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      planChecksums(consumption, { characters: text.length, bytes: () => text.length });
      // main: 2n.
      expect(stringify.mock.calls.length).toBeLessThanOrEqual(n);
    } finally {
      stringify.mockRestore();
    }
  });

  // main copied each list's pair numbers to sort them (one list per checksum of two sources or
  // more), and wrote its pair numbers and entries into two more lists made for it.
  it('copies no list of pair numbers per checksum', () => {
    const n = 30;
    const { consumption, text } = consumed(
      n,
      (i) => `envFrom:\n- secretRef: {name: s${i}}\n- secretRef: {name: s${(i + 1) % n}}`,
    );
    const slice = vi.spyOn(Array.prototype, 'slice');
    try {
      const plan = planChecksums(consumption, {
        characters: text.length,
        bytes: () => text.length,
      });
      expect(new Set([...plan.checksummed.values()].flat().map((c) => c.value)).size).toBe(n);
      // main: 30.
      expect(slice).not.toHaveBeenCalled();
    } finally {
      slice.mockRestore();
    }
  });
});

describe('a finding that names a group of resources (unpinned-version)', () => {
  // main 0c4fb3f made a ref per member for it (and an entry in the refs' WeakMap), kept to the
  // end of the run: thousands of ExternalSecrets on a few stores, for `impact` alone.
  it('keeps its members, their refs made when impact asks', () => {
    const n = 40;
    const items = Array.from({ length: n }, (_, i) => [
      externalSecret(`s${i}`),
      deployment(`d${i}`, envFrom(`s${i}`)),
    ]).flat();
    lintsRun.weakSets = 0;
    runOk(resourceList(items));
    const { weakSets } = lintsRun;
    const grouped = (seen.out as TransformOutput).results.map(groupedOf).filter(Boolean);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]?.members.map((m) => m.name)).toEqual(
      Array.from({ length: n }, (_, i) => `s${i}`),
    );
    // The result's ref, its group and the rule's tags; main: n more.
    expect(weakSets).toBeLessThanOrEqual(3);
  });
});

describe("a source's content narrowed to the keys read (sources/fields.ts listContent)", () => {
  // main 0c4fb3f kept a Map of every narrowing per source (1,400 on the fan-in bench), which the
  // checksums, asking once per source and key set, never needed.
  it('keeps no Map of its narrowings, and hands the same keys read again the same object', () => {
    const normalized = {
      data: ['user', 'password', 'token'].map((secretKey) => ({ secretKey, remoteRef: {} })),
    };
    const content = listContent(normalized, 'data', 'secretKey', true);
    const { value, made } = mapsMadeBy(() => [
      content(new Set(['password'])),
      content(new Set(['password'])),
      content(new Set(['token', 'user'])),
    ]);
    const [password, again, both] = value;
    expect(made).toBe(0);
    expect(again).toBe(password);
    expect(password).toEqual({ data: [normalized.data[1]] });
    expect(both).toEqual({ data: [normalized.data[0], normalized.data[2]] });
    expect(content('all')).toBe(normalized);
  });
});

/** What `run` returns, and the Maps made meanwhile (counted by a subclass put in Map's place). */
function mapsMadeBy<T>(run: () => T): { value: T; made: number } {
  let made = 0;
  const BuiltIn = globalThis.Map;
  globalThis.Map = class extends BuiltIn<unknown, unknown> {
    constructor(entries?: Iterable<readonly [unknown, unknown]> | null) {
      super(entries);
      made++;
    }
  } as MapConstructor;
  try {
    const value = run();
    return { value, made };
  } finally {
    globalThis.Map = BuiltIn;
  }
}
