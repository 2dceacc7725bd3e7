// A source's content is serialised and hashed once per run and key set, not once per consumer:
// the work is counted through the hash function, and the values stay those checksum.test.ts pins.
import { describe, expect, it, vi } from 'vitest';
import { impact } from '../src/impact-run.js';
import { type Entry, entryOrder } from '../src/rules/checksums.js';
import {
  deployment,
  envFrom,
  externalSecret,
  resourceList,
  runOk,
  secretKeyRef,
} from './helpers.js';

const hashed = vi.hoisted(() => ({
  texts: [] as string[],
  written: [] as string[],
  pieces: 0,
  whole: 0,
  sorts: 0,
  sized: [] as unknown[],
}));
vi.mock('../src/model/hash.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/model/hash.js')>();
  return {
    ...actual,
    canonicalJson: (value: Parameters<typeof actual.canonicalJson>[0]) => {
      const text = actual.canonicalJson(value);
      hashed.written.push(text);
      return text;
    },
    canonicalSize: (value: Parameters<typeof actual.canonicalSize>[0], limit: number) => {
      hashed.sized.push(value);
      return actual.canonicalSize(value, limit);
    },
    sha256Hex: (text: string) => {
      hashed.texts.push(text);
      return actual.sha256Hex(text);
    },
    sortShort: <T>(array: T[], compare: (a: T, b: T) => number) => {
      hashed.sorts++;
      return actual.sortShort(array, compare);
    },
    sha256HexOfPieces: (pieces: readonly string[], count = pieces.length) => {
      const counted = pieces.slice(0, count);
      hashed.texts.push(counted.join(''));
      hashed.pieces += count;
      hashed.whole += counted.filter((p) => p.startsWith('{"content":') && p.endsWith('}')).length;
      return actual.sha256HexOfPieces(pieces, count);
    },
  };
});

/** How many texts hashed in one run held the source's remote key (its content). */
function hashesOf(items: string[], marker: string, settings?: Record<string, string>): number {
  hashed.texts.length = 0;
  runOk(resourceList(items), settings);
  return hashed.texts.filter((text) => text.includes(marker)).length;
}

describe('checksum work', () => {
  const consumers = 30;
  const es = externalSecret('big', { namespace: 'shop' });

  it('one hash for a source read whole by many consumers', () => {
    const items = Array.from({ length: consumers }, (_, i) =>
      deployment(`api-${i}`, envFrom('big'), { namespace: 'shop' }),
    );
    // main: one per consumer (30).
    expect(hashesOf([es, ...items], 'db/big')).toBe(1);
  });

  it('one hash per key set read, whatever the number of consumers and their order', () => {
    const reads = [envFrom('big'), secretKeyRef('big', 'password'), secretKeyRef('big', 'user')];
    const items = Array.from({ length: consumers }, (_, i) =>
      deployment(`api-${i}`, reads[i % reads.length] as string, { namespace: 'shop' }),
    );
    // Two sources in either order are one set too.
    const other = externalSecret('other', { namespace: 'shop' });
    const both = [
      `${envFrom('big')}\n- secretRef: {name: other}`,
      `${envFrom('other')}\n- secretRef: {name: big}`,
    ];
    const pairs = both.map((refs, i) => deployment(`both-${i}`, refs, { namespace: 'shop' }));
    expect(
      hashesOf(
        [es, other, ...items, ...pairs, ...pairs.map((p) => p.replace(/both-/g, 'again-'))],
        'db/big',
      ),
    ).toBe(4);
  });

  it('one hash per set of sources past 64 a template, in any order, and one per other set', () => {
    // Sets of pair numbers are found by a hash of the sorted numbers, then compared (checksums.ts
    // ChecksumWork's table of lists; until 0c4fb3f, past 64 by their decimals, shorter ones by a
    // character per number): sets must be told apart and found again.
    const n = 70;
    const sources = Array.from({ length: n }, (_, s) => externalSecret(`s${s}`));
    const reading = (names: number[]) =>
      `envFrom:\n${names.map((s) => `- secretRef: {name: s${s}}`).join('\n')}`;
    const all = Array.from({ length: n }, (_, s) => s);
    const items = [
      ...Array.from({ length: 5 }, (_, i) =>
        deployment(`all-${i}`, reading([...all.slice(i), ...all.slice(0, i)])),
      ),
      deployment('fewer', reading(all.slice(0, n - 1))),
      deployment('few-a', reading([1, 0])),
      deployment('few-b', reading([0, 1])),
      deployment('few-c', reading([0, 2])),
    ];
    // The texts hashed that hold s0's remote key: the 70, the 69, {s0, s1} and {s0, s2}.
    expect(hashesOf([...sources, ...items], 'db/s0"')).toBe(4);
  });

  it('one hash per set of two sources, many sets, each found again in the other order', () => {
    // Past 512 lists the table of lists doubles (checksums.ts ChecksumWork addList): each list is
    // placed again by its hash, and found there by the next template that reads its sources.
    const n = 40;
    const sources = Array.from({ length: n }, (_, s) => externalSecret(`s${s}`));
    const sets: [number, number][] = [];
    for (let a = 0; a < n && sets.length < 600; a++) {
      for (let b = a + 1; b < n && sets.length < 600; b++) sets.push([a, b]);
    }
    const reading = (names: number[]) =>
      `envFrom:\n${names.map((s) => `- secretRef: {name: s${s}}`).join('\n')}`;
    const items = sets.flatMap(([a, b], i) => [
      deployment(`ab-${i}`, reading([a, b])),
      deployment(`ba-${i}`, reading([b, a])),
    ]);
    hashed.texts.length = 0;
    const out = runOk(resourceList([...sources, ...items])).stdout;
    // One text hashed per set: its list of two entries.
    expect(hashed.texts.filter((t) => t.startsWith('[{"content":')).length).toBe(600);
    const values = [...out.matchAll(/checksum\/external-secrets: "?([0-9a-f]{64})/g)].map(
      (m) => m[1],
    );
    expect(values).toHaveLength(1200);
    expect(new Set(values).size).toBe(600);
  });

  it('one hash for a ConfigMap read by many consumers, though it builds its content per read', () => {
    const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
data:
  mode: fast-lane
`;
    const items = Array.from({ length: consumers }, (_, i) =>
      deployment(`api-${i}`, 'envFrom:\n- configMapRef:\n    name: settings', {
        namespace: 'shop',
      }),
    );
    // main: one per consumer (30): each read built a new content object.
    expect(
      hashesOf([config, ...items], 'fast-lane', { configMapChecksumAnnotation: 'checksum/config' }),
    ).toBe(1);
  });

  it('impact writes a changed source once per side and diffs it once, whatever its consumers', () => {
    /** Texts that hold the source, written by impact when `n` consumers roll out. */
    const writes = (n: number) => {
      const items = Array.from({ length: n }, (_, i) =>
        deployment(`api-${i}`, envFrom('big'), { namespace: 'shop' }),
      );
      const side = (label: string, version: string) => ({
        label,
        text: [externalSecret('big', { namespace: 'shop', version }), ...items].join('---\n'),
        origins: [],
      });
      hashed.written.length = 0;
      const out = impact(side('BASE', '1'), side('HEAD', '2'), { format: 'json' });
      expect(JSON.parse(out.stdout).rollouts).toHaveLength(n);
      return hashed.written.filter((text) => text.includes('db/big')).length;
    };
    // main: 12 more per consumer (its contribution on both sides, and the diff of them).
    expect(writes(consumers)).toBe(writes(1));
  });

  it("a source's entry is written once, however many lists it is in", () => {
    const own = Array.from({ length: consumers }, (_, i) =>
      externalSecret(`own-${i}`, { namespace: 'shop' }),
    );
    // Each consumer reads `big` and a source of its own: thirty lists, thirty hashes.
    const items = Array.from({ length: consumers }, (_, i) =>
      deployment(`api-${i}`, `${envFrom('big')}\n- secretRef: {name: own-${i}}`, {
        namespace: 'shop',
      }),
    );
    hashed.sized.length = 0;
    expect(hashesOf([es, ...own, ...items], 'db/big')).toBe(consumers);
    // main: its Secret's name measured for each list (30).
    expect(hashed.sized.filter((value) => value === 'big')).toHaveLength(1);
  });

  it('a Hash is fed two pieces an entry: its whole text, written once, and the comma or bracket before it', () => {
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const sources = names.map((n) => externalSecret(n, { namespace: 'shop' }));
    const refs = names.map((n) => `- secretRef: {name: ${n}}`).join('\n');
    const pod = deployment('api', `envFrom:\n${refs}`, { namespace: 'shop' });
    hashed.pieces = 0;
    hashed.whole = 0;
    hashed.sorts = 0;
    // Before: 121 pieces (six an entry, and the last bracket); a5562b4: 41, two an entry, with the
    // text between two contents (the name in it) written for each entry; bab480e: 81, the content,
    // the name and the texts between them, each a call to the UTF-8 encoder for every list.
    expect(hashesOf([...sources, pod], 'db/s19')).toBe(1);
    expect(hashed.pieces).toBe(41);
    expect(hashed.whole).toBe(20);
    // The pair numbers that find the list and the entries' whole texts, both compared inline
    // (sortValues); bab480e sorted both through sortShort, a call per comparison: 2.
    expect(hashed.sorts).toBe(0);
  });
});

describe('entryOrder', () => {
  it('orders entries as their whole texts, numbers that prefix others included', () => {
    const contents = [
      '1',
      '12',
      '-1',
      '-12',
      '1.5',
      '1e5',
      '"a"',
      '"a b"',
      '{"a":1}',
      '{"a":12}',
      '[1]',
      'null',
    ];
    const secrets = ['"s"', '"s-2"', '"t"'];
    const entries: Entry[] = contents.flatMap((content) =>
      secrets.map((secret) => ({ content, secret, bytes: 0 })),
    );
    const text = (e: Entry) => `{"content":${e.content},"secret":${e.secret}}`;
    const byText = [...entries].sort((a, b) =>
      text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0,
    );
    for (let i = 0; i < 5; i++) {
      const shuffled = [...entries.slice(i * 7), ...entries.slice(0, i * 7)].reverse();
      expect(shuffled.sort(entryOrder).map(text)).toEqual(byText.map(text));
    }
  });
});
