// What finding the consumers costs per reference, counted (never timed): the look-ups by source
// and the records made, for the fan-in shape (every pod reads twenty sources).
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../src/model/json.js';
import { readUses, secretUses, usesRead } from '../src/rules/workloads/references.js';
import { everyoneReadsAll, resourceList, runOk } from './helpers.js';

const counted = vi.hoisted(() => ({ gets: 0, sets: 0 }));
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return {
    ...actual,
    // Map look-ups and insertions while the stage runs, the producers' look-ups included.
    findConsumers: (...args: Parameters<typeof actual.findConsumers>) => {
      const get = vi.spyOn(Map.prototype, 'get');
      const set = vi.spyOn(Map.prototype, 'set');
      try {
        return actual.findConsumers(...args);
      } finally {
        counted.gets += get.mock.calls.length;
        counted.sets += set.mock.calls.length;
        get.mockRestore();
        set.mockRestore();
      }
    },
  };
});

describe('finding the consumers', () => {
  it('looks each source a reference names up once, beside the producers’ look-up', () => {
    const sources = 20;
    const consumers = 50;
    runOk(resourceList(everyoneReadsAll(sources, consumers)));
    const references = sources * consumers;
    // The producers' look-up by kind, namespace and name (3), and the source's record (1);
    // bab480e also looked the source up in the consumers' Map and in the template's positions,
    // and wrote its position again: 5 look-ups and an insertion a reference.
    expect(counted.gets).toBeLessThanOrEqual(4 * references + consumers);
    expect(counted.sets).toBeLessThanOrEqual(sources + consumers);
  });
});

describe('readUses', () => {
  const env = (name: string) => ({ name, valueFrom: { secretKeyRef: { name, key: 'k' } } });
  it('writes over the records of the walk before: none made per reference', () => {
    const podSpec = (names: string[]) => ({ containers: [{ name: 'c', env: names.map(env) }] });
    expect(readUses(podSpec(['a', 'b']), [])).toBe(2);
    const [first, second] = usesRead;
    expect([first?.secretName, second?.secretName]).toEqual(['a', 'b']);
    expect(readUses(podSpec(['c', 'd', 'e']), [])).toBe(3);
    expect(usesRead[0]).toBe(first);
    expect(usesRead[1]).toBe(second);
    expect(usesRead.slice(0, 3).map((u) => u.secretName)).toEqual(['c', 'd', 'e']);
  });

  it('gives the uses in secretUses’ order, each record once, when the walk found them out of order', () => {
    const podSpec: JsonObject = {
      volumes: [{ name: 'v', secret: { secretName: 'vol' } }],
      containers: [
        { name: 'c', envFrom: [{ secretRef: { name: 'f1' } }], env: [env('a1')] },
        { name: 'd', env: [env('a2')] },
      ],
    };
    const inOrder = secretUses(podSpec, []).map((use) => use.secretName);
    expect(inOrder).toEqual(['a1', 'a2', 'f1', 'vol']);
    expect(readUses(podSpec, [])).toBe(4);
    const records = usesRead.slice(0, 4);
    expect(records.map((use) => use.secretName)).toEqual(inOrder);
    expect(new Set(usesRead).size).toBe(usesRead.length);
  });
});
