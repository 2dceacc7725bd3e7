// Flow nesting with keys between the brackets: one ConfigMap whose value is `{a: {a: … x}}` on
// one line, as deep as the size allows (≈ 210,000 levels per MB). The guard once counted only
// brackets with nothing but spaces between them, so this passed it and overflowed the readers'
// stack; src/krm/yaml/nesting.ts counts the depth the readers see. Found by the fuzzer's cost
// oracle (test/fuzz/findings/bf58964824946930, 5,000 levels: 26× its parent's time per KB).
import { configMap } from './_fill.mjs';

export function generate(bytes) {
  const levels = Math.max(1, Math.floor(bytes / 5));
  return configMap(0, `  deep: ${'{a: '.repeat(levels)}x${'}'.repeat(levels)}\n`);
}
