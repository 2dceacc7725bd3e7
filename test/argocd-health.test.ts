// Runs argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua under the real Lua 5.1
// interpreter (Debian package `lua5.1`) against Argo CD's own fixtures and ours.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './helpers.js';
import { health, runHealth, runLua, toLua } from './lua-health.js';

const ourDir = path.join(
  repoRoot,
  'argocd/resource_customizations/external-secrets.io/ExternalSecret',
);
// Argo CD's own fixtures, copied with provenance (testdata/SOURCES.md).
const argoDir = path.join(repoRoot, 'testdata/argocd/external-secrets.io/ExternalSecret');
const HEALTH_STATUSES = ['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown'];

interface HealthCase {
  inputPath: string;
  healthStatus: { status: string; message: string };
}

function loadCases(dir: string): HealthCase[] {
  const doc = parse(readFileSync(path.join(dir, 'health_test.yaml'), 'utf8')) as {
    tests?: HealthCase[];
  };
  return doc.tests ?? [];
}

function loadInput(dir: string, inputPath: string): unknown {
  return parse(readFileSync(path.join(dir, inputPath), 'utf8'));
}

const argoCases = loadCases(argoDir);
const ourCases = loadCases(ourDir);

describe('Lua literal converter', () => {
  it('round-trips strings, numbers, booleans, nesting and 1-based arrays through lua5.1', () => {
    const value = {
      quote: 'say "hi"\\ \n\ttab\r\0end',
      unicode: 'naïve – 秘密 🔑',
      'odd key "]=': 1,
      numbers: [0, -7, 1.5, 1e21, 5e-7, 9007199254740991],
      flags: [true, false],
      nested: { list: [{ a: 'x' }, { a: 'y' }] },
    };
    const run = runLua(`
local v = ${toLua(value)}
assert(v.quote == "say \\"hi\\"\\\\ \\n\\ttab\\r\\0end", "quote")
assert(v.unicode == "na\\195\\175ve \\226\\128\\147 \\231\\167\\152\\229\\175\\134 \\240\\159\\148\\145", "unicode")
assert(v["odd key \\"]="] == 1, "key")
assert(#v.numbers == 6 and v.numbers[1] == 0 and v.numbers[2] == -7 and v.numbers[3] == 1.5, "numbers")
assert(v.numbers[4] == 1e21 and v.numbers[5] == 5e-7 and v.numbers[6] == 9007199254740991, "big/small")
assert(v.flags[1] == true and v.flags[2] == false, "booleans")
assert(v.nested.list[1].a == "x" and v.nested.list[2].a == "y", "nested")
io.write("ok")
`);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
  });
});

describe("Argo CD's own ExternalSecret fixtures", () => {
  it('are present', () => {
    expect(argoCases.length).toBe(3);
  });

  it.each(argoCases)('$inputPath -> $healthStatus.status', ({ inputPath, healthStatus }) => {
    expect(health(loadInput(argoDir, inputPath))).toEqual(healthStatus);
  });
});

describe('generation-aware fixtures (argocd/.../health_test.yaml)', () => {
  it('cover every testdata file', () => {
    const listed = ourCases.map((c) => c.inputPath).sort();
    const files = readdirSync(path.join(ourDir, 'testdata'))
      .map((f) => `testdata/${f}`)
      .sort();
    expect(listed).toEqual(files);
    expect(listed.length).toBeGreaterThanOrEqual(8);
  });

  it.each(ourCases)('$inputPath -> $healthStatus.status', ({ inputPath, healthStatus }) => {
    expect(HEALTH_STATUSES).toContain(healthStatus.status);
    expect(health(loadInput(ourDir, inputPath))).toEqual(healthStatus);
  });
});

describe('argocd-cm sandbox (no useOpenLibs: no string library)', () => {
  const healthy = loadInput(argoDir, 'testdata/healthy.yaml');

  it('fails without open libs once the generation must be parsed', () => {
    const run = runHealth(healthy, false);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/attempt to index global 'string' \(a nil value\)/);
  });

  it('works with open libs', () => {
    const run = runHealth(healthy, true);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Healthy\nSecret was synced');
  });
});
