// dist/: the bundled, minified CommonJS code in two files: secret-rollout-bundle.cjs (arguments,
// options, reading, writing: what every run needs, and all that a run on an empty list loads) and
// secret-rollout-rules.cjs (src/rules/ and src/report/, and what only they import), which the
// bundle requires on first use, when an input has an item (or a command needs them). Beside them
// the libraries only some runs load, a minified file each; the command that runs them with V8's
// code cache (secret-rollout.cjs, from src/launch.cjs); and a cache for each of the two
// (secret-rollout-bundle.v8cache, secret-rollout-rules.v8cache), written by one run of the
// command on an example.
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
/** `--version`: a constant in the bundle, not a package.json read at run time; `--help`: README's. */
const define = {
  SECRET_ROLLOUT_VERSION: JSON.stringify(version),
  SECRET_ROLLOUT_README: JSON.stringify(readme),
};
/**
 * CommonJS's own wrapper, written around each file here so that src/launch.cjs compiles the file's
 * text as read, not a joined copy of it (≈300 KB less to allocate and copy at each start). Run
 * directly (`node dist/secret-rollout-bundle.cjs`), Node's wrapper defines `module` and the file
 * would only define a function and exit 0 with no output: it says so and exits 1 instead. One
 * line, so that line numbers stay as esbuild wrote them. `prelude`: the rules' file gets the
 * bundle's exports as a sixth argument and takes the modules it shares from them.
 */
const wrapper = (prelude = '') => ({
  banner: {
    js: `typeof module<"u"&&(process.stderr.write("secret-rollout: run dist/secret-rollout.cjs, not the bundle\\n"),process.exit(1)),(function (exports, require, module, __filename, __dirname${prelude ? ', bundle' : ''}) {${prelude}`,
  },
  footer: { js: '})' },
});

// The split (ARCHITECTURE.md, Start-up). The rules' file holds src/rules/ and src/report/ and the
// modules only they import; the bundle holds every module main.ts reaches without them, one copy
// of each, which the rules' file takes from it (`modules()`: each module's exports). Where the
// bundle imports a rules module, it gets a stand-in whose exports require the rules' file when
// first read.
const rulesFile = 'secret-rollout-rules.cjs';
const rulesCache = 'dist/secret-rollout-rules.v8cache';
const inRules = (file) => /^src\/(rules|report)\//.test(file);
const { metafile } = await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  write: false,
  metafile: true,
  outfile,
  plugins: [rawText, lazy],
  define,
});
const { inputs } = metafile;
const core = new Set();
for (const stack = ['src/main.ts']; stack.length > 0; ) {
  const file = stack.pop();
  if (core.has(file)) continue;
  core.add(file);
  for (const { path: imported } of inputs[file]?.imports ?? []) {
    if (!inRules(imported)) stack.push(imported);
  }
}
/** What the modules of one side import, each once. */
const importsOf = (side) =>
  new Set(
    Object.keys(inputs)
      .filter(side)
      .flatMap((file) => inputs[file].imports.map((i) => i.path)),
  );
const inCore = (file) => core.has(file);
const outOfCore = (file) => !core.has(file);
/** TypeScript modules of one side that the other side imports: exported from where they are. */
const importedAcross = (from, to) =>
  [...importsOf(from)].filter((file) => to(file) && file.endsWith('.ts')).sort();
// The stand-ins share TypeScript modules only: a module of another kind (a .cjs loader) imported
// from both sides would be copied into each file, with a state of its own in each. Refused.
const untyped = (file) => file.startsWith('src/') && !file.endsWith('.ts');
const rulesImports = importsOf(outOfCore);
const twice = [...importsOf(inCore)].filter((f) => untyped(f) && rulesImports.has(f));
if (twice.length > 0) {
  throw new Error(`build.mjs: imported by both files of dist/ (each would copy it): ${twice}`);
}
const rulesEntries = importedAcross(inCore, inRules);
const coreShared = importedAcross(outOfCore, inCore);
// Each module's export names (types are gone): the stand-ins list them.
const exportsOf = new Map();
const alone = await build({
  entryPoints: [...rulesEntries, ...coreShared],
  bundle: false,
  format: 'esm',
  write: false,
  metafile: true,
  outbase: '.',
  outdir: 'exports-of',
});
for (const [out, { entryPoint, exports }] of Object.entries(alone.metafile.outputs)) {
  if (entryPoint && !out.endsWith('.map')) exportsOf.set(entryPoint, exports);
}
// `export * from` re-exports names this pass does not list: a rules module's stand-in would
// answer `undefined` for them, silently. Refused (`export * as name` is one listed name).
for (const file of rulesEntries) {
  if (/^export \* from /m.test(readFileSync(file, 'utf8'))) {
    throw new Error(`build.mjs: ${file}: a stand-in cannot list what \`export * from\` exports`);
  }
}
const relative = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');
const rulesModules = new Set(rulesEntries);
await build({
  ...minified,
  stdin: {
    contents: [
      // First: main.ts and all it imports are evaluated in the order they always were.
      `import './src/main.ts';`,
      ...coreShared.map(
        (file, i) =>
          `import { ${exportsOf
            .get(file)
            .map((n) => `${n} as m${i}_${n}`)
            .join(', ')} } from './${file}';`,
      ),
      // A function (hoisted): the rules' file may be loaded while main.ts runs (`health`). One
      // object, no getter per export to compile and cache.
      `export function modules() { return { ${coreShared
        .map(
          (file, i) =>
            `${JSON.stringify(file)}: { ${exportsOf
              .get(file)
              .map((n) => `${n}: m${i}_${n}`)
              .join(', ')} }`,
        )
        .join(', ')} }; }`,
    ].join('\n'),
    resolveDir: '.',
    sourcefile: 'bundle-entry.js',
  },
  outfile,
  plugins: [
    rawText,
    lazy,
    {
      // CommonJS, in a namespace of its own (esbuild reads a .ts file as a module, whose
      // `module.exports` it would not see): an import of it reads the property when used.
      name: 'rules-on-first-use',
      setup(build) {
        build.onResolve({ filter: /^\.\/secret-rollout-rules\.cjs$/ }, (args) => ({
          path: args.path,
          external: true,
        }));
        build.onResolve({ filter: /^\./ }, (args) => {
          const file = relative(path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
          return rulesModules.has(file)
            ? { path: file, namespace: 'rules-on-first-use' }
            : undefined;
        });
        build.onLoad({ filter: /.*/, namespace: 'rules-on-first-use' }, (args) => {
          const names = JSON.stringify(exportsOf.get(args.path));
          const rules = `require("./${rulesFile}")[${JSON.stringify(args.path)}]`;
          return {
            contents: `for (const name of ${names}) Object.defineProperty(module.exports, name, { get: () => ${rules}[name], enumerable: true });`,
            loader: 'js',
          };
        });
      },
    },
  ],
  ...wrapper(),
  define,
});
const coreGlobal = '__secretRolloutBundle';
await build({
  ...minified,
  stdin: {
    contents: rulesEntries
      .map((file) => `export * as ${JSON.stringify(file)} from './${file}';`)
      .join('\n'),
    resolveDir: '.',
    sourcefile: 'rules-entry.js',
  },
  outfile: `dist/${rulesFile}`,
  plugins: [
    rawText,
    lazy,
    {
      // The bundle's modules as the bundle made them (one copy: its classes, its module state),
      // as constants: a call through them costs what a call in one file costs.
      name: 'bundle-modules',
      setup(build) {
        build.onLoad({ filter: /\.ts$/ }, (args) => {
          const file = relative(args.path);
          if (!coreShared.includes(file)) return undefined;
          const names = exportsOf.get(file);
          const contents = `const m = ${coreGlobal}[${JSON.stringify(file)}];\nexport const ${names.map((n) => `${n} = m.${n}`).join(', ')};`;
          return { contents, loader: 'js' };
        });
      },
    },
  ],
  ...wrapper(`const ${coreGlobal}=bundle.modules();`),
  define,
});
copyFileSync('src/launch.cjs', command);
const launcher = readFileSync(command, 'utf8');
writeFileSync(command, `#!/usr/bin/env node\n${launcher}`);
chmodSync(command, 0o755);
// A run on a typical input, so that the cache holds what a run compiles. A stale cache (an
// earlier bundle) would be rejected by V8 anyway; removed first so the run compiles afresh.
rmSync(codeCache, { force: true });
rmSync(rulesCache, { force: true });
execFileSync(process.execPath, [command], {
  input: readFileSync('examples/ci/manifests.yaml'),
  env: { ...process.env, SECRET_ROLLOUT_WRITE_CODE_CACHE: '1' },
  // stdout a pipe, not 'ignore': a read-write /dev/null there is refused as a closed stdout.
  stdio: ['pipe', 'pipe', 'pipe'],
});
