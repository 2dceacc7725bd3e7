// The installed command (build.mjs copies this file to dist/secret-rollout.cjs): runs the bundle
// with V8's code cache, written by build.mjs after a run, so that a start deserialises the
// compiled code instead of parsing and compiling 170 KB of JavaScript. The rules' file (build.mjs:
// the split) is run the same way, with a cache of its own, when the bundle first requires it: a
// run on an empty list never does.
// V8 rejects a cache made by another Node.js version or other V8 flags; the file is then
// compiled as usual, so the cache changes only the speed, never the behaviour.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

/** The wrapper function of one of dist/'s files (build.mjs), compiled with its cache. */
function compile(name) {
  const file = join(__dirname, `${name}.cjs`);
  const cache = join(__dirname, `${name}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cache);
  } catch {}
  let source;
  try {
    // Compiled as read, with no joined copy of its text. esbuild writes ASCII only: latin1 reads
    // it without decoding.
    source = readFileSync(file, 'latin1');
  } catch (error) {
    // As Node says it of a missing library file: main.ts then asks for a reinstall.
    if (error.code === 'ENOENT') error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  const script = new Script(source, { filename: file, cachedData });
  if (process.env.SECRET_ROLLOUT_WRITE_CODE_CACHE === '1') {
    // After the run: the cache then holds the functions a run compiled, not only the top level.
    process.on('exit', () => writeFileSync(cache, script.createCachedData()));
  }
  return { run: script.runInThisContext(), file };
}

const rulesFile = './secret-rollout-rules.cjs';
/** The rules' file, once run: its module, whose exports the bundle reads. */
let rules;
function loadRules() {
  if (!rules) {
    const { run, file } = compile('secret-rollout-rules');
    // Kept once its top level has run: one that threw leaves no half-made exports to a next call.
    const made = { exports: {} };
    run(made.exports, require, made, file, __dirname, module.exports);
    rules = made;
  }
  return rules.exports;
}

/**
 * The bundle's `require`: Node's, but for the rules' file, which gets the bundle's exports. V8
 * checks a cache against its flags, which the bundle changes on a large input through node:v8
 * (main.ts tuneForLargeInput): the rules' file, which such an input needs, is compiled before.
 */
function bundleRequire(id) {
  if (id === rulesFile || id === 'node:v8') {
    const exports = loadRules();
    if (id === rulesFile) return exports;
  }
  return require(id);
}

const bundle = compile('secret-rollout-bundle');
bundle.run(module.exports, bundleRequire, module, bundle.file, __dirname);
