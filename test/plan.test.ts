// `secret-rollout plan`: the wave plan as a table and as Mermaid, from the same plan the edits use.
import { describe, expect, it } from 'vitest';
import { plan, run } from '../src/run.js';
import { deployment, envFrom, externalSecret, resourceList } from './helpers.js';

const store =
  'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\nspec: {}\n';
const input = resourceList([
  deployment('app', envFrom('db'), { namespace: 'shop', wave: '-3' }),
  externalSecret('db', { namespace: 'shop' }),
  store,
]);

describe('plan', () => {
  it('lists stores, sources and consumers by wave, with the values run writes', () => {
    const out = plan(input);
    expect(out.exitCode).toBe(0);
    const checksum = /checksum\/external-secrets: "([0-9a-f]{12})/.exec(run(input).stdout)?.[1];
    expect(out.stdout.split('\n')).toEqual([
      'WAVE  KIND                NAME      DETAIL',
      '-5    ClusterSecretStore  vault     before shop/db',
      '-4    ExternalSecret      shop/db   writes Secret shop/db',
      `-3    Deployment          shop/app  checksum/external-secrets=${checksum}…`,
      '',
    ]);
  });

  it('draws a Mermaid flowchart store → source → Secret → consumer', () => {
    const { stdout } = plan(input, { mermaid: true });
    expect(stdout).toMatch(/^flowchart LR\n/);
    expect(stdout).toContain('["ClusterSecretStore vault<br/>wave -5"]');
    const ids = Object.fromEntries(
      [...stdout.matchAll(/ {2}(n\d+)\[?\(?\[?"([A-Za-z]+) /g)].map((m) => [m[2], m[1]]),
    );
    expect(stdout).toContain(`${ids.ClusterSecretStore} --> ${ids.ExternalSecret}`);
    expect(stdout).toContain(`${ids.ExternalSecret} --> ${ids.Secret}`);
    expect(stdout).toContain(`${ids.Secret} --> ${ids.Deployment}`);
  });

  it('reports errors instead of a plan', () => {
    const out = plan(resourceList([externalSecret('db', { wave: 'x' })]));
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^error: .*"x" is not a 64-bit integer/);
  });
});
