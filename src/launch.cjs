// The installed command (build.mjs copies this file to dist/secret-rollout.cjs): runs the bundle
// with V8's code cache, written by build.mjs after a run, so that a start deserialises the
// compiled code instead of parsing and compiling 296 KB of JavaScript (≈10 ms CPU of an empty
// list's ≈29 ms, measured without the cache).
// V8 rejects a cache made by another Node.js version or other V8 flags; the bundle is then
// compiled as usual, so the cache changes only the speed, never the behaviour.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const bundle = join(__dirname, 'secret-rollout-bundle.cjs');
const cache = join(__dirname, 'secret-rollout-bundle.v8cache');
let cachedData;
try {
  cachedData = readFileSync(cache);
} catch {}
// The bundle is one function expression, CommonJS's wrapper (build.mjs): compiled as read, with no
// joined copy of its 300 KB. esbuild writes ASCII only: latin1 reads it without decoding.
const source = readFileSync(bundle, 'latin1');
const script = new Script(source, { filename: bundle, cachedData });
if (process.env.SECRET_ROLLOUT_WRITE_CODE_CACHE === '1') {
  // After the run: the cache then holds the functions a run compiled, not only the top level.
  process.on('exit', () => writeFileSync(cache, script.createCachedData()));
}
script.runInThisContext()(module.exports, require, module, bundle, __dirname);
