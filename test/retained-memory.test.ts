// What a run keeps alive per item and per reference, counted (objects, not bytes or time): peak
// RSS is all that survived a scavenge (ARCHITECTURE.md, Memory), so what is held across a whole
// pass weighs as much as what the run needs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { externalSecret, helmRelease, readsS } from '../bench/adversarial/_fill.mjs';
// @ts-expect-error: a plain .mjs script without types
import { generate, toResourceList } from '../bench/generate.mjs';
import { applyEdits } from '../src/krm/apply-edits.js';
import { readItems } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import { quickParse, ScalarCache } from '../src/krm/yaml/quick-parse.js';
import { editText } from '../src/krm/yaml/splice.js';
import { defaultConfig } from '../src/model/config.js';
import { annotationEdit, type Edit } from '../src/model/edit.js';
import type { JsonObject } from '../src/model/json.js';
import type { Result } from '../src/model/results.js';
import { readPlan } from '../src/rules/read-plan.js';
import { oneKey, secretUses, sharedKeySets } from '../src/rules/workloads/references.js';
import { type Analysis, analyse, run } from '../src/run.js';

/**
 * The heap in use (after a full collection) at each whole re-read applyEdits makes for a proof,
 * and the real parseItem. Bytes, not objects: a WeakRef would keep its value alive to the end of
 * the test's synchronous run.
 */
const reread = vi.hoisted(() => ({
  /** Off in the other tests: two collections per re-read would take minutes there. */
  recording: false,
  heapAtEach: [] as number[],
  parseItem: undefined as undefined | typeof import('../src/krm/read.js').parseItem,
}));
vi.mock('../src/krm/read.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/read.js')>();
  reread.parseItem = actual.parseItem;
  return {
    ...actual,
    parseItem: (...args: Parameters<typeof actual.parseItem>) => {
      if (reread.recording) reread.heapAtEach.push(heapInUse());
      return actual.parseItem(...args);
    },
  };
});

/** The heap in use once the rules' transform returns, while `recording`. */
const planned = vi.hoisted(() => ({
  recording: false,
  afterTransform: undefined as number | undefined,
  atWriter: undefined as number | undefined,
}));
vi.mock('../src/rules/transform.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/transform.js')>();
  return {
    ...actual,
    transform: (...args: Parameters<typeof actual.transform>) => {
      const output = actual.transform(...args);
      if (planned.recording) planned.afterTransform = heapInUse();
      return output;
    },
  };
});

/** The heap in use when the writer starts applying the edits, while `planned.recording`. */
vi.mock('../src/krm/apply-edits.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/apply-edits.js')>();
  return {
    ...actual,
    applyEdits: (...args: Parameters<typeof actual.applyEdits>) => {
      if (planned.recording) planned.atWriter ??= heapInUse();
      return actual.applyEdits(...args);
    },
  };
});

/** V8's `gc`, exposed in a new context once the flag is set: made once, as a context is large. */
let gc: (() => void) | undefined;

/** The bytes in use after a full collection. */
function heapInUse(): number {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  // Twice: objects freed by the first collection's weak callbacks go in the second.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('apply-edits', () => {
  it('keeps no item’s re-read value once that item is proven (no anchors in the document)', () => {
    // Each item ≈1,500 mappings when read whole; a quoted scalar over two lines is no plain
    // layout, so its edit is proven by a re-read: above the edit's site, where the line locator
    // reads (one below it would let the edit go unproven).
    // Sixteen items: a held value per item must stand well above the heap's noise between two
    // readings (±1 value in one worker), so the growth is read over twelve of them.
    const count = 16;
    const big = Array.from(
      { length: 1500 },
      (_, j) => `      - {a: ${j}, b: x${j}, c: y${j}, d: z${j}}\n`,
    ).join('');
    const item = (i: number) =>
      `- apiVersion: apps/v1\n  kind: Deployment\n  x: "a\n    b"\n  metadata:\n    name: d${i}\n  spec:\n    big:\n${big}`;
    const items = Array.from({ length: count }, (_, i) => item(i)).join('');
    const text = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}`;
    const input = readInput(text);
    const read = readItems(input, readPlan(defaultConfig));
    const edits: Edit[] = read.resources.map((r) => ({
      item: r.index,
      path: ['metadata', 'annotations'],
      key: 'checksum/x',
      value: 'abc',
    }));
    // Every item counted as projected: its proof re-reads it whole (parseItem).
    const all = new Set(read.resources.map((r) => r.index));
    const results: Result[] = [];
    reread.heapAtEach.length = 0;
    reread.recording = true;
    const edited = applyEdits(input, read.resources, edits, results, read.aliased, all);
    reread.recording = false;
    expect(results).toEqual([]);
    expect(edited.size).toBe(count);
    // From the fourth re-read on: the first ones also build what every later one reuses.
    const heaps = reread.heapAtEach as number[];
    expect(heaps).toHaveLength(count);
    const [fourth, last] = [heaps[3] as number, heaps[count - 1] as number];
    // What one whole value holds, read the same way (sixteen held: the heap's noise is about one value).
    const before = heapInUse();
    const span = input.items[0]?.span;
    if (!reread.parseItem || !span) throw new Error('no parseItem or span');
    const held = Array.from({ length: 16 }, () => reread.parseItem?.(input.text, span));
    const oneValue = (heapInUse() - before) / held.length;
    expect(oneValue).toBeGreaterThan(100_000);
    // Main kept the proven items' values to the end: ≈12 × oneValue more at the last re-read
    // than at the fourth. The rest of the process allocates too: a third of that is the bound.
    expect(last - fourth).toBeLessThan(4 * oneValue);
  });
});

describe('apply-edits, many HelmReleases given one post-renderer entry', () => {
  // bench/adversarial helm-releases: every release reads one Secret, so each is given the same
  // entry (≈2 KB of text), and each edit is proven by a re-read.
  const count = 1000;
  const releases = Array.from({ length: count }, (_, i) => helmRelease(i, readsS)).join('');
  const analysis = () => analyse(`${externalSecret('s')}${releases}`, {}) as Analysis;

  it('leaves the values the rules read as read', () => {
    const { input, resources, results, planned, aliased, projected } = analysis();
    const before = resources.map((r) => JSON.stringify(r.value));
    const edited = applyEdits(input, resources, planned.edits, [...results], aliased, projected);
    expect(edited.size).toBe(count + 1);
    // Main appended a copy of the entry to each release's value, its proof's expected value,
    // and kept it there to the end of the run (helm-releases 8 MB: 36 MB).
    expect(resources.map((r) => JSON.stringify(r.value))).toEqual(before);
  });

  it('keeps one text of the equal entries it writes', () => {
    // The lesser of two measures, each on its own analysis: code the compiler finishes meanwhile
    // only adds to one (it failed once at the bound in a full run under load).
    const measure = () => {
      const { input, resources, results, planned, aliased, projected } = analysis();
      const before = heapInUse();
      const edited = applyEdits(input, resources, planned.edits, [...results], aliased, projected);
      const bytes = heapInUse() - before;
      expect(edited.size).toBe(count + 1);
      return bytes;
    };
    // A first run's measure holds what a process makes once (its code, 0.5–1.2 KB a release
    // when this test runs alone): not counted.
    measure();
    const perRelease = Math.min(measure(), measure()) / count;
    // Main: ≈2.9 KB a release (its entry's text, ≈2 KB, and the copy in its value); now ≈55
    // bytes (a splice and its place in the map).
    expect(perRelease).toBeLessThan(500);
  });
});

describe('editText', () => {
  // A quoted value: main's layout check matched its quote, and a regular expression's last
  // successful match keeps its subject (RegExp.input), the item's text, until the next.
  it.each([
    ['plain values', 'c'],
    ['a quoted value', "'c'"],
  ])('keeps nothing of the item it edited once it returns (%s)', (_, name) => {
    const before = heapInUse();
    (() => {
      // An item's text is a slice of the input's: held, it holds the whole 8 MB input.
      const item = `- kind: ConfigMap\n  metadata:\n    name: ${name}\n`;
      const input = `${'#'.repeat(8_000_000)}\n${item}`;
      const edit = annotationEdit(0, ['metadata'], 'checksum/x', 'abc');
      const splices = editText(input.slice(-item.length), true, [edit], () => null, '\n');
      expect(splices).toHaveLength(1);
    })();
    // Main (fbab254's one job object for every call) held the last item's text, and so its
    // input, until the next call: maybe another input's, in one process.
    expect(heapInUse() - before).toBeLessThan(2_000_000);
  });
});

describe('the quick reader', () => {
  const count = 20_000;
  /** A document of one list, `x`, of `count` entries. */
  const listOf = (entry: (i: number) => string) =>
    `x:\n${Array.from({ length: count }, (_, i) => `- ${entry(i)}\n`).join('')}`;
  /**
   * The heap bytes the value `make` returns holds: the median of five measures. What else the
   * heap gains or loses meanwhile moves one measure either way (code a compiler thread finishes,
   * bytecode a collection flushes); one such measure failed the 1.25 bound once under load.
   */
  const bytesOf = (make: () => unknown) => {
    const measures = Array.from({ length: 5 }, () => bytesOnce(make)).sort((a, b) => a - b);
    return measures[2] as number;
  };
  /** Held here, not in a local of the caller: a measure's value must be gone before the next. */
  let held: { x: unknown[] } | undefined;
  const bytesOnce = (make: () => unknown) => {
    const before = heapInUse();
    held = make() as { x: unknown[] };
    const bytes = heapInUse() - before;
    expect(held.x).toHaveLength(count);
    held = undefined;
    return bytes;
  };
  /** quickParse, once before: the reader's compiled code and feedback are on the heap too at a first call. */
  const parse = (text: string) => {
    quickParse(text, 0, text.length, false);
    return bytesOf(() => quickParse(text, 0, text.length, false, new ScalarCache()));
  };

  it('sizes a mapping to its keys, as JSON.parse does', () => {
    // Mappings of one and two keys, as most of a workload's references are (`secretKeyRef:
    // {name, key}`), with values that are no objects of their own (small integers).
    const text = listOf((i) => (i % 2 === 0 ? `a: ${i % 100}` : `{b: 1, c: ${i % 100}}`));
    const quick = parse(text);
    const exact = bytesOf(() =>
      JSON.parse(JSON.stringify(quickParse(text, 0, text.length, false))),
    );
    // Main built each from `{}`, with room for four properties: 56 bytes for one or two keys where
    // JSON.parse takes 32 and 40 (≈1.4 times the heap).
    expect(quick).toBeLessThan(exact * 1.25);
  });
});

describe('references', () => {
  it('shares one key set among the references that read the same key', () => {
    const env = (i: number) => ({
      name: `E${i}`,
      valueFrom: { secretKeyRef: { name: `s${i}`, key: i % 2 === 0 ? 'password' : 'user' } },
    });
    const podSpec: JsonObject = {
      containers: Array.from({ length: 10 }, (_, c) => ({
        name: `c${c}`,
        env: Array.from({ length: 20 }, (_, i) => env(i)),
      })),
    };
    const uses = secretUses(podSpec, ['spec']);
    expect(uses).toHaveLength(200);
    // Main built a Set per reference: 200.
    expect(new Set(uses.map((u) => u.keys)).size).toBe(2);
    expect(uses[0]?.keys).toEqual(new Set(['password']));
  });

  it('shares the set of a one-item volume with the references that read that key', () => {
    const podSpec: JsonObject = {
      containers: [
        {
          name: 'c',
          env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'tls.crt' } } }],
        },
      ],
      volumes: Array.from({ length: 20 }, (_, i) => ({
        name: `v${i}`,
        projected: {
          sources: [{ secret: { name: `s${i}`, items: [{ key: 'tls.crt', path: 'c' }] } }],
        },
      })),
    };
    const uses = secretUses(podSpec, ['spec']);
    expect(uses).toHaveLength(21);
    // bab480e built a Set per volume: 21 (each then written as text again for the checksums).
    expect(new Set(uses.map((u) => u.keys)).size).toBe(1);
    expect(uses[20]?.keys).toEqual(new Set(['tls.crt']));
  });

  it('keeps at most sharedKeySets shared key sets', () => {
    const first = oneKey('k-first');
    for (let i = 0; i < sharedKeySets; i++) oneKey(`k${i}`);
    // Cleared once full: the first key's set is a new one.
    expect(oneKey('k-first')).not.toBe(first);
    expect([...oneKey('k-first')]).toEqual(['k-first']);
  });
});

describe('the pipeline (run.ts)', () => {
  it('drops the plan before a run’s writer', () => {
    // fan-in (20 references a pod): the bench shape with the largest plan per item.
    const text = toResourceList(generate(6000, 1, 'fan-in').items);
    planned.recording = true;
    run(text);
    planned.recording = false;
    const { afterTransform, atWriter } = planned;
    if (atWriter === undefined || afterTransform === undefined) throw new Error('no writer');
    // Freed between the rules and the writer, at 4k items: 1.26–1.72 MB, −0.06–0.50 MB with the
    // plan kept (measured at the collection main.ts asked for there until session 11; 4 runs
    // each). 6k items since session 13: with a template's reads as rows of the run's columns
    // (consumers.ts Reads), not two lists, the plan of 4k items freed 0.9 MB. Since session 15
    // the wave plan keeps no node lists beside consumersOf's, nor a Map of its nodes: 0.75–1.1
    // MB freed at 6k, −0.26–0.20 MB with the plan kept (3 runs each).
    expect(afterTransform - atWriter).toBeGreaterThan(500_000);
  });
});

describe('the built CLI (dist/secret-rollout.cjs; `npm test` builds it first)', () => {
  const cli = path.join(import.meta.dirname, '..', 'dist/secret-rollout.cjs');
  /** The full collections V8 traces as asked for (`gc()`: reason "testing") in a run. */
  const askedFor = (input: string) => {
    const run = spawnSync(process.execPath, ['--trace-gc', cli], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    expect(run.status).toBe(0);
    return run.stdout.split('\n').filter((l) => /Mark-Compact.*testing/.test(l)).length;
  };

  it('asks V8 for no full collection, on a large input or a small one', () => {
    // 1k bench items: 1.4 MB, over main.ts's largeInput (1 MiB). Main bab480e: 1, before the
    // writer; 07ad801: 2 (ARCHITECTURE.md, GC settings: why none).
    const large = toResourceList(generate(1000).items);
    expect(large.length).toBeGreaterThan(1 << 20);
    expect(askedFor(large)).toBe(0);
    expect(askedFor(toResourceList(generate(20).items))).toBe(0);
  });
});
