// A source's content is serialised and hashed once per run and key set, not once per consumer:
// the work is counted through the hash function, and the values stay those checksum.test.ts pins.
import { describe, expect, it, vi } from 'vitest';
import {
  deployment,
  envFrom,
  externalSecret,
  resourceList,
  runOk,
  secretKeyRef,
} from './helpers.js';

const hashed = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../src/model/hash.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/model/hash.js')>();
  return {
    ...actual,
    sha256Hex: (text: string) => {
      hashed.texts.push(text);
      return actual.sha256Hex(text);
    },
    sha256HexOfPieces: (pieces: readonly string[]) => {
      hashed.texts.push(pieces.join(''));
      return actual.sha256HexOfPieces(pieces);
    },
  };
});

/** How many texts hashed in one run held the source's remote key (its content). */
function hashesOf(items: string[], marker: string): number {
  hashed.texts.length = 0;
  runOk(resourceList(items));
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
});
