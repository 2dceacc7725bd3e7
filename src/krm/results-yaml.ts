// Writes results as a YAML block sequence. Strings are plain where YAML reads them back as the
// same string, JSON-quoted (valid YAML double-quoted scalars) otherwise.
import type { Result } from '../model/results.js';
import { formatScalar, indentation } from './yaml/site.js';

/**
 * The `results:` line, then each result's text, one string per result: a result's lines are
 * joined while they are new, so that thousands of results never hold all their lines at once
 * (on 10k items: 37k lines, ≈4 MB of heap that outlived the young generation).
 */
export function resultsYaml(results: readonly Result[], lineBreak: string): string[] {
  const texts = [`results:${lineBreak}`];
  for (const result of results) {
    const lines: string[] = [];
    emit(result as unknown as Record<string, unknown>, 2, '- ', lines);
    lines.push('');
    texts.push(lines.join(lineBreak));
  }
  return texts;
}

function emit(value: Record<string, unknown>, indent: number, first: string, lines: string[]) {
  let prefix = `${indentation(indent - first.length)}${first}`;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v === 'object' && v !== null) {
      lines.push(`${prefix}${key}:`);
      emit(v as Record<string, unknown>, indent + 2, '', lines);
    } else {
      lines.push(
        `${prefix}${key}: ${typeof v === 'string' ? formatScalar(v, 'plain') : String(v)}`,
      );
    }
    prefix = indentation(indent);
  }
}
