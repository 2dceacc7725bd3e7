// What the read plan costs per item (rules/read-plan.ts): a kind's projection is decided once,
// not for each item of that kind.
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../src/model/config.js';
import { readPlan } from '../src/rules/read-plan.js';

const calls = vi.hoisted(() => ({ groupOf: 0 }));
vi.mock('../src/model/scope.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/model/scope.js')>();
  return {
    ...actual,
    groupOf: (apiVersion: string) => {
      calls.groupOf++;
      return actual.groupOf(apiVersion);
    },
  };
});

describe('the read plan', () => {
  it("decides each kind's projection once (main split the apiVersion and searched the kind tables per item)", () => {
    const { projection } = readPlan(defaultConfig);
    const kinds: [string, string][] = [
      ['apps/v1', 'Deployment'],
      ['external-secrets.io/v1', 'ExternalSecret'],
      ['example.com/v1', 'Widget'],
    ];
    const first = kinds.map(([apiVersion, kind]) => projection(apiVersion, kind));
    calls.groupOf = 0;
    for (let i = 0; i < 100; i++) {
      kinds.forEach(([apiVersion, kind], k) => {
        expect(projection(apiVersion, kind)).toBe(first[k]);
      });
    }
    expect(calls.groupOf).toBe(0);
  });
});
