// Runs argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua under the real Lua 5.1
// interpreter (Debian package `lua5.1`) against Argo CD's own fixtures and ours.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ourDir = path.join(
  repoRoot,
  'argocd/resource_customizations/external-secrets.io/ExternalSecret',
);
// Argo CD's own fixtures, copied with provenance (testdata/SOURCES.md).
const argoDir = path.join(repoRoot, 'testdata/argocd/external-secrets.io/ExternalSecret');
const scriptPath = path.join(ourDir, 'health.lua');
const LUA = 'lua5.1';
const HEALTH_STATUSES = ['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown'];

interface HealthCase {
  inputPath: string;
  healthStatus: { status: string; message: string };
}

interface LuaRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A Lua 5.1 string literal. Every byte outside printable ASCII is written as a 3-digit \ddd. */
function luaString(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte >= 0x20 && byte <= 0x7e && ch !== '"' && ch !== '\\') out += ch;
    else out += `\\${byte.toString().padStart(3, '0')}`;
  }
  return `${out}"`;
}

function luaNumber(n: number): string {
  if (Number.isNaN(n)) return '(0/0)';
  if (n === Number.POSITIVE_INFINITY) return '(1/0)';
  if (n === Number.NEGATIVE_INFINITY) return '(-1/0)';
  // JS prints integers, decimals and exponents ("1e+21", "5e-7") in forms Lua reads back.
  return String(n);
}

/** A Lua table constructor for a parsed YAML/JSON value; arrays become 1-based sequences. */
function toLua(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') return luaString(value);
  if (typeof value === 'number') return luaNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `{${value.map(toLua).join(', ')}}`;
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      const fields = Object.entries(value).map(([k, v]) => `[${luaString(k)}] = ${toLua(v)}`);
      return `{${fields.join(', ')}}`;
    }
  }
  throw new Error(`cannot convert ${Object.prototype.toString.call(value)} to Lua`);
}

function runLua(source: string): LuaRun {
  const result = spawnSync(LUA, ['-'], { input: source, encoding: 'utf8' });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `${LUA} is not on PATH. These tests need the real Lua 5.1 interpreter: apt-get install -y lua5.1`
        : `could not run ${LUA}: ${result.error.message}`,
    );
  }
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Sets global `obj` and runs health.lua like Argo CD does. Without open libs only Lua's base and
 * table libraries (plus os) stay, which is what an argocd-cm script gets without `useOpenLibs`.
 * Prints the status, a newline, then the message.
 */
function runHealth(obj: unknown, openLibs = true): LuaRun {
  const driver = `
local write = io.write
obj = ${toLua(obj)}
if not ${openLibs} then
  debug.setmetatable("", nil)
  string, math, io, coroutine, debug = nil, nil, nil, nil, nil
end
local hs = dofile(${luaString(scriptPath)})
assert(type(hs) == "table", "health.lua must return a table")
write(tostring(hs.status), "\\n", hs.message == nil and "" or tostring(hs.message))
`;
  return runLua(driver);
}

function health(obj: unknown): { status: string; message: string } {
  const run = runHealth(obj);
  if (run.code !== 0) throw new Error(`health.lua failed (exit ${run.code}):\n${run.stderr}`);
  const newline = run.stdout.indexOf('\n');
  return { status: run.stdout.slice(0, newline), message: run.stdout.slice(newline + 1) };
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
