// One-line JSON documents: a YAML stream whose documents are ConfigMaps written as JSON on one
// line each (what `kubectl get -o json | jq -c` pipelines produce). No line starts a top-level
// `key:`, so a scan for the next key that is restarted per document runs to the end of the text.
import { fill } from './_fill.mjs';

export function generate(bytes) {
  return fill(
    bytes,
    '',
    (i) =>
      `---\n{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c${i}","namespace":"shop","labels":{"app":"web"}},"data":{"LOG_LEVEL":"info","PORT":"80${i % 100}"}}\n`,
  );
}
