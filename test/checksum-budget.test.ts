// The checksums' work is bounded by the input's size (checksumBudget, src/rules/checksums.ts): a
// large source read by many pod templates that each read other sources too is refused before
// more than the budget is written as canonical JSON or hashed. The work is counted through the
// hash module, never timed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checksumBudget } from '../src/rules/checksums.js';
import { analyse, run } from '../src/run.js';
import {
  deployment,
  externalSecret,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
  templateAnnotation,
} from './helpers.js';

const work = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('../src/model/hash.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/model/hash.js')>();
  const count = (text: string) => {
    work.bytes += Buffer.byteLength(text);
  };
  return {
    ...actual,
    canonicalJson: (value: Parameters<typeof actual.canonicalJson>[0]) => {
      const text = actual.canonicalJson(value);
      count(text);
      return text;
    },
    sha256Hex: (text: string) => {
      count(text);
      return actual.sha256Hex(text);
    },
    sha256HexOfPieces: (pieces: readonly string[], length = pieces.length) => {
      for (let i = 0; i < length; i++) count(pieces[i] as string);
      return actual.sha256HexOfPieces(pieces, length);
    },
  };
});

/** Bytes written as canonical JSON and hashed while `action` runs. */
function workOf<T>(action: () => T): { result: T; bytes: number } {
  work.bytes = 0;
  const result = action();
  return { result, bytes: work.bytes };
}

/**
 * ExternalSecret `big` whose `copies` data entries all read `text` through one YAML alias: its
 * content is `copies` × `text` long, its input text about one `text`.
 */
function aliasedSource(text: string, copies: number): string {
  const data = Array.from(
    { length: copies - 1 },
    (_, i) => `  - secretKey: k${i + 1}\n    remoteRef: {key: *text}`,
  );
  return `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: big, namespace: shop}
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  data:
  - secretKey: k0
    remoteRef: {key: &text ${text}}
${data.join('\n')}
`;
}

/** `n` Deployments that read `shared` and an ExternalSecret of their own, and those. */
function consumers(n: number, shared: string): string[] {
  return Array.from({ length: n }, (_, i) => [
    externalSecret(`own-${i}`, { namespace: 'shop' }),
    deployment(
      `api-${i}`,
      `envFrom:\n- secretRef:\n    name: ${shared}\n- secretRef:\n    name: own-${i}`,
      { namespace: 'shop' },
    ),
  ]).flat();
}

describe('checksum budget', () => {
  it('refuses a large source hashed once per consumer before passing the budget', () => {
    // 60 sets of ≈1.5 MB: ≈90 MB asked, over the ≈68 MiB this ≈100 KB input may use.
    const input = resourceList([aliasedSource('x'.repeat(15_000), 100), ...consumers(60, 'big')]);
    const budget = checksumBudget(Buffer.byteLength(input));
    const { result: out, bytes } = workOf(() => run(input));
    // main: exit 0, ≈90 MB hashed.
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^the checksums of this input would hash more than 68\.\d MiB \(64 × its size of \d+ KiB, \+ 64 MiB\): its first \d+ checksums ask for at least 6[89]\.\d MiB; /,
      ),
    ]);
    // Numbers only: no name, key or value from the input.
    expect(String(errors[0]?.message)).not.toMatch(/shop|big|own-|api-|vault|\bt\d|\bv\d/);
    expect(bytes).toBeGreaterThan(budget / 2);
    expect(bytes).toBeLessThanOrEqual(budget);
    // Nothing changed.
    expect(out.stdout).not.toContain('checksum/external-secrets');
  });

  it("bounds the work by the input's UTF-8 length, not its characters", () => {
    // ≈115 MB asked by 77 sets of ≈1.5 MB; beside them a ConfigMap of 400k characters, of three
    // bytes each or of one: 64 × 1.3 MB + 64 MiB ≈ 143 MiB, or 64 × 0.5 MB + 64 MiB ≈ 95 MiB.
    // The bytes are counted only once the characters' bound is passed (run.ts: a pass over the
    // whole text saved on every other run).
    const filler = (c: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: filler, namespace: shop}\ndata:\n  text: ${c.repeat(400_000)}\n`;
    const items = [aliasedSource('x'.repeat(15_000), 100), ...consumers(77, 'big')];
    const wide = resourceList([...items, filler('語')]);
    const narrow = resourceList([...items, filler('x')]);
    expect(wide.length).toBe(narrow.length);
    expect(run(wide).exitCode).toBe(0);
    expect(run(narrow).exitCode).toBe(1);
  });

  it('does not measure the bytes of an input whose characters bound the work enough', () => {
    const input = resourceList([
      externalSecret('shared', { namespace: 'shop' }),
      ...consumers(5, 'shared'),
    ]);
    const byteLength = vi.spyOn(Buffer, 'byteLength');
    try {
      runOk(input);
      // main 058521a: once, on the whole text.
      expect(byteLength.mock.calls.filter(([text]) => text === input)).toEqual([]);
    } finally {
      byteLength.mockRestore();
    }
  });

  it('refuses one source whose content alone passes the budget, before writing it', () => {
    // A 1 MB string in 200 data entries: 200 MB of canonical JSON from a 1 MB input.
    const source = aliasedSource('x'.repeat(1_000_000), 200);
    const input = resourceList([
      source,
      deployment('api', 'envFrom:\n- secretRef:\n    name: big', { namespace: 'shop' }),
    ]);
    const { result: out, bytes } = workOf(() => run(input));
    // main: exit 0 after writing and hashing ≈400 MB (the CLI: internal error, Invalid string
    // length, with 600 entries).
    expect(out.exitCode).toBe(1);
    expect(resultsOf(out.stdout).map((r) => r.message)).toContainEqual(
      expect.stringMatching(
        /^the checksums of this input would hash more than 125\.\d MiB \(64 × its size of 98\d KiB, \+ 64 MiB\): its first checksum asks for at least 12[56](\.\d)? MiB; /,
      ),
    );
    expect(bytes).toBe(0);
  });

  it('leaves an input far under the budget as it was: the documented values', () => {
    // A source read by 50 consumers, each also reading its own: 51 sources hashed in 50 sets.
    const input = resourceList([
      externalSecret('shared', { namespace: 'shop' }),
      ...consumers(50, 'shared'),
    ]);
    const { result: out, bytes } = workOf(() => runOk(input));
    expect(bytes).toBeLessThan(8 * Buffer.byteLength(input));
    const items = itemsOf(out.stdout);
    const specs = new Map(
      items
        .filter((i) => i.kind === 'ExternalSecret')
        .map((i) => [(i.metadata as { name: string }).name, i.spec as Record<string, unknown>]),
    );
    const deployments = items.filter((i) => i.kind === 'Deployment');
    expect(deployments).toHaveLength(50);
    deployments.forEach((d, i) => {
      expect(templateAnnotation(d)).toBe(documented(specs, ['shared', `own-${i}`]));
    });
  });

  it('real inputs write and hash a small multiple of their size', () => {
    const ratios = realInputs().map(({ name, text }) => {
      const { result, bytes } = workOf(() => analyse(text, {}, true));
      expect('planned' in result, name).toBe(true);
      return { name, ratio: bytes / Buffer.byteLength(text) };
    });
    // The budget allows 64 per byte; measured at most 0.79 (testdata/reach/secret-provider-class).
    for (const { name, ratio } of ratios) expect(ratio, name).toBeLessThan(2);
  });
});

/** README "Checksum" step 3, for ExternalSecrets whose spec is their content as written. */
function documented(specs: Map<string, Record<string, unknown>>, names: string[]): string {
  const entries = names.map((name) => {
    const { refreshInterval: _, ...content } = specs.get(name) ?? {};
    return sorted({ content, secret: name });
  });
  return createHash('sha256')
    .update(`[${entries.sort().join(',')}]`)
    .digest('hex');
}

function sorted(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sorted).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sorted((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Every examples/ package (its YAML files as one stream, its Kptfile's options) and reach package. */
function realInputs(): { name: string; text: string }[] {
  const examples = path.join(repoRoot, 'examples');
  const packages = readdirSync(examples, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = path.join(examples, d.name);
      const files = readdirSync(dir).filter((f) => f === 'Kptfile' || f.endsWith('.yaml'));
      const text = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n---\n');
      return { name: `examples/${d.name}`, text };
    })
    // A package whose files are all in folders below (examples/flux-in-place) has none here.
    .filter(({ text }) => text !== '');
  const reach = path.join(repoRoot, 'testdata/reach');
  const reached = readdirSync(reach, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      name: `testdata/reach/${d.name}`,
      text: readFileSync(path.join(reach, d.name, 'manifests.yaml'), 'utf8'),
    }));
  return [...packages, ...reached];
}
