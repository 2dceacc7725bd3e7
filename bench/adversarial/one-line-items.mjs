// Adversarial family: a ResourceList whose items are each one line of JSON (`- {"apiVersion": …,
// "data": {"k0": "v", …}}`), up to 2 MiB each (the reader takes items up to 3 MiB). The quick
// reader reads a flow collection's quoted scalars to the end of their line, and looks for that end
// from each one again (src/krm/yaml/quick-parse.ts flowKey and flowNode: `s.indexOf('\n', p)` per
// quoted key or value): time grows with quoted scalars × the line's length, the square of an item's
// size (at c44bdf0: 0.5 MB 0.56 s, 1 MB 2.0–2.2 s, 2 MB 7.9 s, 4 MB 16 s; profile at 2 MB: flowKey
// 3.6 s and flowNode 3.4 s self of 7.9 s).

/** About `bytes` of a ResourceList of one-line ConfigMaps of at most 2 MiB. */
export function generate(bytes) {
  const out = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:'];
  let size = 60;
  for (let n = 0; size < bytes; n++) {
    const target = Math.min(2 << 20, bytes - size);
    const keys = [];
    for (let i = 0, length = 0; length < target; i++) {
      const key = `"k${i}": "v"`;
      keys.push(key);
      length += key.length + 2;
    }
    const line = `- {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c${n}", "namespace": "a"}, "data": {${keys.join(', ')}}}`;
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}
