// Where JSON.parse failed, for a message that names a line and a column: V8's own message quotes
// the text around an unexpected token (`Unexpected token 'D', "{"a": DB_PASS"... is not valid
// JSON`), and messages never quote the input (README "Results").

// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold them raw
const string = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.source;
const key = new RegExp(string, 'y');
const scalar = new RegExp(
  `${string}|-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|true|false|null`,
  'y',
);
const space = /[ \t\n\r]*/y;

/** The offset of the first character that makes `text` invalid JSON (text JSON.parse refused). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const eat = (pattern: RegExp): boolean => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  // What comes next, and the open collections (an explicit stack: JSON may nest deep).
  let want: 'value' | 'key' | 'colon' | 'next' = 'value';
  const open: string[] = [];
  for (;;) {
    eat(space);
    const c = text[i];
    if (c === undefined) return i;
    if (want === 'value') {
      if (c === '{' || c === '[') {
        open.push(c === '{' ? '}' : ']');
        i++;
        eat(space);
        if (text[i] === open.at(-1)) {
          open.pop();
          i++;
          want = 'next';
        } else want = c === '{' ? 'key' : 'value';
      } else if (eat(scalar)) want = 'next';
      else return i;
    } else if (want === 'key') {
      if (!eat(key)) return i;
      want = 'colon';
    } else if (want === 'colon') {
      if (c !== ':') return i;
      i++;
      want = 'value';
    } else {
      const close = open.at(-1);
      if (close === undefined) return i;
      if (c === ',') want = close === '}' ? 'key' : 'value';
      else if (c === close) open.pop();
      else return i;
      i++;
    }
  }
}
