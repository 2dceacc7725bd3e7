// `npm run test:install`: installs the package the ways the README lists, from a fresh git clone,
// with the real npm (registry access for the clone's `npm ci`). Separate from `npm test`: it
// takes a minute and needs the network; .ci/run runs it. See install.e2e.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/install/**/*.e2e.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
