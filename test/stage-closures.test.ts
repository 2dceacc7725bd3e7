// What the producers, consumers and readers stages make per item, counted (never timed): the
// reading of an item is guarded by functions made once per run, not by a closure (and its
// context) per item.
import { describe, expect, it, vi } from 'vitest';
import { everyoneReadsAll, resourceList, runOk } from './helpers.js';

type Stage = 'producers' | 'consumers' | 'readers';
const { seen, during } = vi.hoisted(() => {
  const seen = {
    stage: '' as Stage | '',
    inStage: false,
    calls: 0,
    rules: new Set<unknown>(),
  };
  /** `f`, noting the guards it calls while it runs as the stage counted. */
  const during =
    <F extends (...args: never[]) => unknown>(stage: Stage, f: F) =>
    (...args: Parameters<F>): ReturnType<F> => {
      if (seen.stage !== stage) return f(...args) as ReturnType<F>;
      seen.inStage = true;
      try {
        return f(...args) as ReturnType<F>;
      } finally {
        seen.inStage = false;
      }
    };
  return { seen, during };
});
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
vi.mock('../src/rules/producers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/producers.js')>();
  return { ...actual, findProducers: during('producers', actual.findProducers) };
});
vi.mock('../src/rules/consumers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/consumers.js')>();
  return { ...actual, findConsumers: during('consumers', actual.findConsumers) };
});
vi.mock('../src/rules/readers.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/readers.js')>();
  return { ...actual, findReaders: during('readers', actual.findReaders) };
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
