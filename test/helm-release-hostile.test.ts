// A HelmRelease from an untrusted pull request (docs/helm-release.md): our post-renderer entry
// copied or edited by hand, values built to make substitution slow, option entries that would
// lose text. Each case failed on the first version of the HelmRelease consumer.
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { postRendererEntry } from '../src/rules/workloads/helm-release.js';
import { run } from '../src/run.js';
import { externalSecret, resourceList, resultsOf } from './helpers.js';

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
});
