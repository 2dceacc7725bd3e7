// One bundled, executable CommonJS file (dist/secret-rollout.cjs): fast start-up, nothing to resolve at run time.
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outfile = 'dist/secret-rollout.cjs';
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

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
await build({
  entryPoints: ['src/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  plugins: [rawText],
  // `secret-rollout --version`: a constant in the one file, not a package.json read at run time.
  define: { SECRET_ROLLOUT_VERSION: JSON.stringify(version) },
});
chmodSync(outfile, 0o755);
