// Names from manifests in the reports' markdown (src/report/markdown.ts) must not become GFM
// autolinks. The check follows GFM's "Autolinks (extension)" as cmark-gfm implements it
// (docs/commands.md): `www.` and `scheme://` are matched in the source, before backslash escapes
// are read; emails and `mailto:`/`xmpp:` in the rendered text (escapes gone, text merged).
import { describe, expect, it } from 'vitest';
import { markdownText } from '../src/report/markdown.js';

/** What the markdown renders as: each backslash escape of ASCII punctuation read. */
const rendered = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** The autolinks GFM would find in a line of markdown, by the spec's triggers. */
function autolinks(md: string): string[] {
  const found: string[] = [];
  // www. and http(s):// open at a line's start, after whitespace or `*` `_` `~` `(`, and need
  // a domain with a period after them (the spec's "valid domain"); a backslash in between is
  // no match. Case-insensitive here, as stricter readers than cmark-gfm do.
  for (const m of md.matchAll(/(?:^|[\s*_~(])((?:www\.|https?:\/\/|ftp:\/\/)[\w-]+\.[\w.-]*)/gi))
    found.push(m[1] as string);
  // An email (with or without mailto:/xmpp:) anywhere in the text: `@` between an address's
  // characters and a domain's.
  for (const m of rendered(md).matchAll(/[\w.+-]+@[A-Za-z0-9][\w.-]*\.[\w-]+/g)) found.push(m[0]);
  return found;
}

/** Names from the spec's examples (and the one from the issue), each a would-be link. */
const names = [
  'www.evil.com?',
  'www.commonmark.org',
  'Visit www.commonmark.org/help for more information.',
  'Visit www.commonmark.org/a.b.',
  'www.google.com/search?q=Markup+(business)',
  '(www.google.com/search?q=Markup+(business))',
  'WWW.commonmark.org',
  'wwww.evil.com and www.www.evil.com',
  'http://commonmark.org',
  '(Visit https://encrypted.google.com/search?q=Markup+(business))',
  '*https://evil.com*',
  'ftp://foo.bar.baz',
  'foo@bar.baz',
  'hello+xyz@mail.example',
  'a.b-c_d@a.b',
  'mailto:foo@bar.baz',
  'xmpp:foo@bar.baz/txt',
];

describe('markdownText: no GFM autolink from a name', () => {
  it('the oracle finds every example unescaped (a name as it was written before)', () => {
    for (const name of names) expect(autolinks(name), name).not.toEqual([]);
  });

  it('escaped, none is an autolink, in a sentence or a table cell', () => {
    for (const name of names) {
      const md = markdownText(name);
      for (const line of [md, `**1 workload will restart** in ${md} because`, `| ${md} | x |`])
        expect(autolinks(line), line).toEqual([]);
    }
  });

  it('renders as the name itself (a backslash escape shows its character; the joiner shows nothing)', () => {
    for (const name of [...names, 'www\\.evil.com', 'a\\:b']) {
      expect(rendered(markdownText(name)).replaceAll('\u200d', '')).toBe(name);
    }
  });

  it('escapes only what opens an autolink: a reason\'s `key: "value"` reads as written', () => {
    expect(markdownText('remoteRef.version: "7" → "8"')).toBe('remoteRef.version: "7" → "8"');
    expect(markdownText('url: https://x.y')).toBe('url: https\\://x.y');
  });
});
