// Writes results as a YAML block sequence. Strings are plain where YAML reads them back as the
// same string, JSON-quoted (valid YAML double-quoted scalars) otherwise.
import type { Result } from '../model/results.js';
import { indentation, Pieces } from './yaml/site.js';

/** Each result's text, built as pieces (no string per line, no copy of a quoted value). */
const out = new Pieces();

/**
 * The `results:` line, then each result's text, one string per result: a result's lines are
 * joined while they are new, so that thousands of results never hold all their lines at once
 * (on 10k items: 37k lines, ≈4 MB of heap that outlived the young generation).
 */
export function resultsYaml(results: readonly Result[], lineBreak: string): string[] {
  const texts = [`results:${lineBreak}`];
  // By index, not for-of: no iterator result per result.
  for (let i = 0; i < results.length; i++) {
    emit(results[i] as unknown as Record<string, unknown>, 2, '- ', lineBreak);
    texts.push(out.take());
  }
  return texts;
}

function emit(value: Record<string, unknown>, indent: number, first: string, lineBreak: string) {
  let dash = first;
  // for-in, not Object.keys: no list of keys per mapping (results are plain objects, own keys
  // only, in the same order).
  for (const key in value) {
    const v = value[key];
    if (v === undefined) continue;
    out.add(head(indent, dash, key));
    if (typeof v === 'object' && v !== null) {
      out.add(lineBreak);
      emit(v as Record<string, unknown>, indent + 2, '', lineBreak);
    } else {
      out.add(' ');
      if (typeof v === 'string') out.scalar(v, 'plain');
      else out.add(String(v));
      out.add(lineBreak);
    }
    dash = '';
  }
}

/** Each `key:` line start, by indentation (and after `- `), made once: results share a few keys. */
const heads: Map<string, string>[] = [];
function head(indent: number, dash: string, key: string): string {
  const slot = indent * 2 + (dash === '' ? 0 : 1);
  let byKey = heads[slot];
  if (byKey === undefined) {
    byKey = new Map();
    heads[slot] = byKey;
  }
  let text = byKey.get(key);
  if (text === undefined) {
    text = `${indentation(indent - dash.length)}${dash}${key}:`;
    byKey.set(key, text);
  }
  return text;
}
