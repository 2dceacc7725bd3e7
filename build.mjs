// One bundled, executable ESM file: fast start-up, nothing to resolve at run time.
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';

const outfile = 'dist/secret-rollout.cjs';
await build({
  entryPoints: ['src/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
});
chmodSync(outfile, 0o755);
