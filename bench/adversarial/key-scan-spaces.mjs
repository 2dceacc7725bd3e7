// Top-level-key scan on long lines of spaces: a YAML stream of ConfigMaps, every other one written
// as a flow mapping whose value goes on at column 0 (valid at the top level) on a line that is
// one letter and 8 KiB of spaces. The scan for `key:` at column 0 (src/krm/yaml/spans.ts
// topLevelEntries) tries every prefix of such a line and, for each, every run of spaces after it:
// O(L²) per line at 3fcc96f, so one line of 1 MB takes minutes.
import { configMap, fill } from './_fill.mjs';

const spaces = ' '.repeat(8192);

export function generate(bytes) {
  return fill(
    bytes,
    '',
    (i) =>
      `${configMap(2 * i)}---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: c${2 * i + 1}, namespace: shop}, data: {k:\nv${spaces}\n}}\n`,
  );
}
