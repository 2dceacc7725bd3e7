// `impact` on a monorepo (issue #24): the markdown sums up first (workloads, applications, why by
// reason), then folds each application in <details>; it is cut at --max-chars between blocks
// with a last line saying where the full report is, which --output-full writes. The tree is
// bench/monorepo.mjs's at 50 applications (the bench's is 500), so the test stays fast.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the benchmark's generator is plain JavaScript, without types.
import { writeMonorepo } from '../bench/monorepo.mjs';
import { commentLimit, impactCli } from '../src/impact-cli.js';
import type { Impact } from '../src/report/impact.js';
import { impactReports } from '../src/report/impact-markdown.js';
import { elementsWalked } from './helpers.js';

let scratch: string;
/** What the generator bumped at 50 applications: the report must say as much. */
let expected: { rollouts: number; applications: number; sources: number };
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'impact-monorepo-'));
  expected = writeMonorepo(scratch, 50);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const impact = (...args: string[]) => impactCli(['base', 'head', ...args], '9.9.9', scratch);
const count = (text: string, part: string) => text.split(part).length - 1;

describe('impact on a monorepo (50 applications, a directory each)', () => {
  it('sums up first: workloads, applications, sources, and why grouped by reason', () => {
    // Every fifth application bumps db's version: 10 of 50, 24 workloads (a CronJob in every third).
    expect(expected).toEqual({ rollouts: 24, applications: 10, sources: 10 });
    const out = impact();
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines.slice(0, 8)).toEqual([
      '### secret-rollout impact',
      '',
      '**24 workloads will restart** in 10 applications because 10 secret sources changed.',
      '',
      '| Why | Sources | Workloads | Applications |',
      '| --- | --- | ---: | ---: |',
      '| data\\[password\\].remoteRef.version: "7" → "8" | `ExternalSecret app-000/db`, `ExternalSecret app-005/db`, `ExternalSecret app-010/db` and 7 more | 24 | 10 |',
      '',
    ]);
    // The picture is for one application: at this scale the reasons table says it.
    expect(out.stdout).not.toContain('```mermaid');
  });

  it('folds each application in <details>, in path order, its table inside', () => {
    const md = impact().stdout;
    expect(count(md, '<details>')).toBe(10);
    expect(count(md, '</details>')).toBe(10);
    const summaries = [...md.matchAll(/^<summary>(.*)<\/summary>$/gm)].map((m) => m[1]);
    expect(summaries).toEqual(
      [0, 5, 10, 15, 20, 25, 30, 35, 40, 45].map((i) => {
        const app = `app-${String(i).padStart(3, '0')}`;
        return `<code>apps/${app}</code>: ${i % 3 === 0 ? 3 : 2} workloads (1 source changed)`;
      }),
    );
    // The kind as given: a CronJob rolls as a Deployment does.
    expect(md).toContain(
      '<summary><code>apps/app-015</code>: 3 workloads (1 source changed)</summary>\n\n| Workload | Because |\n| --- | --- |\n| `Deployment app-015/api` | `ExternalSecret app-015/db`: data\\[password\\].remoteRef.version: "7" → "8" |\n| `CronJob app-015/backup` |',
    );
    // Deterministic: a second run is byte-identical.
    expect(impact().stdout).toBe(md);
  });

  it('is cut between blocks at --max-chars (counted), with the line saying where the full report is', () => {
    const full = impact().stdout;
    expect(full.length).toBeGreaterThan(4000);
    for (const max of [1000, 2000, 3000, 4000]) {
      const out = impact('--max-chars', String(max), '--output-full', `full-${max}.md`);
      expect(out.exitCode).toBe(0);
      const md = out.stdout;
      expect(md.length).toBeLessThanOrEqual(max);
      // Never inside a folded application.
      expect(count(md, '<details>')).toBe(count(md, '</details>'));
      const shown = count(md, '<details>');
      expect(
        md.endsWith(
          `\n\n**Cut** at ${max} characters, a comment's cap: ${shown} of 10 applications shown, the rest left out; the full report is in \`full-${max}.md\`.\n`,
        ),
      ).toBe(true);
      // What is kept is the full report's start, to a block's end.
      expect(full.startsWith(md.slice(0, md.lastIndexOf('\n\n**Cut**')))).toBe(true);
      expect(readFileSync(path.join(scratch, `full-${max}.md`), 'utf8')).toBe(full);
    }
    // The summary always stays, and as many applications as fit: 3000 holds some, not all.
    const md = impact('--max-chars', '3000').stdout;
    expect(count(md, '<details>')).toBeGreaterThan(0);
    expect(md).toContain('**24 workloads will restart** in 10 applications');
    expect(md).toMatch(/; impact writes the full report to a file with `--output-full FILE`\.\n$/);
  });

  it("caps at GitHub's 65,536 characters by default; under the cap the comment is the full report", () => {
    expect(commentLimit).toBe(65536);
    const out = impact('--output-full', 'whole.md');
    expect(out.stdout).not.toContain('**Cut**');
    expect(readFileSync(path.join(scratch, 'whole.md'), 'utf8')).toBe(out.stdout);
  });

  it('tells its caller the larger side once both are read, before planning (main.ts tunes V8 there)', () => {
    const sizes: number[] = [];
    impactCli(['base', 'head', '--format', 'json'], '9.9.9', scratch, (n) => sizes.push(n));
    const joined = (side: string) =>
      impactCli([side, side, '--format', 'json'], '9.9.9', scratch, (n) => sizes.push(n));
    joined('base');
    joined('head');
    // The larger of the two sides' streams, counted in characters.
    expect(sizes).toHaveLength(3);
    expect(sizes[0]).toBe(Math.max(sizes[1] as number, sizes[2] as number));
    expect(sizes[0]).toBeGreaterThan(50 * 1000);
  });

  it('refuses --max-chars and --output-full where they mean nothing or cannot be done', () => {
    const fails = (...args: string[]) => {
      const out = impact(...args);
      expect(out.exitCode).toBe(1);
      expect(out.stdout).toBe('');
      return out.stderr;
    };
    expect(fails('--max-chars', '500')).toBe(
      'secret-rollout: impact: --max-chars must be a whole number of characters, at least 1000\n',
    );
    expect(fails('--max-chars', '2e4')).toMatch(/whole number/);
    expect(fails('--max-chars', '2000', '--max-chars', '3000')).toBe(
      'secret-rollout: impact: --max-chars given twice\n',
    );
    expect(fails('--output-full', 'x.md', '--format', 'json')).toBe(
      'secret-rollout: impact: --output-full is for --format markdown (the comment), got --format json\n',
    );
    expect(fails('--output-full', 'no/such/dir/full.md')).toBe(
      'secret-rollout: impact: cannot write --output-full no/such/dir/full.md: no such file or directory\n',
    );
  });

  it('refuses a cap that the summary and the cut line alone exceed, writing nothing', () => {
    // The cut line names the file: a long path (CI's workspace) left the comment over the cap.
    const dir = path.join('deep', ...Array.from({ length: 5 }, (_, i) => String(i).repeat(200)));
    mkdirSync(path.join(scratch, dir), { recursive: true });
    const file = path.join(dir, 'full.md');
    const out = impact('--max-chars', '1000', '--output-full', file);
    expect(out.stderr).toMatch(
      /^secret-rollout: impact: --max-chars 1000 leaves no room for the summary and the line saying where the full report is: they take \d{4} characters\n$/,
    );
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(existsSync(path.join(scratch, file))).toBe(false);
  });

  it('never writes the full report over a file BASE or HEAD reads, named or through a link', () => {
    const file = (name: string) => path.join(scratch, name);
    const [read] = readdirSync(file('head/apps/app-000')).filter((f) => f.endsWith('.yaml'));
    const inHead = `head/apps/app-000/${read}`;
    const before = readFileSync(file(inHead), 'utf8');
    symlinkSync(path.join('head/apps/app-000', read as string), file('report.md'));
    mkdirSync(file('single'));
    writeFileSync(file('single/head.yaml'), before);
    writeFileSync(file('fn.yaml'), before);
    for (const [args, target] of [
      [['--output-full', inHead], inHead],
      [['--output-full', `./head//apps/app-000/../app-000/${read}`], inHead],
      [['--output-full', 'report.md'], inHead],
      [['base', 'single/head.yaml', '--output-full', 'single/head.yaml'], 'single/head.yaml'],
      [['base', 'head', '--fn-config', 'fn.yaml', '--output-full', 'fn.yaml'], 'fn.yaml'],
    ] as const) {
      const out = impactCli(args.length > 2 ? args : ['base', 'head', ...args], '9.9.9', scratch);
      expect(out.stderr).toBe(
        `secret-rollout: impact: --output-full ${args.at(-1)} is a file the run reads (BASE, HEAD or --fn-config): refused, it would be overwritten\n`,
      );
      expect(out.exitCode).toBe(1);
      expect(out.stdout).toBe('');
      expect(readFileSync(file(target), 'utf8')).toBe(before);
    }
  });
});

describe('what an application is', () => {
  const es = (name: string, version: string) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
spec:
  secretStoreRef:
    name: vault
  data:
    - secretKey: password
      remoteRef:
        key: ${name}
        version: "${version}"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  template:
    spec:
      containers:
        - name: app
          image: app:1
          envFrom:
            - secretRef:
                name: ${name}
`;
  /** A tree where each file's ExternalSecret is bumped between BASE and HEAD. */
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(scratch, 'apps-'));
    for (const side of ['base', 'head']) {
      for (const [file, name] of Object.entries(files)) {
        const at = path.join(dir, side, file);
        mkdirSync(path.dirname(at), { recursive: true });
        writeFileSync(at, name === '' ? '' : es(name, side === 'base' ? '1' : '2'));
      }
    }
    return impactCli(['base', 'head'], '9.9.9', dir).stdout;
  };
  const summaries = (md: string) =>
    [...md.matchAll(/^<summary>(.*?):/gm)].map((m) => m[1] as string);

  it('the directory nearest above with a kustomization.yaml or Kptfile, else the top directory, else `.`', () => {
    const md = tree({
      'root.yaml': 'at-root',
      'team-a/svc/kustomization.yaml': '',
      'team-a/svc/app.yaml': 'svc',
      'team-a/svc/extra/more.yaml': 'svc-extra',
      'team-a/loose.yaml': 'loose',
      'team-b/deep/down/app.yml': 'deep',
      'pkg/Kptfile': '',
      'pkg/app.yaml': 'pkg',
    });
    expect(md).toContain('**6 workloads will restart** in 5 applications');
    expect(summaries(md)).toEqual([
      '<code>.</code>',
      '<code>pkg</code>',
      '<code>team-a</code>',
      '<code>team-a/svc</code>',
      '<code>team-b</code>',
    ]);
    expect(md).toContain('<summary><code>team-a/svc</code>: 2 workloads (2 sources changed)');
  });

  it('one application reads as a small pull request: the table and the picture, named when not the root', () => {
    const md = tree({ 'apps/shop/kustomization.yaml': '', 'apps/shop/app.yaml': 'shop' });
    expect(md).toContain(
      '**1 workload will restart** in `apps/shop` because 1 secret source changed.\n\n| Workload | Because |',
    );
    expect(md).toContain('```mermaid');
    expect(md).not.toContain('<details>');
  });

  it('a directory name that GFM would autolink is escaped (`www\\.`): the one that rolls, named in the sentence', () => {
    const md = tree({ 'www.evil.com?/app.yaml': 'one' });
    expect(md).toContain('**1 workload will restart** in www\\.evil.com? because');
  });

  it('a directory name is text in the HTML of <summary>: no tag, entity, mention or reference', () => {
    const md = tree({ 'a<img src=x>&@me#1/app.yaml': 'one', 'b/app.yaml': 'two' });
    expect(summaries(md)).toEqual(['a&#60;img src=x&#62;&#38;@\u200dme#\u200d1', '<code>b</code>']);
  });
});

/** An impact of n workloads that restart because one ExternalSecret changed. */
function manyRollouts(n: number): Impact {
  const rollouts = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      application: 'apps/shop',
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a', name: `d${i}` },
      reasons: [
        {
          source: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', name: 's' },
          detail: 'data[a].remoteRef.version: "1" → "2"',
        },
      ],
    }));
  return {
    rollouts: rollouts(n),
    silentRotations: [],
    unchangedSilentRotations: 0,
    waves: [],
    order: [],
    added: [],
    removed: [],
    newLints: [],
    lints: [],
  } as unknown as Impact;
}

describe('the cap, whatever the report', () => {
  it('is never passed, wherever the cut lands (a table row last, or a blank line)', () => {
    const impact = manyRollouts(200);
    for (let max = 1000; max < 1400; max++) {
      const { comment } = impactReports(impact, { maxChars: max });
      expect(comment.length).toBeLessThanOrEqual(max);
    }
  });
});

describe('cost of the markdown, counted', () => {
  it('groups rollouts by application in linear work: 2,000 workloads of one application', () => {
    const impact = manyRollouts(2000);
    const walked = elementsWalked(() => {
      impactReports(impact, { maxChars: 10_000_000 });
    });
    expect(walked).toBeLessThanOrEqual(20 * 2000);
  });
});
