// Empty documents: a YAML stream of `---` and `...` lines with nothing between them (4 bytes a
// document), then one ConfigMap (a stream of nothing but empty documents is refused as "no
// input"). Each empty document is a span the reader looks at on its own.
import { configMap, fill } from './_fill.mjs';

export function generate(bytes) {
  return fill(bytes, '', () => '---\n...\n', configMap(0));
}
