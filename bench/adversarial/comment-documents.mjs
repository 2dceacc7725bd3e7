// Comment-only documents: a YAML stream of `---` and a comment line (6 bytes a document), then one
// ConfigMap. A document without content is checked by the conforming reader on its own.
import { configMap, fill } from './_fill.mjs';

export function generate(bytes) {
  return fill(bytes, '', () => '---\n#\n', configMap(0));
}
