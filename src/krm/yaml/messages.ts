// Messages of the YAML readers without text of the input: an error names the problem, a line and
// a column, never what is written there (README "Results"; a Secret's value can sit anywhere).
// The `yaml` library appends the source of some tokens to its messages (an error token, a block
// scalar header, `Not a YAML token: …`) after a colon, and ends a few with it (an escape, a
// directive, a YAML version); tags are named inside the sentence, so those get words of their own.

import { maxDepth } from './nesting.js';

/** Codes whose every message names a tag, or says what only the library sees. */
const ownWords: Readonly<Record<string, string>> = {
  TAG_RESOLVE_FAILED: 'A tag that cannot be resolved',
  BAD_COLLECTION_TYPE: 'A tag that does not fit the collection',
  // The composer's stack overflowed ("Maximum call stack size exceeded"): nesting, which the
  // guard (nesting.ts) refuses before it; should any text still get past it, that is the reason.
  RESOURCE_EXHAUSTION: `Nesting deeper than the reader can follow (the bound is ${maxDepth} levels)`,
};

/** Messages that end with the text they are about. */
const endsWithSource = /^(Invalid escape sequence|Unsupported YAML version|Unknown directive) .*$/s;

/** The `yaml` library's message for an error of `code`, without input text. */
export function yamlMessage(code: string, message: string): string {
  return ownWords[code] ?? beforeColon(message).replace(endsWithSource, '$1');
}

/** A message whose tail after the first `: ` may quote the input (`Unresolved alias …: *a`). */
export function beforeColon(message: string): string {
  const cut = message.indexOf(': ');
  return cut < 0 ? message : message.slice(0, cut);
}
