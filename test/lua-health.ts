// Runs argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua under the real
// Lua 5.1 interpreter (Debian package `lua5.1`), as Argo CD runs it: for test/argocd-health.test.ts
// and test/health.test.ts (the other deployers' checks must agree with it).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './helpers.js';

const scriptPath = path.join(
  repoRoot,
  'argocd/resource_customizations/external-secrets.io/ExternalSecret/health.lua',
);
const LUA = 'lua5.1';

export interface LuaRun {
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
export function toLua(value: unknown): string {
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

export function runLua(source: string): LuaRun {
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
export function runHealth(obj: unknown, openLibs = true): LuaRun {
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

export function health(obj: unknown): { status: string; message: string } {
  const run = runHealth(obj);
  if (run.code !== 0) throw new Error(`health.lua failed (exit ${run.code}):\n${run.stderr}`);
  const newline = run.stdout.indexOf('\n');
  return { status: run.stdout.slice(0, newline), message: run.stdout.slice(newline + 1) };
}
