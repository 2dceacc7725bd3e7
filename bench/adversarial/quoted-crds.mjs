// Multi-line quoted scalars the quick reader declines (src/krm/yaml/quick-parse.ts): a YAML
// stream of CustomResourceDefinitions (≈ 30 KB each, ≈ 100 schema properties) in which every
// fourth description is a double- or single-quoted scalar folded over several lines, as
// `kubectl get crd -o yaml` and older controller-gen versions write them. One such scalar sends
// the whole item to the conforming reader, ≈ 10× slower than the quick reader on block YAML.
import { fill } from './_fill.mjs';

const words = (
  'the of a to is in for be that this field value when resource secret name key reference ' +
  'defines specifies optional default used if not set must namespace store provider data ' +
  'version kind object which will refresh interval template target policy conversion'
).split(' ');

/** Deterministic prose of `n` words. */
function prose(seed, n) {
  const out = [];
  for (let k = 0; k < n; k++) out.push(words[(seed * 7 + k * 13 + ((k * k) % 11)) % words.length]);
  return out.join(' ');
}

/** A description; every fourth one folded at ≈ 80 columns, continuation lines indented. */
function description(pad, seed) {
  if (seed % 4 !== 0) return `${pad}description: ${prose(seed, 8)}.\n`;
  const double = seed % 8 === 0;
  const text = double
    ? `${prose(seed, 12)}. More info: \\"https://example.com/api#${seed}\\". ${prose(seed + 1, 14)}.`
    : `${prose(seed, 12)}. It''s ${prose(seed + 1, 14)}.`;
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length > 70) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  const q = double ? '"' : "'";
  return `${pad}description: ${q}${lines.join(`\n${pad}  `)}${q}\n`;
}

function property(pad, seed, depth) {
  let out = `${pad}field${seed}:\n${description(`${pad}  `, seed)}`;
  if (depth > 0) {
    out += `${pad}  properties:\n`;
    for (let k = 0; k < 4; k++) out += property(`${pad}    `, seed * 4 + k + 1, depth - 1);
    out += `${pad}  required:\n${pad}  - field${seed * 4 + 1}\n${pad}  type: object\n`;
  } else if (seed % 3 === 0) {
    out += `${pad}  enum:\n${pad}  - Always\n${pad}  - IfNotPresent\n${pad}  - Never\n${pad}  type: string\n`;
  } else {
    out += `${pad}  format: int32\n${pad}  maximum: 65535\n${pad}  minimum: 0\n${pad}  type: integer\n`;
  }
  return out;
}

function crd(i) {
  const group = `g${i}.example.com`;
  let out = `---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.${group}\nspec:\n  group: ${group}\n  names:\n    kind: Widget\n    listKind: WidgetList\n    plural: widgets\n    singular: widget\n  scope: Namespaced\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n${description('        ', 4 * i)}        properties:\n`;
  for (let k = 0; k < 5; k++) out += property('          ', i * 5 + k + 1, 2);
  return `${out}        type: object\n    served: true\n    storage: true\n`;
}

export function generate(bytes) {
  return fill(bytes, '', crd);
}
