// What an edit, the line locator and the quick reader allocate, counted in bytes by V8's sampling
// heap profiler (never timed): on 10k items the garbage collector's time is the cost of what is
// allocated, so a copy per item, or an object per line passed over, shows as CPU.
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import {
  externalSecret as adversarialSecret,
  helmRelease,
  readsS,
  // @ts-expect-error: a plain .mjs script without types
} from '../bench/adversarial/_fill.mjs';
import { applyEdits } from '../src/krm/apply-edits.js';
import { resultsYaml } from '../src/krm/results-yaml.js';
import { locateByLines, peekScalar } from '../src/krm/yaml/locate-lines.js';
import { isPlainLayout } from '../src/krm/yaml/plain-layout.js';
import { quickParse, ScalarCache } from '../src/krm/yaml/quick-parse.js';
import { sequenceItems, topLevelEntries } from '../src/krm/yaml/spans.js';
import { editText } from '../src/krm/yaml/splice.js';
import { annotationEdit } from '../src/model/edit.js';
import type { Result } from '../src/model/results.js';
import { type Analysis, analyse } from '../src/run.js';
import { deployment as consumer, externalSecret, resourceList } from './helpers.js';

interface ProfileNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: ProfileNode[];
}

/** V8's sampled allocations while `work` ran, as a tree of frames. */
async function allocationProfile(work: () => void): Promise<ProfileNode> {
  const session = new Session();
  session.connect();
  try {
    // Every 256 bytes on average, and what a collection freed still counted.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    work();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
      profile: { head: ProfileNode };
    };
    return profile.head;
  } finally {
    session.disconnect();
  }
}

/** The bytes allocated while `work` ran in frames under a function named `name` (or any of them), sampled. */
async function allocatedUnder(name: string | readonly string[], work: () => void): Promise<number> {
  const names = typeof name === 'string' ? [name] : name;
  const sum = (node: ProfileNode, inside: boolean): number => {
    const under = inside || names.includes(node.callFrame.functionName);
    let bytes = under ? node.selfSize : 0;
    for (const child of node.children) bytes += sum(child, under);
    return bytes;
  };
  return sum(await allocationProfile(work), false);
}

/**
 * The bytes allocated while `work` ran by the frames at the end of `path` (function names, each
 * called by the one before; '' an anonymous function) themselves, not by what they call.
 */
async function allocatedIn(path: readonly string[], work: () => void): Promise<number> {
  const sum = (node: ProfileNode, depth: number): number => {
    const matched = node.callFrame.functionName === path[depth] ? depth + 1 : 0;
    let bytes = matched === path.length ? node.selfSize : 0;
    for (const child of node.children) {
      bytes += sum(child, matched === path.length ? 0 : matched);
    }
    return bytes;
  };
  return sum(await allocationProfile(work), 0);
}

/** A plain-layout Deployment of `containers` containers, as a ResourceList's entry. */
function deployment(containers: number): string {
  const lines = [
    '- apiVersion: apps/v1',
    '  kind: Deployment',
    '  metadata:',
    '    name: web # a comment',
  ];
  lines.push('  spec:', '    template:', '      spec:', '        containers:');
  for (let i = 0; i < containers; i++) {
    lines.push(`        - name: c${i}`, `          image: "registry.example.com/c${i}:v1"`);
  }
  // A comment (name's line) and a flow mapping at the end: the `{` of no JSON document.
  lines.push('        securityContext: {}');
  return `${lines.join('\n')}\n`;
}

const runs = 40;

describe('an edit of a plain-layout item', () => {
  it('allocates its splice, not a copy of the item', async () => {
    // ≈50 KB of text: a copy per edit would be 2 MB over the runs.
    const item = deployment(1_000);
    const edit = annotationEdit(0, ['spec', 'template', 'metadata'], 'checksum/x', 'abc');
    const noProof = () => {
      throw new Error('a plain-layout edit needs no proof');
    };
    // Once before counting: what the first call compiles and caches is no cost per edit.
    let splices = editText(item, true, [edit], noProof, '\n');
    const bytes = await allocatedUnder('editText', () => {
      for (let i = 0; i < runs; i++) splices = editText(item, true, [edit], noProof, '\n');
    });
    expect(splices).toEqual([
      expect.objectContaining({
        text: '      metadata:\n        annotations:\n          checksum/x: "abc"\n',
      }),
    ]);
    // Main made the edited item's text (applySplices) for every edit, proven or not, and copied
    // all that stands before its first `{` to see whether it is a JSON document: ≥ 2 MB each.
    expect(bytes).toBeLessThan((item.length * runs) / 10);
  });
  it('allocates a few small objects and the text it inserts, per edit', async () => {
    const item = deployment(1);
    const edit = annotationEdit(0, ['spec', 'template', 'metadata'], 'checksum/x', 'abc');
    const edits = 2_000;
    let splices = editText(item, true, [edit], () => null, '\n');
    const bytes = await allocatedUnder('editText', () => {
      for (let i = 0; i < edits; i++) splices = editText(item, true, [edit], () => null, '\n');
    });
    expect(splices).toHaveLength(1);
    // ≈550 bytes; main ≈760 (a job object and a pair of site and splice per edit, the site's
    // reach in a property store of its own), ≈1.65 KB in session 9 (a string per line inserted,
    // a copy of the quoted value, a new regular expression per plain-key test and per layout
    // check), ≈4.3 KB before that.
    expect(bytes / edits).toBeLessThan(650);
  });
});

describe('applyEdits', () => {
  it('allocates nothing of its own per item edited outside the document proof', async () => {
    // 2,000 Deployments, each given a checksum: one edit each, trusted (plain layout).
    const items = 2_000;
    const text = resourceList([
      externalSecret('db'),
      ...Array.from({ length: items }, (_, c) =>
        consumer(`d${c}`, 'env:\n- name: A\n  valueFrom:\n    secretKeyRef: {name: db, key: k}'),
      ),
    ]);
    const { input, resources, results, planned, aliased, projected } = analyse(
      text,
      {},
    ) as Analysis;
    // And the source's sync wave.
    expect(planned.edits).toHaveLength(items + 1);
    let edited = applyEdits(input, resources, planned.edits, [...results], aliased, projected);
    setFlagsFromString('--no-turbo-inlining');
    try {
      // What applyEdits' callback per item allocates itself (its callees' are counted above).
      const bytes = await allocatedIn(['applyEdits', 'forEach', ''], () => {
        edited = applyEdits(input, resources, planned.edits, [...results], aliased, projected);
      });
      expect(edited.size).toBe(items + 1);
      // ≈40 bytes per item; main ≈135: and a closure with its context, for the proof's value.
      expect(bytes / items).toBeLessThan(80);
    } finally {
      setFlagsFromString('--turbo-inlining');
    }
  });
});

describe('an appended entry', () => {
  // bench/adversarial helm-releases: a post-renderer entry (four patches, ≈2 KB of text)
  // appended to each release, proven by a re-read of the release.
  const items = 200;
  const releases = Array.from({ length: items }, (_, i) => helmRelease(i, readsS)).join('');
  const analysis = () => analyse(`${adversarialSecret('s')}${releases}`, {}) as Analysis;
  /** The bytes allocated under `names` by an applyEdits of the releases, and what it gave. */
  const applied = async (names: readonly string[]) => {
    // Once before counting (what the first call compiles), on values of their own: main's
    // expected value was the release's own, with the entry appended to it for good.
    const warm = analysis();
    applyEdits(warm.input, warm.resources, warm.planned.edits, [], warm.aliased, warm.projected);
    const { input, resources, results, planned, aliased, projected } = analysis();
    let edited = new Map();
    const bytes = await allocatedUnder(names, () => {
      edited = applyEdits(input, resources, planned.edits, [...results], aliased, projected);
    });
    expect(edited.size).toBe(items + 1);
    return bytes / items;
  };

  it('is proven by a comparison that allocates little', async () => {
    // Main's isDeepStrictEqual: ≈9.9 KB a release (a list of each object's keys, sets of them);
    // now ≈1.4 KB (≈2.5 KB while each re-read had shapes of its own: V8's key lists for for-in,
    // made once per shape).
    expect(await applied(['isDeepStrictEqual', 'sameValue'])).toBeLessThan(5000);
  });

  it('is proven by a re-read that shares the strings and mapping shapes of the others', async () => {
    // ≈5 KB a release (the re-read's lists, mappings and block scalars' text); main ≈14 KB: a
    // trie of shapes of its own per re-read, each mapping's constructor and V8's maps for it,
    // which outlived the young generation, and a string per scalar.
    expect(await applied(['reparseItem'])).toBeLessThan(9000);
  });

  it('is written as pieces joined once, not a string per line, entry and mapping', async () => {
    // ≈8 KB for ≈2 KB of text (the joined text, each patch line's slice, the key lists); main
    // ≈28 KB: template strings per line and mapping, joined lists of them, each patch's text
    // split into lines, four new regular expressions a patch, sort()'s working storage.
    expect(await applied(['spliceAt'])).toBeLessThan(14_000);
  });
});

describe('the layout check', () => {
  it('allocates nothing per item it checks', async () => {
    const item = deployment(1);
    const checks = 2_000;
    let plain = isPlainLayout(item);
    const bytes = await allocatedUnder('isPlainLayout', () => {
      for (let i = 0; i < checks; i++) plain = isPlainLayout(item);
    });
    expect(plain).toBe(true);
    // Main made its regular expression anew per call (a literal is a new object each time it is
    // evaluated): ≈50 bytes per item.
    expect(bytes / checks).toBeLessThan(16);
  });
});

describe('the line locator', () => {
  it('builds nothing per line it passes over', async () => {
    // 20k comment and blank lines before the item's content: an object per line would be ≥ 600
    // KB per read.
    const item = `${'# a comment\n\n'.repeat(10_000)}kind: ConfigMap\nmetadata:\n  name: c\n`;
    let name = peekScalar(item, false, ['metadata'], 'name');
    const bytes = await allocatedUnder('peekScalar', () => {
      for (let i = 0; i < runs; i++) name = peekScalar(item, false, ['metadata'], 'name');
    });
    expect(name).toBe('c');
    expect(bytes).toBeLessThan(100_000);
  });

  it('peeks a top-level key with no mapping of its own', async () => {
    // Two peeks per item read (apiVersion, kind): on main each built its top mapping anew. As on
    // a large input (main.ts), inlining is off: else the optimiser elides that object itself.
    const item = '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n';
    const path: string[] = [];
    const peeks = 20_000;
    let kind = peekScalar(item, true, path, 'kind');
    setFlagsFromString('--no-turbo-inlining');
    try {
      const bytes = await allocatedUnder('peekScalar', () => {
        for (let i = 0; i < peeks; i++) kind = peekScalar(item, true, path, 'kind');
      });
      expect(kind).toBe('ConfigMap');
      // ≈90 bytes (the site and the value's text); main ≈150 (and its top mapping).
      expect(bytes / peeks).toBeLessThan(120);
    } finally {
      setFlagsFromString('--turbo-inlining');
    }
  });

  it('allocates the site it finds and little else, however deep the path', async () => {
    const item = [
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      '    name: web',
      '  spec:',
      '    template:',
      '      metadata:',
      '        labels:',
      '          a: b',
      '      spec:',
      '        containers:',
      '        - name: c',
      '',
    ].join('\n');
    const path = ['spec', 'template', 'metadata', 'annotations'];
    const reads = 5_000;
    let site = locateByLines(item, true, path, 'k');
    const bytes = await allocatedUnder('locateByLines', () => {
      for (let i = 0; i < reads; i++) site = locateByLines(item, true, path, 'k');
    });
    expect(site).toMatchObject({ kind: 'lines', missing: ['annotations'] });
    // The site and its list of missing keys (the top mapping is one object, reused);
    // main ≈420 (a Line per line found, a mapping and a key's line per step).
    expect(bytes / reads).toBeLessThan(250);
  });
});

describe('the quick reader', () => {
  it('allocates a list at its length, not at the capacity pushing grows it to', async () => {
    // 2,000 lists of one element, each in a list of one: the manifests' usual list (a container,
    // a port, an env entry). Pushed to, each takes 17 slots.
    const text = `a:\n${'- - [x]\n'.repeat(2_000)}`;
    let value = quickParse(text, 0, text.length, false);
    const bytes = await allocatedUnder('quickParse', () => {
      value = quickParse(text, 0, text.length, false);
    });
    expect(value).toEqual({ a: Array.from({ length: 2_000 }, () => [['x']]) });
    // Main: ≈490 bytes a line (a list and a mapping for each flow list, 17 slots for each list);
    // here ≈130.
    expect(bytes / 2_000).toBeLessThan(200);
  });
});

describe('the quick reader with a cache', () => {
  it('makes one string per value text, not one per value', async () => {
    // What consumers repeat: a Secret's name and key, plain, quoted and in flow mappings. Every
    // string built lives to the end of the run.
    const entries = 2_000;
    const entry =
      "- name: payments-worker-db\n  key: 'config.yaml'\n" +
      '  ref: {name: payments-worker-db, key: "DATABASE_URL"}\n';
    const text = `a:\n${entry.repeat(entries)}`;
    const cache = new ScalarCache();
    let value = quickParse(text, 0, text.length, false, cache);
    const bytes = await allocatedUnder('quickParse', () => {
      value = quickParse(text, 0, text.length, false, cache);
    });
    const one = { name: 'payments-worker-db', key: 'config.yaml' };
    expect(value).toEqual({
      a: Array(entries).fill({ ...one, ref: { ...one, key: 'DATABASE_URL' } }),
    });
    // ≈150 bytes (the two mappings and the list's slot); main ≈395: a string per value.
    expect(bytes / entries).toBeLessThan(250);
  });
});

describe('the results written', () => {
  it('allocate about their text, not a string per line and a copy per quoted value', async () => {
    const hash = 'ab'.repeat(32);
    const results: Result[] = [];
    for (let i = 0; i < 1_000; i++) {
      results.push({
        message: `checksum of ExternalSecret ns-${i}/api-config-${i}, ExternalSecret ns-${i}/creds`,
        severity: 'info',
        tags: { rule: 'checksum' },
        resourceRef: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `web-${i}`,
          namespace: 'ns',
        },
        field: { path: 'spec.template.metadata.annotations[checksum/x]', proposedValue: hash },
        file: { path: `pkg/res-${i}.yaml` },
      });
    }
    let texts = resultsYaml(results, '\n');
    const bytes = await allocatedUnder('resultsYaml', () => {
      texts = resultsYaml(results, '\n');
    });
    const written = texts.reduce((sum, text) => sum + text.length, 0);
    expect(texts[1]).toContain(
      '  field:\n    path: "spec.template.metadata.annotations[checksum/x]"\n',
    );
    // ≈2.3 bytes per character written (the text and the list its pieces are joined from); main
    // ≈7.7 (a string per line, a copy per quoted value, a new regular expression per plain test).
    expect(bytes / written).toBeLessThan(4);
  });
});

describe('a result written', () => {
  it('tests each plain value once', () => {
    const result: Result = {
      message: 'checksum of ExternalSecret ns/api-config',
      severity: 'info',
      tags: { rule: 'checksum' },
      resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'ns' },
      file: { path: 'pkg/res.yaml' },
    };
    resultsYaml([result], '\n');
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      const text = resultsYaml([result], '\n').join('');
      expect(text).toContain('  resourceRef:\n    apiVersion: apps/v1\n');
      // Seven plain values, a test each and the reserved words' for the three of five
      // characters or fewer, and the message's two (no plain scalar's characters; nothing to
      // escape): 12. Main: 22, each plain value tested again in formatScalar.
      expect(test).toHaveBeenCalledTimes(12);
    } finally {
      test.mockRestore();
    }
  });
});

describe('the split of a list into items', () => {
  it('builds the span of each item and nothing else per item', async () => {
    const count = 20_000;
    const text = `items:\n${'- a: 1\n'.repeat(count)}`;
    const entry = topLevelEntries(text, { start: 0, end: text.length })[0];
    if (entry === undefined) throw new Error('no entry');
    let spans = sequenceItems(text, entry);
    const bytes = await allocatedUnder('sequenceItems', () => {
      spans = sequenceItems(text, entry);
    });
    expect(spans).toHaveLength(count);
    // ≈80 bytes (the span, the list's growth); main ≈155: a regular expression (a literal is a
    // new object per evaluation) and a slice of the line per item, for the marker check.
    expect(bytes / count).toBeLessThan(115);
  });
});
