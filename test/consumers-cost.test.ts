// What finding the consumers costs per reference, counted (never timed): the look-ups by source
// and the records made, for the fan-in shape (every pod reads twenty sources).
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../src/model/json.js';
import { readUses, secretUses, usesRead } from '../src/rules/workloads/references.js';
import { deployment, everyoneReadsAll, externalSecret, resourceList, runOk } from './helpers.js';

const counted = vi.hoisted(() => ({ gets: 0, sets: 0, weakGets: 0, setAdds: 0 }));
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return {
    ...actual,
    // Map look-ups and insertions while the stage runs, the producers' look-ups included.
    findConsumers: (...args: Parameters<typeof actual.findConsumers>) => {
      const get = vi.spyOn(Map.prototype, 'get');
      const set = vi.spyOn(Map.prototype, 'set');
      const weakGet = vi.spyOn(WeakMap.prototype, 'get');
      // A Set made from a list adds each entry through Set.prototype.add once it is not V8's own.
      const setAdd = vi.spyOn(Set.prototype, 'add');
      try {
        return actual.findConsumers(...args);
      } finally {
        counted.gets += get.mock.calls.length;
        counted.sets += set.mock.calls.length;
        counted.weakGets += weakGet.mock.calls.length;
        counted.setAdds += setAdd.mock.calls.length;
        setAdd.mockRestore();
        get.mockRestore();
        set.mockRestore();
        weakGet.mockRestore();
      }
    },
  };
});

function countedRun(input: string) {
  Object.assign(counted, { gets: 0, sets: 0, weakGets: 0, setAdds: 0 });
  runOk(input);
  return { ...counted };
}

describe('finding the consumers', () => {
  const sources = 20;
  const consumers = 50;
  const references = sources * consumers;

  it('looks a reference up once, by name: its namespace and kind once per workload', () => {
    const { gets, sets } = countedRun(resourceList(everyoneReadsAll(sources, consumers)));
    // A look-up by name a reference, and by kind and namespace a workload (and kind read);
    // 058521a looked each reference up by kind, namespace and name (3), and its source's record in
    // a Map keyed by the source (1): 4 a reference.
    expect(gets).toBeLessThanOrEqual(references + 2 * consumers);
    expect(sets).toBeLessThanOrEqual(sources + consumers);
  });

  it('finds the keys a Secret has once per Secret, not once per reference reading a key', () => {
    const keyed = [
      ...Array.from({ length: sources }, (_, s) => externalSecret(`s${s}`)),
      ...Array.from({ length: consumers }, (_, c) =>
        deployment(
          `d${c}`,
          `env:\n${Array.from({ length: sources }, (_, s) => `- {name: V${s}, valueFrom: {secretKeyRef: {name: s${s}, key: k}}}`).join('\n')}`,
        ),
      ),
    ];
    const { weakGets } = countedRun(resourceList(keyed));
    // keysProduced's WeakMap once per Secret, and a few per workload (the walk's options);
    // 058521a asked keysProduced's WeakMap again for every keyed reference (1,000 here).
    expect(weakGets).toBeLessThanOrEqual(sources + 3 * consumers);
  });

  it('adds a key read of a Secret to those read before in the template, not copying them', () => {
    const keys = 400;
    const env = Array.from(
      { length: keys },
      (_, k) => `- {name: V${k}, valueFrom: {secretKeyRef: {name: s, key: k${k}}}}`,
    );
    const { setAdds } = countedRun(
      resourceList([externalSecret('s'), deployment('d', `env:\n${env.join('\n')}`)]),
    );
    // A key's own Set (references.ts oneKey), the first union's copy, then one add a key; main
    // made a new Set of all the keys read so far for each one (bench/adversarial
    // missing-key-lists: 80,000 adds here, 4 MB of input took 29 s).
    expect(setAdds).toBeLessThanOrEqual(4 * keys);
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
