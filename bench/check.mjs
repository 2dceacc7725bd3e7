// Correctness oracle for one function run on a generated input: the right pod templates carry the
// checksum, ExternalSecrets and stores carry a sync wave, and nothing else changed (text and data).
// Expectations come from the generator, never from the function under test. The input itself must
// be realistic too: no reference to a key its Secret lacks (a missing-key warning in a
// ResourceList's results means the generator wrote one).
import yaml from 'js-yaml';
import { itemId, WORKLOAD_KINDS } from './generate.mjs';

const CHECKSUM = 'checksum/external-secrets';
const WAVE = 'argocd.argoproj.io/sync-wave';
// Lines the function may add or rewrite; any other difference is a failure.
const ANNO_LINE = /^\s*(["']?)(checksum\/external-secrets|argocd\.argoproj\.io\/sync-wave)\1\s*:/;
const HEADER_LINE = /^\s*(metadata|annotations):\s*$/;
const RESULTS = /^results:\n(?:[ -].*\n|\n)*(?:[ -].*)?/m;
// The missing-key lint's message (src/rules/lints/missing-key.ts).
const MISSING_KEY = /\breads keys? .+ of (Secret|ConfigMap) .+, but .+ produces/;

const podTemplate = (d) =>
  d.kind === 'CronJob' ? d.spec?.jobTemplate?.spec?.template : d.spec?.template;

function parse(text, format) {
  if (format === 'rl') return yaml.load(text)?.items ?? [];
  return yaml.loadAll(text).filter((d) => d != null);
}

// Remove one annotation and the empty maps that adding it may have created.
function dropAnnotation(holder, key) {
  const md = holder?.metadata;
  if (!md?.annotations) return;
  delete md.annotations[key];
  if (Object.keys(md.annotations).length === 0) delete md.annotations;
  if (Object.keys(md).length === 0) delete holder.metadata;
}

/** Output lines, with allowed annotation edits skipped, must equal the input lines. */
function textDiff(input, output) {
  const a = input.split('\n');
  const b = output.split('\n');
  let i = 0;
  let j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (ANNO_LINE.test(b[j]) || HEADER_LINE.test(b[j])) j++;
    else if (i < a.length && ANNO_LINE.test(a[i])) i++;
    else {
      return `text differs at output line ${j + 1}: ${JSON.stringify(b[j])} (input line ${i + 1}: ${JSON.stringify(a[i])})`;
    }
  }
  while (i < a.length && ANNO_LINE.test(a[i])) i++;
  return i < a.length
    ? `output ends early; input line ${i + 1} missing: ${JSON.stringify(a[i])}`
    : null;
}

/**
 * @param {{input: string, output: string, expected: {checksum: Set<string>, syncWave: Map<string, string|null>}, format: 'rl'|'stream'}} run
 * @returns {string[]} problems found (empty when correct)
 */
export function check({ input, output, expected, format }) {
  const found = new Map(); // problem kind -> [count, first example]
  const err = (kind, example = '') => {
    const f = found.get(kind) ?? [0, example];
    found.set(kind, [f[0] + 1, f[1]]);
  };
  const errors = () =>
    [...found].map(
      ([k, [n, ex]]) => `${k}${n > 1 ? ` (${n}×, first: ${ex})` : ex ? ` (${ex})` : ''}`,
    );
  // A ResourceList may end with the function's results: not part of the items.
  if (format === 'rl') {
    const results = RESULTS.exec(output)?.[0];
    for (const result of (results && yaml.load(results)?.results) || []) {
      const message = String(result?.message);
      if (MISSING_KEY.test(message)) err('the input reads a key its Secret lacks', message);
    }
    output = output.replace(RESULTS, '');
  }
  const lines = output.split('\n').filter((l) => l.includes(CHECKSUM)).length;
  if (lines !== expected.checksum.size) {
    err(`${lines} lines mention ${CHECKSUM}, expected ${expected.checksum.size}`);
  }
  const diff = textDiff(input, output);
  if (diff) err(diff);

  let inDocs;
  let outDocs;
  try {
    inDocs = parse(input, format);
    outDocs = parse(output, format);
  } catch (e) {
    err(`output is not valid YAML: ${e.message.split('\n')[0]}`);
    return errors();
  }
  if (inDocs.length !== outDocs.length) {
    err(`${outDocs.length} items in output, ${inDocs.length} in input`);
    return errors();
  }
  let stamped = 0;
  let waves = 0;
  outDocs.forEach((out, k) => {
    const inp = inDocs[k];
    const id = itemId(out?.kind, out?.metadata?.namespace, out?.metadata?.name);
    if (id !== itemId(inp.kind, inp.metadata?.namespace, inp.metadata?.name)) {
      err('items reordered or renamed', `item ${k} is ${id}`);
      return;
    }
    if (WORKLOAD_KINDS.has(out.kind)) {
      const value = podTemplate(out)?.metadata?.annotations?.[CHECKSUM];
      const want = expected.checksum.has(id);
      if (value !== undefined) stamped++;
      if (want && value === undefined) err('checksum missing on pod template', id);
      else if (want && !/^[0-9a-f]{64}$/.test(value))
        err('checksum not 64 hex digits', `${id}: ${value}`);
      else if (want && /^0+$/.test(value)) err('stale checksum from the input not replaced', id);
      else if (!want && value !== undefined)
        err('checksum on a pod template that should not get one', id);
      dropAnnotation(podTemplate(out), CHECKSUM);
      dropAnnotation(podTemplate(inp), CHECKSUM);
    }
    if (expected.syncWave.has(id)) {
      const value = out.metadata?.annotations?.[WAVE];
      const want = expected.syncWave.get(id);
      if (value !== undefined) waves++;
      if (value !== want) err(`${out.kind} sync-wave wrong`, `${id}: ${value}, expected ${want}`);
      dropAnnotation(out, WAVE);
      dropAnnotation(inp, WAVE);
    }
    if (JSON.stringify(out) !== JSON.stringify(inp)) err('data changed beyond the annotations', id);
  });
  if (stamped !== expected.checksum.size) {
    err(`${stamped} pod templates carry ${CHECKSUM}, expected ${expected.checksum.size}`);
  }
  if (waves !== expected.syncWave.size) {
    err(`${waves} ExternalSecrets/stores carry a sync-wave, expected ${expected.syncWave.size}`);
  }
  return errors();
}
