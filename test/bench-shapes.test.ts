// The bench's package shapes (bench/generate.mjs SHAPES, issue #24) are what docs/performance.md
// says they are, counted on the generated items (no time is measured here: the bench does that).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate, SHAPES, toResourceList } from '../bench/generate.mjs';

type Item = { kind: string; id: string };
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'CronJob', 'Job']);
const count = (items: Item[], kinds: (k: string) => boolean) =>
  items.filter((i) => kinds(i.kind)).length;

describe('bench shapes', () => {
  it('are the four the docs name', () => {
    expect(Object.keys(SHAPES)).toEqual(['mixed', 'dense', 'fan-out', 'fan-in']);
  });

  it('dense: one item in six an ExternalSecret, nearly all the rest workloads', () => {
    const { items } = generate(6000, 1, 'dense');
    expect(count(items, (k) => k === 'ExternalSecret')).toBe(1000);
    expect(count(items, (k) => WORKLOADS.has(k))).toBeGreaterThan(4900);
  });

  it('fan-out: ≈500 consumers per ExternalSecret', () => {
    const { items, expected } = generate(10000, 1, 'fan-out');
    const sources = count(items, (k) => k === 'ExternalSecret');
    expect(sources).toBe(20);
    expect(expected.checksum.size / sources).toBeGreaterThan(400);
  });

  it('fan-in: 20 Secret references in every pod', () => {
    const { items } = generate(1000, 1, 'fan-in');
    const text = toResourceList(items);
    const pods = text
      .split('\n- ')
      .filter((d: string) => /^apiVersion: (apps|batch)\/v1\n/.test(d));
    expect(pods.length).toBe(count(items, (k) => WORKLOADS.has(k)));
    for (const pod of pods) {
      const refs = pod.match(/secretKeyRef|secretRef/g) ?? [];
      expect(refs.length).toBe(20);
    }
  });

  it('the same N, seed and shape give the same bytes', () => {
    for (const shape of Object.keys(SHAPES)) {
      const a = toResourceList(generate(300, 7, shape).items);
      expect(toResourceList(generate(300, 7, shape).items)).toBe(a);
    }
  });
});

describe('bench/run.mjs arguments', () => {
  // `--help` once started the full bench (many minutes); it must print the usage and stop.
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['bench/run.mjs', ...args], { encoding: 'utf8' });

  it('prints its usage for --help and runs nothing', () => {
    const { status, stdout } = run('--help');
    expect(status).toBe(0);
    expect(stdout).toContain('--quick');
    expect(stdout).not.toMatch(/^fn: /m);
  });

  it('refuses an unknown argument with exit 2', () => {
    const { status, stderr } = run('--sizes', '10', '--bogus');
    expect(status).toBe(2);
    expect(stderr).toContain('unknown argument "--bogus"');
  });
});
