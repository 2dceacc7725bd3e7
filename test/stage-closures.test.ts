// What the producers and consumers stages make per item, counted (never timed): the reading of an
// item is guarded by functions made once per run, not by a closure (and its context) per item.
import { describe, expect, it, vi } from 'vitest';
import { everyoneReadsAll, resourceList, runOk } from './helpers.js';

type Stage = 'producers' | 'consumers' | 'readers';
const seen = vi.hoisted(() => ({
  stage: '' as Stage | '',
  inStage: false,
  calls: 0,
  rules: new Set<unknown>(),
}));
vi.mock('../src/rules/stage.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/stage.js')>();
  const note = (rule: unknown) => {
    if (!seen.inStage) return;
    seen.calls++;
    seen.rules.add(rule);
  };
  return {
    ...actual,
    guarded: (...args: Parameters<typeof actual.guarded>) => {
      note(args[2]);
      return actual.guarded(...args);
    },
    guardedRead: <T>(...args: Parameters<typeof actual.guardedRead<T>>) => {
      note(args[2]);
      return actual.guardedRead(...args);
    },
  };
});
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return {
    ...actual,
    findConsumers: (...args: Parameters<typeof actual.findConsumers>) => {
      if (seen.stage !== 'consumers') return actual.findConsumers(...args);
      seen.inStage = true;
      try {
        return actual.findConsumers(...args);
      } finally {
        seen.inStage = false;
      }
    },
  };
});
vi.mock('../src/rules/producers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/producers.js')>();
  return {
    ...actual,
    findProducers: (...args: Parameters<typeof actual.findProducers>) => {
      if (seen.stage !== 'producers') return actual.findProducers(...args);
      seen.inStage = true;
      try {
        return actual.findProducers(...args);
      } finally {
        seen.inStage = false;
      }
    },
  };
});

vi.mock('../src/rules/readers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/readers.js')>();
  return {
    ...actual,
    findReaders: (...args: Parameters<typeof actual.findReaders>) => {
      if (seen.stage !== 'readers') return actual.findReaders(...args);
      seen.inStage = true;
      try {
        return actual.findReaders(...args);
      } finally {
        seen.inStage = false;
      }
    },
  };
});

const counted = (stage: Stage, input: string) => {
  Object.assign(seen, { stage, calls: 0, rules: new Set() });
  runOk(input);
  return { calls: seen.calls, functions: seen.rules.size };
};

describe('the stages that read every item', () => {
  const input = resourceList(everyoneReadsAll(30, 50));

  it('producers guard each source item with one function made for the run', () => {
    // Main made a closure per source item: 30.
    expect(counted('producers', input)).toEqual({ calls: 30, functions: 1 });
  });

  it('consumers guard each workload with one function made for the run', () => {
    // Main made a closure per workload: 50.
    expect(counted('consumers', input)).toEqual({ calls: 50, functions: 1 });
  });

  it('readers guard each reader item with one function made for the run', () => {
    // ESO stores read the Secrets of their auth: readers, one function for all (main: 20).
    const stores = Array.from(
      { length: 20 },
      (_, i) =>
        `apiVersion: external-secrets.io/v1\nkind: SecretStore\nmetadata:\n  name: s${i}\n  namespace: shop\nspec:\n  provider:\n    vault: {server: "https://vault"}\n`,
    );
    expect(counted('readers', resourceList([...everyoneReadsAll(3, 5), ...stores]))).toEqual({
      calls: 20,
      functions: 1,
    });
  });
});
