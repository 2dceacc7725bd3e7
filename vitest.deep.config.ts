// `npm run test:deep` (what .ci/run runs): the same files as `npm test` at full depth, the full
// property repetitions and the huge inputs (test/depth.ts).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { env: { TEST_DEPTH: 'deep' } } }));
