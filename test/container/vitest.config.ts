// `npm run test:container`: builds the Dockerfile with buildah and runs the image through the real
// kpt and kubectl. Separate from `npm test` (slow, needs buildah and root); see container.e2e.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/container/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // One suite, one image store: nothing to gain from workers.
    fileParallelism: false,
  },
});
