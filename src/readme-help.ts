// The top-level `--help` text comes from README.md, as in the kpt functions catalog (kpt's mdtogo):
// blocks `<!--mdtogo:Short-->…<!--mdtogo-->`, `Long` and `Examples`, read by build.mjs at build
// time (the bundle reads no files) and turned into plain text for a terminal here. No imports:
// build.mjs compiles this file alone.

export const readmeBlocks = ['Short', 'Long', 'Examples'] as const;
export type ReadmeHelp = Record<(typeof readmeBlocks)[number], string>;

/** The three blocks as terminal text, or what is wrong with the README (for the build to fail). */
export function readmeHelp(markdown: string): ReadmeHelp | { problem: string } {
  const help: Partial<ReadmeHelp> = {};
  for (const name of readmeBlocks) {
    const blocks = [
      ...markdown.matchAll(new RegExp(`<!--mdtogo:${name}-->([\\s\\S]*?)<!--mdtogo-->`, 'g')),
    ];
    if (blocks.length !== 1) {
      const found = blocks.length === 0 ? 'no' : `${blocks.length}`;
      return {
        problem: `README.md has ${found} <!--mdtogo:${name}-->…<!--mdtogo--> block${blocks.length === 0 ? '' : 's'}, needs one: --help is built from it`,
      };
    }
    const text = terminalText(blocks[0]?.[1] ?? '');
    if (text === '') return { problem: `README.md's <!--mdtogo:${name}--> block is empty` };
    help[name] = name === 'Short' ? text.replace(/\s*\n\s*/g, ' ') : text;
  }
  return help as ReadmeHelp;
}

/**
 * Markdown as a terminal shows it: code blocks indented by two spaces without their fences (as
 * mdtogo does), Mermaid pictures, HTML comments and tables' rule lines left out, headings as
 * `Heading:`, a web link as `text (url)` and a link into the repository (docs/…, an anchor) as
 * its text, as an installed command has no docs/ beside it (left out when it is all of a
 * parenthesis); no emphasis or code marks.
 */
export function terminalText(markdown: string): string {
  const out: string[] = [];
  let fence: { mark: string; show: boolean } | undefined;
  for (const line of markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n')) {
    const opens = /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(line);
    if (fence) {
      if (opens && opens[1] === fence.mark && opens[2] === '') fence = undefined;
      else if (fence.show) out.push(line === '' ? '' : `  ${line}`);
      continue;
    }
    if (opens) {
      fence = { mark: opens[1] as string, show: opens[2] !== 'mermaid' };
      continue;
    }
    // A table's |---|---| line draws nothing in a terminal.
    if (/^\s*\|[-:| ]+\|\s*$/.test(line)) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    out.push(heading ? `${inline(heading[1] as string)}:` : inline(line));
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\s*\n/, '')
    .trimEnd();
}

/** One line's inline markdown as plain text. */
function inline(line: string): string {
  // Parenthesised links into the repository, `([details](docs/options.md#x), [readers](…))`,
  // say nothing without their targets: left out whole, not as a dangling "(details, readers)".
  return line
    .replace(/\s*\((?:\[[^\]]*\]\((?!https?:\/\/)[^)\s]*\)(?:,\s*)?)+\)/g, '')
    .replace(/!?\[([^\]]*)\]\(([^)\s]*)\)/g, (_, text: string, url: string) =>
      /^https?:\/\//.test(url) && url !== text ? `${text} (${url})` : text,
    )
    .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a?: string, b?: string) => a ?? b ?? '')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}
