// Adversarial family: n namespaces, each with an ExternalSecret and a Job both named `app`, so
// every result names a resource whose name all 2n items share. Results were put in item order by
// comparing each item with every ref of its name until session 12 (16k namespaces: 12.2 s); each
// ref is now numbered once by name (src/rules/transform.ts sortByItem).
import { fill, madeAndRead } from './_fill.mjs';

const unit = (i) =>
  madeAndRead(i, 'app', 'app', { namespace: `ns-${i}`, source: 'app', job: 'app' });

export function generate(bytes) {
  return fill(bytes, '', unit);
}
