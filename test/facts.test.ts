// The references of pod templates as the rules read them from an item read by the read plan (its
// PodSpecs as facts, model/facts.ts) agree, reference by reference, with the tree walk of the
// same item read whole: what each reference names and reads (secretUses, readUses), where it is
// (Places: named, keys; check mode's valueAt there) and the item error of a malformed PodSpec.
// docs/design/facts-reader.md, plan step 0.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate, toResourceList } from '../bench/generate.mjs';
import { readItems } from '../src/krm/items.js';
import { InputError, readInput } from '../src/krm/read.js';
import { type Config, defaultConfig } from '../src/model/config.js';
import { nameIn, TemplateFacts, templateCount, templateOf } from '../src/model/facts.js';
import { isObject, type Json } from '../src/model/json.js';
import type { ReadPlan } from '../src/model/read-contract.js';
import { ItemError, type Resource } from '../src/model/resource.js';
import { resolveOptions } from '../src/options.js';
import type { Lint } from '../src/rules/lints/lint.js';
import { readPlan } from '../src/rules/read-plan.js';
import {
  Places,
  readUses,
  type SecretUse,
  secretUses,
  usesRead,
  valueAt,
} from '../src/rules/workloads/references.js';
import { podTemplatesOf } from '../src/rules/workloads/shapes.js';
import {
  deployment,
  envFrom,
  examplePackage,
  repoRoot,
  resourceList,
  secretKeyRef,
} from './helpers.js';

/** The plan with every item read whole: the tree each reference is walked in. */
const whole = (plan: ReadPlan): ReadPlan => ({
  ...plan,
  passesThrough: () => undefined,
  projection: () => true,
});

/** The facts of a resource's pod templates, in a list. */
const templatesOf = (resource: Resource): TemplateFacts[] => {
  const { facts } = resource;
  if (facts === undefined) return [];
  return Array.from({ length: templateCount(facts) }, (_, t) => templateOf(facts, t));
};

/** What a thrown item error says, or rethrown. */
function said(error: unknown): string {
  if (!(error instanceof ItemError)) throw error;
  return `${error.message} @ ${error.field}`;
}

const printUse = (use: SecretUse) => ({
  kind: use.kind,
  name: use.secretName,
  keys: use.keys === 'all' ? 'all' : [...use.keys],
  optIn: use.optIn,
  named: use.named && JSON.stringify(use.named),
  at: use.at && JSON.stringify(use.at),
});

/**
 * Every reference of a resource's pod templates as each reader of them says it: secretUses with
 * places, readUses' records, and Places asked as a lint asks (a fresh one per reference: its
 * first walk; one for all: its later ones).
 */
function referencesOf(resource: Resource, config: Config) {
  return podTemplatesOf(resource, config.podTemplates).map(({ shape, podSpec }) => {
    const at = shape.podSpec;
    let uses: SecretUse[];
    try {
      uses = secretUses(podSpec, at, true);
    } catch (error) {
      let again: string | undefined;
      try {
        readUses(podSpec, at);
      } catch (e) {
        again = said(e);
      }
      return { at: at.join('.'), error: said(error), again };
    }
    const read = usesRead.slice(0, readUses(podSpec, at)).map(printUse);
    const first = uses.map((_, use) => {
      const places = new Places();
      return [places.named(resource, at, use), places.keys(resource, at, use)];
    });
    const places = new Places();
    const later = uses.map((_, use) => [
      places.named(resource, at, use),
      places.keys(resource, at, use),
    ]);
    // What check mode reads at a rename edit's place: the name there.
    const current = uses.map((use) => use.named && valueAt(resource, use.named));
    return {
      at: at.join('.'),
      uses: uses.map(printUse),
      read,
      first: JSON.stringify(first),
      later: JSON.stringify(later),
      current,
    };
  });
}

/** What was compared: items, those read as facts, references. */
type Compared = { resources: number; facts: number; references: number };
const none: Compared = { resources: 0, facts: 0, references: 0 };

/** An input read by the plan and whole, or undefined if it cannot be read at all. */
function bothReads(text: string, settings: Record<string, string> = {}) {
  let input: ReturnType<typeof readInput>;
  let config: Config;
  try {
    input = readInput(text);
    config = resolveOptions(input, { settings }, false).config ?? defaultConfig;
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
  const plan = readPlan(config);
  const planned = readItems(input, plan).resources;
  const trees = new Map(readItems(input, whole(plan)).resources.map((r) => [r.index, r]));
  return { config, planned, trees };
}

/** The items whose references the two reads say differently, and what was compared. */
function compare({ config, planned, trees }: NonNullable<ReturnType<typeof bothReads>>) {
  const compared = { ...none };
  const differing: { index: number; planned: unknown; tree: unknown }[] = [];
  for (const resource of planned) {
    const tree = trees.get(resource.index);
    if (!tree) continue;
    const found = referencesOf(resource, config);
    const walked = referencesOf(tree, config);
    if (!isDeepStrictEqual(found, walked)) {
      differing.push({ index: resource.index, planned: found, tree: walked });
    }
    compared.resources++;
    if (resource.facts) compared.facts++;
    for (const template of found) compared.references += template.uses?.length ?? 0;
  }
  return { compared, differing };
}

/** Compares every item both reads built; the counts of what was compared. */
function agree(text: string, settings: Record<string, string> = {}): Compared {
  const reads = bothReads(text, settings);
  if (!reads) return none;
  const { compared, differing } = compare(reads);
  expect(differing.slice(0, 1)).toEqual([]);
  return compared;
}

const add = (a: Compared, b: Compared): Compared => ({
  resources: a.resources + b.resources,
  facts: a.facts + b.facts,
  references: a.references + b.references,
});

/** Every .yaml file under `dir`. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return yamlFiles(file);
    return name.endsWith('.yaml') || name.endsWith('.yml') ? [file] : [];
  });
}

describe('pod template references read by the plan agree with the tree walk', () => {
  it('on every testdata file', () => {
    let total = none;
    for (const file of yamlFiles(path.join(repoRoot, 'testdata'))) {
      total = add(total, agree(readFileSync(file, 'utf8')));
    }
    expect(total.references).toBeGreaterThan(50);
    expect(total.facts).toBeGreaterThan(20);
  });

  it('on every example package', () => {
    const examples = path.join(repoRoot, 'examples');
    let total = none;
    for (const name of readdirSync(examples)) {
      const dir = path.join(examples, name);
      if (!statSync(dir).isDirectory()) continue;
      const { text, settings } = examplePackage(dir);
      total = add(total, agree(text, settings));
    }
    expect(total.references).toBeGreaterThan(100);
    expect(total.facts).toBeGreaterThan(50);
  });

  it.each(['mixed', 'dense', 'fan-out', 'fan-in'])('on the %s bench shape at 1k', (shape) => {
    const { items } = generate(1000, 1, shape);
    const { references, facts } = agree(toResourceList(items));
    expect(references).toBeGreaterThan(500);
    expect(facts).toBeGreaterThan(200);
  });

  it('fails on a position read wrong', () => {
    // Mixed: many references in several containers and volumes, where a reader that kept no
    // positions named the PodSpec instead (the study's throwaway: 941 results at 10k).
    const { items } = generate(1000, 1, 'mixed');
    const reads = bothReads(toResourceList(items));
    if (!reads) throw new Error('unread');
    expect(compare(reads).differing).toEqual([]);
    const withTwo = reads.planned.filter((r) =>
      templatesOf(r).some(({ columns, start, end }) =>
        Array.from({ length: end - start }, (_, i) => columns.second[start + i]).some(
          (p) => p !== undefined && p > 0,
        ),
      ),
    );
    const [first, second] = withTwo;
    if (!first || !second) throw new Error('no facts with two positions');
    const turn = (resource: Resource, column: 'first' | 'second') => {
      const { columns, start, end } = templatesOf(resource)[0] as TemplateFacts;
      for (let i = start; i < end; i++) {
        if ((columns.second[i] as number) > 0) {
          columns[column][i] = (columns[column][i] as number) + 1;
          return;
        }
      }
    };
    turn(first, 'first');
    turn(second, 'second');
    expect(compare(reads).differing.map((d) => d.index)).toEqual([first.index, second.index]);
  });

  it('on malformed PodSpecs: the same item error, from the same field', () => {
    const bad = [
      'containers:\n- name: a\n  env: {}',
      'containers:\n- name: a\n  env:\n  - name: X\n    valueFrom:\n      secretKeyRef:\n        name: 1',
      'containers:\n- name: a\nvolumes:\n- name: v\n  secret:\n    secretName: s\n    items: {}',
      'containers:\n- name: a\nvolumes: 3',
      'containers: x\nvolumes:\n- csi: 7',
      'containers:\n- name: a\n  envFrom:\n  - secretRef: []',
    ];
    const items = bad.map(
      (spec, i) =>
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d${i}\nspec:\n  template:\n    spec:\n${spec.replace(/^/gm, '      ')}\n`,
    );
    items.push(deployment('ok', secretKeyRef('s', 'k')));
    const text = resourceList(items);
    agree(text);
    // Each malformed item keeps its tree, whose walk finds its error, as the whole read's does.
    const input = readInput(text);
    const read = readItems(input, readPlan(defaultConfig));
    expect(read.resources.map((r) => r.facts !== undefined)).toEqual([
      ...bad.map(() => false),
      true,
    ]);
    const errors = read.resources.map((r) => {
      const [template] = podTemplatesOf(r, []);
      if (!template) return undefined;
      try {
        secretUses(template.podSpec, template.shape.podSpec);
        return undefined;
      } catch (error) {
        return said(error);
      }
    });
    expect(errors.filter(Boolean)).toHaveLength(bad.length);
  });
});

/** The mappings and lists reachable from `value`, itself not counted. */
function nodesBelow(value: Json | undefined): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.reduce<number>(
    (n, child) => n + (child !== null && typeof child === 'object' ? 1 : 0) + nodesBelow(child),
    0,
  );
}

/** What stands at the PodSpec's place of each Deployment read from `text`. */
function podSpecs(text: string): Json[] {
  return readItems(readInput(text), readPlan(defaultConfig)).resources.map((resource) => {
    const template = isObject(resource.value.spec) ? resource.value.spec.template : undefined;
    if (!isObject(template) || template.spec === undefined) throw new Error('no PodSpec place');
    return template.spec;
  });
}

describe('what reading keeps of a PodSpec', () => {
  // Failed on main (6 nodes below it: containers, a container, env, an entry, valueFrom, the
  // reference; and a PodSpec mapping per item), whose PodSpec trees were kept until the run ended.
  it('keeps no mapping under the PodSpec of a plain Deployment read by the plan', () => {
    const [first, second] = podSpecs(
      resourceList([deployment('a', secretKeyRef('s', 'k')), deployment('b', envFrom('s'))]),
    );
    expect(nodesBelow(first)).toBe(0);
    // Nor one of the item's own where it was: one empty mapping stands in every item's.
    expect(first).toBe(second);
  });

  it("keeps each name and key of the run's references once on the heap, not once a reference", () => {
    // 100 Deployments, each reading key k of Secret s twice: 200 references. Failed on main
    // (400: a slot per reference in each of two lists, `name` and `keys`).
    const items = Array.from({ length: 100 }, (_, i) =>
      deployment(
        `d${i}`,
        `${secretKeyRef('s', 'k')}\n- name: Y\n  valueFrom:\n    secretKeyRef:\n      name: s\n      key: k`,
      ),
    );
    const { resources } = readItems(readInput(resourceList(items)), readPlan(defaultConfig));
    const { columns } = templatesOf(resources[0] as Resource)[0] as TemplateFacts;
    expect(columns.count).toBe(200);
    const slots = Object.values(columns)
      .filter((column) => Array.isArray(column))
      .reduce((n, list) => n + list.length, 0);
    expect(slots).toBe(2);
  });

  it('keeps no look-up of the texts with the columns: only the reading plan has one', () => {
    // Failed on main (the columns held the Map of each text's number for the whole run: 9,897
    // texts on the fan-in bench at 10k items, ≈0.45 MB).
    const items = Array.from({ length: 100 }, (_, i) =>
      deployment(`d${i}`, secretKeyRef(`s${i}`, 'k')),
    );
    const { resources } = readItems(readInput(resourceList(items)), readPlan(defaultConfig));
    const { columns } = templatesOf(resources[0] as Resource)[0] as TemplateFacts;
    expect(columns.texts).toHaveLength(101);
    expect(Object.values(columns).filter((held) => held instanceof Map)).toEqual([]);
  });

  it("keeps a workload's one template's facts without a list of one", () => {
    // Failed on main (a list for every workload read as facts: 100 here).
    const items = Array.from({ length: 100 }, (_, i) => deployment(`d${i}`, envFrom('s')));
    const { resources } = readItems(readInput(resourceList(items)), readPlan(defaultConfig));
    expect(resources.filter((r) => r.facts instanceof TemplateFacts)).toHaveLength(100);
    expect(resources.filter((r) => Array.isArray(r.facts))).toHaveLength(0);
  });

  it('keeps the PodSpec of a kind a lint reads under it or above it', () => {
    const text = resourceList([deployment('a', secretKeyRef('s', 'k'))]);
    const reading = (field: string): Lint => ({
      id: 'test-reader',
      severity: 'warning',
      summary: 'A lint that reads a Deployment field',
      help: 'None: a test lint.',
      reads: [{ group: 'apps', kind: 'Deployment', fields: [field] }],
      check: () => {},
    });
    const kept = (field: string) => {
      const [resource] = readItems(
        readInput(text),
        readPlan(defaultConfig, [reading(field)]),
      ).resources;
      return resource?.facts === undefined;
    };
    expect(kept('spec.template.spec.serviceAccountName')).toBe(true);
    expect(kept('spec.template.spec.containers[].image')).toBe(true);
    expect(kept('spec')).toBe(true);
    expect(kept('spec.replicas')).toBe(false);
    expect(kept('spec.template.metadata.labels')).toBe(false);
  });

  it('keeps the PodSpec of JSON input, and of an item read whole', () => {
    // JSON input's values are what its output writes; an item read whole is proven from it.
    const item = load(deployment('d', secretKeyRef('s', 'k')));
    const json = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [item],
    });
    expect(podSpecs(json).map(nodesBelow)).toEqual([6]);
    // Longer than maxNodes characters: read whole, for the alias-bomb check.
    const long = `${deployment('d', secretKeyRef('s', 'k'))}  x: "${'a'.repeat(1_000_001)}"\n`;
    expect(podSpecs(resourceList([long])).map(nodesBelow)).toEqual([6]);
  });
});

describe("the run's columns of facts, past their first chunk", () => {
  // main 0c4fb3f grew each of the five columns by a copy twice its size: each copy outlived the
  // reading (5 MB more outside the heap on the fan-in bench at 10k items, counted by V8 with it,
  // which brought the rules' mark-compact forward).
  it("copies no column: a template's rows stay together in a chunk of their own", () => {
    // 700 Deployments of 3 references each: 2,100 rows, past the first chunk's 1,024.
    const items = Array.from({ length: 700 }, (_, i) =>
      deployment(
        `d${i}`,
        `${secretKeyRef(`a${i}`, 'k')}\n- name: Y\n  valueFrom:\n    secretKeyRef:\n      name: b${i}\n      key: k\n- name: Z\n  valueFrom:\n    secretKeyRef:\n      name: c${i}\n      key: k`,
      ),
    );
    const text = resourceList(items);
    const set = vi.spyOn(Int32Array.prototype, 'set');
    let copies: number;
    let resources: Resource[];
    try {
      ({ resources } = readItems(readInput(text), readPlan(defaultConfig)));
      copies = set.mock.calls.length;
    } finally {
      set.mockRestore();
    }
    expect(copies).toBe(0);
    const chunks = new Set<unknown>();
    resources.forEach((resource, i) => {
      const [template] = templatesOf(resource) as [TemplateFacts];
      chunks.add(template.columns);
      expect(template.end - template.start).toBe(3);
      const names = [0, 1, 2].map((k) => nameIn(template.columns, template.start + k));
      expect(names).toEqual([`a${i}`, `b${i}`, `c${i}`]);
    });
    // 1,024 rows (341 templates), then 2,048 (the other 359).
    expect(chunks.size).toBe(2);
  });
});
