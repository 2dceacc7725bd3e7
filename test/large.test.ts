// Large valid inputs are handled: a value near the 3 MiB item bound (the most the API server takes
// for one object, README "Limits") inside an item the function parses and hashes.
// (The 50k-item list is the benchmark's: `npm run bench`, checked for correctness there.)
import { describe, expect, it } from 'vitest';
import { maxItemLength } from '../src/krm/items.js';
import { run } from '../src/run.js';
import { deployment, envFrom, externalSecret, insertedLines, resourceList } from './helpers.js';

describe('large inputs', () => {
  it('hashes an ExternalSecret whose template holds a 3 MB value', () => {
    const big = 'x'.repeat(maxItemLength - 4096);
    const es = externalSecret('db').replace(
      '  data:\n',
      `  target:\n    template:\n      data:\n        blob: ${big}\n  data:\n`,
    );
    const input = resourceList([es, deployment('app', envFrom('db'))]);
    const out = run(input);
    expect(out.exitCode).toBe(0);
    const items = out.stdout.slice(0, out.stdout.indexOf('\nresults:') + 1);
    expect(insertedLines(input, items).filter((l) => l !== '')).toEqual([
      '    annotations:',
      '      argocd.argoproj.io/sync-wave: "-1"',
      '        annotations:',
      expect.stringMatching(/^ {10}checksum\/external-secrets: "[0-9a-f]{64}"$/),
    ]);
    // The value decides the content: one byte more moves the checksum.
    const other = run(input.replace(`blob: ${big}`, `blob: ${big}y`)).stdout;
    const sum = (text: string) => /checksum\/external-secrets: "([0-9a-f]{64})"/.exec(text)?.[1];
    expect(sum(other)).not.toBe(sum(out.stdout));
  });
});
