// Text from manifests (names, keys, messages that quote them) in the reports' markdown and Mermaid:
// it must render as the text it is. A pull request writes the manifests and the report is posted
// as a comment, so a name must not become HTML, a link, an @mention, an issue reference, a table
// column or a new line.
import { visible } from '../model/results.js';

/**
 * Markdown text. CommonMark lets a backslash escape any ASCII punctuation: the characters that
 * open or close inline syntax are escaped (`\` and backticks, emphasis `*` `_` `~`, links and
 * images `[` `]`, raw HTML, autolinks and entities `<` `>` `&`, math `$`, table cells `|`).
 * GFM's autolinks without `<>` (spec, "Autolinks (extension)") are found two ways (cmark-gfm's
 * extensions/autolink.c: docs/commands.md): `www.` and `scheme://` in the source, at the `w` and
 * the `:`, so an escaped `.` after `www` or `:` before `/` is no autolink (`mailto:` and `xmpp:`
 * are escaped too, for readers that match them there); emails and `mailto:`/`xmpp:` after the
 * escapes are gone (text merged, then searched for `@`), as @mentions and #123 references are,
 * so a zero-width joiner (U+200D) follows `@` and `#` instead: no domain or name starts with it,
 * and it shows nothing. Only these: a reason's `key: "value"` stays as it reads.
 * Line breaks and other controls are shown as escapes first (`\n`), so nothing starts a line.
 */
export const markdownText = (text: string) =>
  visible(text)
    .replace(/[\\`*_~[\]<>&$|]/g, '\\$&')
    .replace(/(?<=www)\.|(?<=mailto|xmpp):|:(?=\/)/gi, '\\$&')
    .replace(/[@#]/g, '$&\u200d');

/** What Kubernetes names (and plain paths) are made of: shown as code, in markdown or HTML. */
const plainName = /^[A-Za-z0-9 ./:_-]+$/;

/**
 * A name as a code span where it is plain (what Kubernetes names are: letters, digits, `-`, `.`,
 * with the `/` and space of `Kind namespace/name`), else as escaped text: a code span shows its
 * text literally, but would carry the raw forms (`<img …>`, a `|` that ends a table cell) into
 * the markdown, and a backtick inside would end it.
 */
export const markdownName = (text: string) =>
  plainName.test(text) ? `\`${text}\`` : markdownText(text);

/**
 * Text for inside a quoted Mermaid label: the characters that mean something there (the closing
 * quote, `#…;` entity codes, HTML, a markdown string's backtick) as Mermaid's entity codes (`#35;`).
 */
export const mermaidText = (text: string) =>
  visible(text).replace(/["#&<>`]/g, (c) => `#${c.charCodeAt(0)};`);

/**
 * Text inside raw HTML (a `<summary>`: markdown is not read there): `&`, `<`, `>` and quotes as
 * entities, `@` and `#` broken as in markdownText (GitHub finds mentions in the rendered text).
 */
export const htmlText = (text: string) =>
  visible(text)
    .replace(/[@#]/g, '$&\u200d')
    // After the joiners: an entity's own `#` must stay as it is.
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A name inside raw HTML: `<code>` where it is plain (as markdownName), else escaped text. */
export const htmlName = (text: string) =>
  plainName.test(text) ? `<code>${text}</code>` : htmlText(text);
