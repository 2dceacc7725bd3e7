// A HelmRelease from an untrusted pull request (docs/helm-release.md): our post-renderer entry
// copied or edited by hand, values built to make substitution or the lints slow or the output
// huge, option entries that would lose text. Each finding's cases failed on the first version of
// the HelmRelease consumer; the cases at a bound (a 64-key path, a 4,000-character one, identical
// option entries) pass on both and keep the bound from cutting real input.
import { dump } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { readConfig } from '../src/model/config.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import { postRendererEntry } from '../src/rules/workloads/helm-release.js';
import { substitute } from '../src/rules/workloads/helm-values.js';
import { run } from '../src/run.js';
import { externalSecret, find, itemsOf, resourceList, resultsOf } from './helpers.js';

type Obj = Record<string, unknown>;

const es = externalSecret('web-secret', { namespace: 'shop' });

const helmRelease = (spec: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
  namespace: shop
spec:
  interval: 1h
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    envFrom:
      - secretRef:
          name: web-secret
${spec.replace(/^/gm, '  ')}
`;

/** A HelmRelease whose spec.postRenderers holds these entries. */
const withEntries = (entries: unknown[]) =>
  resourceList([es, helmRelease(dump({ postRenderers: entries }, { lineWidth: -1 }))]);

const ours = () => postRendererEntry(new Map([['checksum/external-secrets', 'stale']]));

/** The error results' field paths and messages. */
const errors = (stdout: string) =>
  resultsOf(stdout)
    .filter((r) => r.severity === 'error')
    .map((r) => [(r.field as Obj | undefined)?.path, r.message]);

describe('our post-renderer entry, copied or edited by hand', () => {
  it('a second copy is an error: helm-controller applies both, and the later one stays stale', () => {
    // Post-renderers apply in order (docs/operators.md): a copy after the entry we update would
    // set its stale checksum last, and the pods would never roll.
    const out = run(withEntries([ours(), ours()]));
    expect(out.exitCode).toBe(1);
    expect(errors(out.stdout)).toEqual([
      ['spec.postRenderers[1]', expect.stringContaining('a second copy of secret-rollout')],
    ]);
  });

  const edits: Record<string, (entry: ReturnType<typeof ours>) => unknown> = {
    'a target narrowed to one name': (entry) => {
      (entry.kustomize.patches[0]?.target as Obj).name = 'only-this';
      return entry;
    },
    'a target in another group': (entry) => {
      (entry.kustomize.patches[0]?.target as Obj).group = 'extensions';
      return entry;
    },
    'an extra kustomize field': (entry) => ({
      kustomize: { ...entry.kustomize, images: [{ name: 'web', newTag: 'x' }] },
    }),
    'a patch without its text': (entry) => {
      delete (entry.kustomize.patches[1] as Partial<(typeof entry.kustomize.patches)[1]>)?.patch;
      return entry;
    },
    'a patch whose text is no string': (entry) => {
      (entry.kustomize.patches[2] as Obj).patch = 5;
      return entry;
    },
  };
  it.each(Object.keys(edits))('%s is an error naming the entry', (edit) => {
    const out = run(withEntries([edits[edit]?.(ours())]));
    expect(out.exitCode).toBe(1);
    expect(errors(out.stdout)).toEqual([
      ['spec.postRenderers[0]', expect.stringContaining("secret-rollout's entry, changed by hand")],
    ]);
  });
});

describe('substituting the built-ins into a hostile value', () => {
  const builtIns = new Map([['.Release.Name', 'web']]);
  // Values of each shape that a regular expression beginning with a whitespace run read in time
  // quadratic in the run (a 100 KB value took 9 s), `n` the size of the repeated part.
  const shapes: Record<string, (n: number) => string> = {
    'a run of spaces before a {{ that is no action': (n) => `${' '.repeat(n)}{{x`,
    'a run of spaces before an action': (n) => `${' '.repeat(n)}{{ .Release.Name }}`,
    'a run of spaces inside an action': (n) => `{{ ${' '.repeat(n)}x }}`,
    'a run of spaces a right trim skips': (n) => `{{ .Release.Name -}}${' '.repeat(n)}x`,
    'many actions': (n) => '{{- .Release.Name -}} '.repeat(n / 20),
    'many opens and no close': (n) => '{{ '.repeat(n / 3),
  };
  // The meter adds up the characters looked at: each at most a few times, at 1× and 8× the size.
  it.each(Object.keys(shapes))('%s: at most a few looks at each character', (shape) => {
    const make = shapes[shape] as (n: number) => string;
    for (const n of [1_000, 8_000]) {
      const text = make(n);
      const meter = { visited: 0 };
      substitute(text, builtIns, meter);
      expect(meter.visited).toBeGreaterThanOrEqual(text.length);
      expect(meter.visited, `${shape} at ${text.length} characters`).toBeLessThanOrEqual(
        4 * text.length,
      );
    }
  });

  it('gives what Go templates render, or nothing', () => {
    expect(substitute('  {{- .Release.Name -}}  -x', builtIns)?.name).toBe('web-x');
    expect(substitute('a {{ .Release.Name }} b', builtIns)?.name).toBe('a web b');
    expect(substitute('{{$.Release.Name}}{{ .Release.Name }}', builtIns)?.name).toBe('webweb');
    // Go's trim markers and what they trim are ASCII white space only (text/template doc.go):
    // a no-break space or a line separator stays in the name, and is no trim marker.
    expect(substitute('\u00a0{{- .Release.Name }}-x', builtIns)?.name).toBe('\u00a0web-x');
    expect(substitute('{{ .Release.Name -}}\u2028x', builtIns)?.name).toBe('web\u2028x');
    expect(substitute('{{-\u00a0.Release.Name }}', builtIns)).toBeUndefined();
    expect(substitute('{{\u00a0.Release.Name }}', builtIns)).toBeUndefined();
    for (const text of ['{{ {{ .Release.Name }}', '{{ .Release.Name }}}}', '{{- -}}', '{{ }}']) {
      expect(substitute(text, builtIns), text).toBeUndefined();
    }
  });
});

describe('helmReleaseChecksumPath entries that would lose text', () => {
  const typed = { apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'SecretRollout' };
  const cm = { apiVersion: 'v1', kind: 'ConfigMap' };
  const forms = (entries: string[]) => [
    () => readConfig({ ...typed, helmReleaseChecksumPath: entries }, ruleCatalog),
    () => readConfig({ ...cm, data: { helmReleaseChecksumPath: entries.join(',') } }, ruleCatalog),
  ];
  it('a second = is an error, not a path cut short', () => {
    for (const form of forms(['app-template=defaultPodOptions.annotations=x'])) {
      expect(form).toThrow('helmReleaseChecksumPath: entry 1 is not chart=path.in.values');
    }
  });
  it('a path too deep for the next run to read is an error; one at the bound runs twice', () => {
    // 600 keys: the first run wrote mappings nested past the reader's 500 levels, and the second
    // run refused its own output.
    const keys = (n: number) => Array.from({ length: n }, () => 'a').join('.');
    for (const form of forms([`app-template=${keys(65)}`])) {
      expect(form).toThrow('helmReleaseChecksumPath: entry 1 has a path of more than 64 keys');
    }
    const settings = { helmReleaseChecksumPath: `app-template=${keys(64)}` };
    const out = run(resourceList([es, helmRelease('')]), { settings });
    expect(out.exitCode).toBe(0);
    expect(run(out.stdout, { settings }).stdout).toBe(out.stdout);
  });

  it('a chart named twice is an error, not the last entry winning', () => {
    for (const form of forms(['app-template=a.annotations', 'app-template=b.annotations'])) {
      expect(form).toThrow('helmReleaseChecksumPath: entry 2 names the chart of an earlier entry');
    }
    for (const form of forms(['app-template=a.annotations', 'app-template=a.annotations'])) {
      expect(form().helmReleaseChecksumPath).toEqual([
        { chart: 'app-template', path: ['a', 'annotations'] },
      ]);
    }
  });
});

describe('a values path named like a property every JavaScript object has', () => {
  // Read as a path into spec.values, `toString` found Object.prototype's function: an error
  // ("spec.values.toString is a function") for a key the values simply do not have.
  it.each(['toString', 'constructor', '__proto__.annotations', 'valueOf.annotations'])(
    '%s: created in the values like any missing key',
    (path) => {
      const settings = { helmReleaseChecksumPath: `app-template=${path}` };
      const out = run(resourceList([es, helmRelease('')]), { settings });
      expect(errors(out.stdout)).toEqual([]);
      const hr = find(itemsOf(out.stdout), 'HelmRelease', 'web') as { spec: { values: Obj } };
      const annotations = path
        .split('.')
        .reduce<unknown>((node, key) => (node as Obj)[key], hr.spec.values) as Obj;
      expect(Object.hasOwn(annotations, 'checksum/external-secrets')).toBe(true);
      expect(run(out.stdout, { settings }).stdout).toBe(out.stdout);
    },
  );
});

/** A consuming release whose values hold `body` under one key of the input's making. */
const longKeyRelease = (key: string, body: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
  namespace: shop
  annotations:
    secret-rollout/consumes: web-secret
spec:
  interval: 1h
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    ? ${key}
    :
${body}`;

/** `n` mappings under that key, each with these annotations. */
const places = (n: number, annotations: string) =>
  Array.from({ length: n }, (_, i) => `      a${i}: {annotations: {${annotations}}}\n`).join('');

describe('Reloader annotations at many places of long values paths', () => {
  // The double-restart lint told its finds apart by their field path, a Map key hashed whole:
  // 10,000 places under a 100 KB key (700 KB of input) ran for more than ten minutes. Counted
  // here: the characters of the string keys every Map of the run hashes, against the input's size
  // (under a key of 4,000 characters: a path past 4,096 is an error, below).
  it('hashes a bounded number of characters per character of input', () => {
    const body = places(1_000, 'reloader.stakater.com/auto: "true"');
    const text = resourceList([es, longKeyRelease('k'.repeat(4_000), body)]);
    let hashed = 0;
    const original = Map.prototype.set;
    const set = vi.spyOn(Map.prototype, 'set').mockImplementation(function (
      this: Map<unknown, unknown>,
      key: unknown,
      value: unknown,
    ) {
      if (typeof key === 'string') hashed += key.length;
      return original.call(this, key, value);
    });
    let out: ReturnType<typeof run>;
    try {
      out = run(text);
    } finally {
      set.mockRestore();
    }
    expect(resultsOf(out.stdout).map((r) => (r.tags as Obj)?.rule)).toContain('double-restart');
    // 0.2 characters per input character with the fix, 54 without.
    expect(hashed).toBeLessThanOrEqual(4 * text.length);
  });
});

describe('a checksum path through a value that is no mapping', () => {
  // The edit refused to write there ("could not insert the annotation without changing anything
  // else"), naming neither the field nor what was wrong with it.
  it.each([
    ['a string', '"flat"', 'spec.values.defaultPodOptions is a string, not a mapping'],
    ['a list', '[1, 2]', 'spec.values.defaultPodOptions is a list, not a mapping'],
  ])('%s is an error naming the field', (_, value, message) => {
    const settings = { helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations' };
    const out = run(resourceList([es, helmRelease(`  defaultPodOptions: ${value}`)]), { settings });
    expect(out.exitCode).toBe(1);
    expect(errors(out.stdout)).toEqual([
      ['spec.values.defaultPodOptions', expect.stringContaining(message)],
    ]);
  });
});

describe('values paths longer than a result can name', () => {
  // Each result names its values path: 1,000 invalid Reloader lists under one 100 KB key (181 KB
  // of input) wrote 100 MB of warnings, a size of places × key length. Counted: output bytes.
  it.each([
    ['Reloader lists', places(300, `secret.reloader.stakater.com/reload: "(,web-secret"`)],
    ['Reloader switches', places(300, 'reloader.stakater.com/auto: "true"')],
    ['reads', '      a: {envFrom: [{secretRef: {name: web-secret}}]}\n'],
  ])('%s under a key of 20,000 characters: an error naming spec.values', (_, body) => {
    const text = resourceList([es, longKeyRelease('k'.repeat(20_000), body)]);
    const out = run(text);
    expect(out.exitCode).toBe(1);
    expect(errors(out.stdout)).toEqual([
      ['spec.values', expect.stringContaining('at a path longer than 4096 characters')],
    ]);
    expect(out.stdout.length + out.stderr.length).toBeLessThanOrEqual(2 * text.length);
  });
  it('a path of 4,000 characters is read and named', () => {
    const text = resourceList([
      es,
      longKeyRelease('k'.repeat(4_000), '      a: {envFrom: [{secretRef: {name: web-secret}}]}\n'),
    ]);
    const out = run(text);
    expect(out.exitCode).toBe(0);
    const paths = resultsOf(out.stdout)
      .filter((r) => (r.tags as Obj)?.rule === 'helm-release-reads')
      .map((r) => (r.field as Obj).path);
    expect(paths).toContain(`spec.values.${'k'.repeat(4_000)}.a.envFrom[0].secretRef.name`);
  });
});

describe('a HelmRelease too large to prove its edit', () => {
  // Values of one flow mapping of 100,000 keys (1.09 MB): 800k tokens for the conforming reader.
  const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}: v`).join(', ');
  const release = helmRelease('').replace('  values:\n', `  values:\n    big: {${keys}}\n`);

  it('is proven by the quick reader, which read it (fails on main: refused)', () => {
    const out = run(resourceList([es, release]));
    expect(out.exitCode).toBe(0);
    expect(itemsOf(out.stdout)[1]).toHaveProperty(['spec', 'postRenderers', 0, 'kustomize']);
  });

  it('is refused naming the token bound, not a list a YAML alias shares (CRLF)', () => {
    // With CRLF line breaks read at first (as LF: read.ts quickRead), but the edited text is
    // re-read by the conforming reader for the proof, past its 500,000 tokens.
    const out = run(resourceList([es, release]).replaceAll('\n', '\r\n'));
    expect(out.exitCode).toBe(1);
    expect(errors(out.stdout)).toEqual([
      [
        undefined,
        'item 1 (HelmRelease web): could not prove the edit changes nothing else: the edited item is too large to read again (more than 500,000 YAML tokens for the conforming reader, docs/limits.md)',
      ],
    ]);
  });
});
