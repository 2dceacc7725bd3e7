// What the consumers stage makes per workload, counted (never timed): its reading of a workload is
// guarded by functions made once per run, not by a closure (and its context) per workload.
import { describe, expect, it, vi } from 'vitest';
import { everyoneReadsAll, resourceList, runOk } from './helpers.js';

const seen = vi.hoisted(() => ({ inStage: false, calls: 0, rules: new Set<unknown>() }));
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
      seen.inStage = true;
      try {
        return actual.findConsumers(...args);
      } finally {
        seen.inStage = false;
      }
    },
  };
});

describe('the consumers stage', () => {
  it('guards each workload with one function made for the run', () => {
    const consumers = 50;
    runOk(resourceList(everyoneReadsAll(3, consumers)));
    expect(seen.calls).toBe(consumers);
    // Main made a closure per workload: 50.
    expect(seen.rules.size).toBe(1);
  });
});
