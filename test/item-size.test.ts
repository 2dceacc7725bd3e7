// An item longer than the Kubernetes API server accepts for one object (3 MiB) is not read: no
// cluster could take it, and one such item the quick reader declines costs the conforming reader
// about 100 bytes of memory per byte (issue #20 §1). Counted in characters, not timed.
import { describe, expect, it } from 'vitest';
import { maxItemLength } from '../src/krm/items.js';
import { run } from '../src/run.js';
import { resourceList, resultsOf } from './helpers.js';

/** A ConfigMap of `length` characters or a line more; an anchor keeps it off the quick reader. */
function configMap(name: string, length: number): string {
  const head = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: &l {a: b}\ndata:\n`;
  const lines = [head];
  for (let i = 0, total = head.length; total < length; i++) {
    const line = `  k${i}${'x'.repeat(60)}: v\n`;
    lines.push(line);
    total += line.length;
  }
  return lines.join('');
}

describe('items longer than the API server accepts', () => {
  const large = configMap('large', maxItemLength + 100);
  const small = configMap('small', 100_000);

  it('are an error in a stream, naming the document, and the stream is not written', () => {
    expect(large.length).toBeGreaterThan(maxItemLength);
    const out = run(`${small}---\n${large}`);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'error: document 1: is longer than 3 MiB, more than the Kubernetes API server accepts for one object: not read (invalid-input)\n',
    );
  });

  it('are an error in a ResourceList, which is written back unchanged', () => {
    const text = resourceList([small, large]);
    const out = run(text);
    expect(out.exitCode).toBe(1);
    expect(out.stdout.startsWith(text)).toBe(true);
    expect(resultsOf(out.stdout).map((r) => r.message)).toEqual([
      'item 1: is longer than 3 MiB, more than the Kubernetes API server accepts for one object: not read',
    ]);
  });

  it('up to the bound are read', () => {
    const text = configMap('edge', maxItemLength - 100);
    expect(text.length).toBeLessThanOrEqual(maxItemLength);
    expect(run(text)).toMatchObject({ exitCode: 0, stdout: text });
  });
});
