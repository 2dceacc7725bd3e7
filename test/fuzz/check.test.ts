// The checker itself: inputs whose output is right must pass, and the same outputs with a
// mistake the function could make must not. Each case is a checker gap the fuzzer reported,
// reduced by hand.
import { describe, expect, it } from 'vitest';
import { run } from '../../src/run.js';
import { check, invariants, loadFindings } from './check.js';
import {
  costDetail,
  costFloorMs,
  costSignature,
  costVerdict,
  isCostFinding,
  savedCostSignature,
  slowMs,
} from './cost.js';

/** The run's output with `edit` applied, judged as if the function had written it. */
function judge(input: string, edit: (stdout: string) => string): string | undefined {
  const out = run(input);
  const stdout = edit(out.stdout);
  expect(stdout, 'the edit changes the output').not.toBe(out.stdout);
  return invariants(input, { ...out, stdout })?.category;
}

describe('fuzz checker', () => {
  describe('CRLF, the last line without a line break, lines inserted before it', () => {
    // FUZZ_SEED=11075871 case 67700.
    const input =
      'apiVersion: external-secrets.io/v1\r\nkind: SecretStore\r\nmetadata:\r\n  name: s';
    it('accepts the output', () => {
      expect(run(input).stdout).toContain('metadata:\r\n  annotations:\r\n');
      expect(check(input)?.detail).toBeUndefined();
    });
    it('rejects inserted lines ending in LF', () => {
      expect(judge(input, (s) => s.replace(/(annotations:|"-2")\r\n/g, '$1\n'))).toBe('lines');
    });
    it('rejects a changed last line', () => {
      expect(judge(input, (s) => s.replace('name: s', 'name: t'))).toBe('lines');
    });
  });

  describe('blanks after a checksum value', () => {
    // FUZZ_SEED=3 case 6021: `key: stale<TAB>` becomes `key: "<checksum>"<TAB>` (quoted, as it
    // starts with a digit). The tab is not the plain value's, and the edit keeps it.
    const input = loadFindings().find((f) => f.hash === 'ed778523c6820a7a')?.text as string;
    it('accepts the output, which keeps them', () => {
      expect(run(input).stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}"\t\n/);
      expect(check(input)?.detail).toBeUndefined();
    });
    it('rejects an output that drops them', () => {
      expect(judge(input, (s) => s.replace(/("[0-9a-f]{64}")\t\n/, '$1\n'))).toBe('lines');
    });
  });

  describe('CRLF, the last line without a line break, lines inserted after it', () => {
    const input = 'apiVersion: external-secrets.io/v1\r\nkind: SecretStore\r\nmetadata:';
    it('accepts the output', () => {
      expect(run(input).stdout).toMatch(/^metadata:\r\n {2}annotations:\r\n.*\r\n$/m);
      expect(check(input)?.detail).toBeUndefined();
    });
    it('rejects inserted lines ending in LF', () => {
      expect(judge(input, (s) => s.replace(/(annotations:|"-2")\r\n/g, '$1\n'))).toBe('lines');
    });
  });

  describe('an existing checksum with a plain value holding a comma', () => {
    // FUZZ_SEED=11075871 case 207172.
    const input = [
      'apiVersion: external-secrets.io/v1',
      'kind: ExternalSecret',
      'metadata:',
      '  name: db',
      'spec:',
      '  target: {name: db}',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: app',
      'spec:',
      '  template:',
      '    metadata:',
      '      annotations:',
      '        checksum/external-secrets: sta,le # old',
      '    spec:',
      '      containers:',
      '      - name: app',
      '        envFrom:',
      '        - secretRef: {name: db}',
      '',
    ].join('\n');
    it('accepts the output', () => {
      expect(run(input).stdout).toMatch(/checksum\/external-secrets: "[0-9a-f]{64}" # old\n/);
      expect(check(input)?.detail).toBeUndefined();
    });
    it('rejects a value replaced only in part', () => {
      expect(judge(input, (s) => s.replace(/("[0-9a-f]{64}")/, '$1,le'))).toBe('lines');
    });
    it('rejects a lost comment', () => {
      expect(judge(input, (s) => s.replace(' # old', ''))).toBe('lines');
    });
  });

  describe('input results with a quoted scalar continued on the next line', () => {
    // FUZZ_SEED=11 case 19922 had the continuation at column 0, which is invalid YAML (js-yaml
    // accepts it; the conforming reader does not, so that run now exits 1, checked below). The
    // same layout, valid: the continuation indented.
    const lines = (continuation: string) =>
      [
        'apiVersion: config.kubernetes.io/v1',
        'kind: ResourceList',
        'items:',
        '- apiVersion: v1',
        '  kind: ConfigMap',
        '  metadata:',
        '    name: c',
        'results:',
        '- message: "old',
        `${continuation}result"`,
        'extra: x',
        '',
      ].join('\n');
    const input = lines('   ');
    it('accepts the output without them', () => {
      expect(run(input).stdout).not.toContain('result"');
      expect(check(input)?.detail).toBeUndefined();
    });
    it('rejects a lost key after them', () => {
      expect(judge(input, (s) => s.replace('extra: x\n', ''))).toBe('lines');
    });
    it('rejects a continuation line left behind', () => {
      expect(judge(input, (s) => s.replace('extra', '   result"\nextra'))).toBe('lines');
    });
    it('at column 0: invalid YAML, reported; the items and the rest as they came, results replaced', () => {
      const out = run(lines(''));
      expect(out.exitCode).toBe(1);
      expect(out.stdout).toMatch(
        /^results:\n- severity: error\n {2}message: "ResourceList: invalid YAML: /m,
      );
      expect(out.stdout.match(/^results:/gm)).toHaveLength(1);
      expect(out.stdout.startsWith(lines('').split('results:')[0] as string)).toBe(true);
      expect(out.stdout).toContain('\nextra: x\n');
    });
  });

  describe('cost oracle (verdicts on given timings: no clock read here)', () => {
    const parent = { ms: 1, bytes: 2048 }; // 0.5 ms per KB
    it('a mutant far above its parent per KB, past the floor, is a cost finding', () => {
      // 1 MB in 10.24 s: 10 ms per KB, 20× the parent's.
      expect(costVerdict({ ms: 10_240, bytes: 1 << 20 }, parent)).toBe('cost');
      expect(costVerdict({ ms: 10_239, bytes: 1 << 20 }, parent)).toBe('slow');
    });
    it('below the floor, however steep, it is none', () => {
      // ≈ 100 ms per KB, 200× the parent's.
      const tiny = { ms: costFloorMs - 1, bytes: 1024 };
      expect(costVerdict(tiny, parent)).toBeUndefined();
      expect(costVerdict({ ...tiny, ms: costFloorMs }, parent)).toBe('cost');
    });
    it('a parent under 1 KB counts as 1 KB', () => {
      expect(costVerdict({ ms: 200, bytes: 1024 }, { ms: 10, bytes: 10 })).toBe('cost');
      expect(costVerdict({ ms: 199, bytes: 1024 }, { ms: 10, bytes: 10 })).toBeUndefined();
    });
    it('past the absolute bound it is slow, with or without a parent', () => {
      expect(costVerdict({ ms: slowMs, bytes: 100 << 20 }, parent)).toBe('slow');
      expect(costVerdict({ ms: slowMs, bytes: 1 }, undefined)).toBe('slow');
      expect(costVerdict({ ms: slowMs - 1, bytes: 1 }, undefined)).toBeUndefined();
    });
    it('descriptions mark timing findings; signatures are the shape of the longest line', () => {
      const detail = costDetail({ ms: 4000, bytes: 1 << 20 }, parent, '0123456789abcdef');
      expect(detail).toMatch(
        /^time per KB 7\.8× its parent's \(1024\.0 KB in 4000 ms; parent 0123456789abcdef, 2\.0 KB in 1\.00 ms;/,
      );
      expect(isCostFinding(`cost: ${detail} (FUZZ_SEED=7 case 12: longLine)`)).toBe(true);
      expect(isCostFinding('lines: exit 0 but …')).toBe(false);
      const deep = (n: number) =>
        `kind: ConfigMap\ndata:\n  deep: ${'{a: '.repeat(n)}x${'}'.repeat(n)}\n`;
      expect(costSignature('cost', deep(5000))).toBe(costSignature('cost', deep(50)));
      expect(costSignature('cost', deep(50))).toBe('cost|a: {…a: a}…');
      expect(costSignature('cost', `a: ${'- '.repeat(9)}x`)).not.toBe(
        costSignature('cost', deep(9)),
      );
    });
    it('every saved timing finding is recognised as one', () => {
      const timing = loadFindings().filter((f) => /^(cost|slow)/.test(f.description));
      expect(timing.length).toBeGreaterThan(0);
      for (const f of timing) {
        expect(isCostFinding(f.description), f.hash).toBe(true);
        expect(savedCostSignature(f), f.hash).toBeDefined();
      }
    });
  });
});
