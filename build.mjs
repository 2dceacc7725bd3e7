// dist/: one bundled, minified CommonJS file (secret-rollout-bundle.cjs); beside it the libraries
// only some runs load, a minified file each, the only files it requires; the command that runs it
// with V8's code cache (secret-rollout.cjs, from src/launch.cjs); and that cache
// (secret-rollout-bundle.v8cache), written by one run of the command on an example.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const command = 'dist/secret-rollout.cjs';
const outfile = 'dist/secret-rollout-bundle.cjs';
const codeCache = 'dist/secret-rollout-bundle.v8cache';
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// `secret-rollout --help` (and so `kpt fn doc`) prints README.md's mdtogo blocks: read and made
// plain text here, by src/readme-help.ts compiled alone; a missing block fails the build.
const helpModule = await build({
  entryPoints: ['src/readme-help.ts'],
  write: false,
  format: 'esm',
});
const { readmeHelp } = await import(
  `data:text/javascript;base64,${Buffer.from(helpModule.outputFiles[0].contents).toString('base64')}`
);
const readme = readmeHelp(readFileSync('README.md', 'utf8'));
if ('problem' in readme) {
  console.error(`build.mjs: ${readme.problem}`);
  process.exit(1);
}

/** `import text from './file?raw'` (as in Vite, which runs the tests): the file's text. */
const rawText = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};
// Libraries only some runs need (src/**/load-*.cjs require them on first use): each its own file
// in dist/, not in the bundle, so that a start does not read their ≈270 KB. They are not in the
// code cache either: a run that needs one compiles what it uses of it.
const lazyLibraries = {
  yaml: 'secret-rollout-yaml.cjs',
  re2js: 'secret-rollout-re2js.cjs',
  ignore: 'secret-rollout-ignore.cjs',
};
const require = createRequire(import.meta.url);
/** One CommonJS file for Node 20, nothing left to resolve but what is marked external. */
const minified = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Half the bytes to read and hash at every start (≈7 ms); nothing reads function names.
  minify: true,
  charset: 'ascii',
  legalComments: 'none',
};
for (const [name, file] of Object.entries(lazyLibraries)) {
  await build({ ...minified, entryPoints: [require.resolve(name)], outfile: `dist/${file}` });
}
/** `require('yaml')` in a loader: the library's file beside the bundle (dist/). */
const lazy = {
  name: 'lazy-libraries',
  setup(build) {
    const names = new RegExp(`^(${Object.keys(lazyLibraries).join('|')})$`);
    build.onResolve({ filter: names }, (args) =>
      args.kind === 'require-call'
        ? { path: `./${lazyLibraries[args.path]}`, external: true }
        : undefined,
    );
  },
};
await build({
  ...minified,
  entryPoints: ['src/main.ts'],
  outfile,
  plugins: [rawText, lazy],
  // CommonJS's own wrapper, written around the bundle here so that src/launch.cjs compiles the
  // file's text as read, not a joined copy of it (≈300 KB less to allocate and copy at each start).
  // Run directly (`node dist/secret-rollout-bundle.cjs`), Node's wrapper defines `module` and the
  // file would only define a function and exit 0 with no output: it says so and exits 1 instead.
  // One line, so that the bundle's line numbers stay as esbuild wrote them.
  banner: {
    js: 'typeof module<"u"&&(process.stderr.write("secret-rollout: run dist/secret-rollout.cjs, not the bundle\\n"),process.exit(1)),(function (exports, require, module, __filename, __dirname) {',
  },
  footer: { js: '})' },
  // `secret-rollout --version`: a constant in the bundle, not a package.json read at run time.
  define: {
    SECRET_ROLLOUT_VERSION: JSON.stringify(version),
    SECRET_ROLLOUT_README: JSON.stringify(readme),
  },
});
copyFileSync('src/launch.cjs', command);
const launcher = readFileSync(command, 'utf8');
writeFileSync(command, `#!/usr/bin/env node\n${launcher}`);
chmodSync(command, 0o755);
// A run on a typical input, so that the cache holds what a run compiles. A stale cache (an
// earlier bundle) would be rejected by V8 anyway; removed first so the run compiles afresh.
rmSync(codeCache, { force: true });
execFileSync(process.execPath, [command], {
  input: readFileSync('examples/ci/manifests.yaml'),
  env: { ...process.env, SECRET_ROLLOUT_WRITE_CODE_CACHE: '1' },
  // stdout a pipe, not 'ignore': a read-write /dev/null there is refused as a closed stdout.
  stdio: ['pipe', 'pipe', 'pipe'],
});
