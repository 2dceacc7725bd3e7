// The list-entry edit through the whole run (run.ts), with a planning stage stood in: until a rule
// plans one (#23 §1, a HelmRelease's postRenderers), transform is wrapped to append an entry to
// every HelmRelease. Fails on main, which has no ListEntryEdit to apply or check.
import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import type { ListEntryEdit } from '../src/model/edit.js';
import { check, run } from '../src/run.js';

const entry = {
  kustomize: { patches: [{ target: { kind: 'Deployment' }, patch: 'a: b\nc: d\n' }] },
};

vi.mock('../src/rules/transform.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/rules/transform.js')>();
  return {
    ...actual,
    transform: (...args: Parameters<typeof actual.transform>) => {
      const out = actual.transform(...args);
      const appends: ListEntryEdit[] = args[0]
        .filter((r) => r.kind === 'HelmRelease')
        .map((r) => ({ item: r.index, path: ['spec'], key: 'postRenderers', entry }));
      return { ...out, edits: [...out.edits, ...appends] };
    },
  };
});

const release = (name: string, spec: string) =>
  `---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n${spec}`;

describe('a run that appends list entries', () => {
  it('writes them, counts them apart from annotations, and check asks for them', () => {
    const text = `${release('a', '  interval: 5m\n')}${release('b', '  postRenderers:\n  - kustomize: {}\n')}`;
    const out = run(text, { verbose: true });
    expect(out.exitCode).toBe(0);
    const docs = out.stdout
      .split(/^---\n/m)
      .filter((d) => d !== '')
      .map((d) => load(d) as { spec: { postRenderers: unknown[] } });
    expect(docs.map((d) => d.spec.postRenderers)).toEqual([[entry], [{ kustomize: {} }, entry]]);
    expect(out.stderr).toMatch(
      /^secret-rollout: 2 items, 0 annotations set, 2 list entries appended, 0 results in \d+ ms\n$/,
    );
    const gate = check(text);
    expect(gate.exitCode).toBe(1);
    expect(gate.stderr).toContain('spec.postRenderers is not set; render the manifests');
  });

  it('a refused append leaves every item as it came, with one error', () => {
    const text = `${release('a', '  interval: 5m\n')}${release('b', '  postRenderers: {}\n')}`;
    const out = run(text);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^error: item 1 \(HelmRelease b\): could not append the entry to spec\.postRenderers .* at line 16, column 3 \(edit-refused\)\n$/,
    );
  });

  it('names a refused edit of a List entry, and of an item after it, by their places', () => {
    // A List item of a ResourceList (a kpt package's List file) is read as its entries.
    const refused = (name: string) => release(name, '  postRenderers: {}\n').replace('---\n', '');
    const entries = [release('a', '  interval: 5m\n').replace('---\n', ''), refused('b')]
      .map((item) => `  - ${item.trimEnd().replaceAll('\n', '\n    ')}\n`)
      .join('');
    const after = refused('c').trimEnd().replaceAll('\n', '\n  ');
    const text = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n${entries}- ${after}\n`;
    const messages = ((load(run(text).stdout) as { results: { message: string }[] }).results ?? [])
      .map((r) => r.message)
      .filter((m) => m.includes('could not append'));
    expect(messages).toEqual([
      expect.stringMatching(/^item 0 item 1 \(HelmRelease b\): /),
      expect.stringMatching(/^item 1 \(HelmRelease c\): /),
    ]);
  });
});
