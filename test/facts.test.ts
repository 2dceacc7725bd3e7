// The references of pod templates as the rules read them from an item read by the read plan
// agree, reference by reference, with the tree walk of the same item read whole: what each
// reference names and reads (secretUses, readUses), where it is (Places: named, keys) and the
// item error of a malformed PodSpec. docs/design/facts-reader.md, plan step 0.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate, toResourceList } from '../bench/generate.mjs';
import { readItems } from '../src/krm/items.js';
import { InputError, readInput } from '../src/krm/read.js';
import { type Config, defaultConfig } from '../src/model/config.js';
import { isObject, type Json } from '../src/model/json.js';
import type { ReadPlan } from '../src/model/read-contract.js';
import { ItemError, type Resource } from '../src/model/resource.js';
import { resolveOptions } from '../src/options.js';
import { readPlan } from '../src/rules/read-plan.js';
import {
  Places,
  readUses,
  type SecretUse,
  secretUses,
  usesRead,
} from '../src/rules/workloads/references.js';
import { podTemplatesOf } from '../src/rules/workloads/shapes.js';
import { deployment, repoRoot, resourceList, secretKeyRef } from './helpers.js';

/** The plan with every item read whole: the tree each reference is walked in. */
const whole = (plan: ReadPlan): ReadPlan => ({
  ...plan,
  passesThrough: () => undefined,
  projection: () => true,
});

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
      return [places.named(resource.value, at, use), places.keys(resource.value, at, use)];
    });
    const places = new Places();
    const later = uses.map((_, use) => [
      places.named(resource.value, at, use),
      places.keys(resource.value, at, use),
    ]);
    return {
      at: at.join('.'),
      uses: uses.map(printUse),
      read,
      first: JSON.stringify(first),
      later: JSON.stringify(later),
    };
  });
}

type Compared = { resources: number; references: number };

/** Compares every item both reads built; the counts of what was compared. */
function agree(text: string, settings: Record<string, string> = {}): Compared {
  let input: ReturnType<typeof readInput>;
  let config: Config;
  try {
    input = readInput(text);
    config = resolveOptions(input, { settings }, false).config ?? defaultConfig;
  } catch (error) {
    if (error instanceof InputError) return { resources: 0, references: 0 };
    throw error;
  }
  const plan = readPlan(config);
  const planned = readItems(input, plan);
  const trees = new Map(readItems(input, whole(plan)).resources.map((r) => [r.index, r]));
  const compared = { resources: 0, references: 0 };
  for (const resource of planned.resources) {
    const tree = trees.get(resource.index);
    if (!tree) continue;
    const found = referencesOf(resource, config);
    expect(found, `item ${resource.index}`).toEqual(referencesOf(tree, config));
    compared.resources++;
    for (const template of found) compared.references += template.uses?.length ?? 0;
  }
  return compared;
}

const add = (a: Compared, b: Compared): Compared => ({
  resources: a.resources + b.resources,
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

/** A package's manifests as one stream, with the options its Kptfile passes (configMap:). */
function examplePackage(dir: string): { text: string; settings: Record<string, string> } {
  const text = yamlFiles(dir)
    .sort()
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n---\n');
  let settings: Record<string, string> = {};
  try {
    // biome-ignore lint/suspicious/noExplicitAny: a parsed Kptfile
    const kptfile = load(readFileSync(path.join(dir, 'Kptfile'), 'utf8')) as any;
    settings = kptfile?.pipeline?.mutators?.[0]?.configMap ?? {};
  } catch {
    // no Kptfile: the defaults
  }
  return { text, settings };
}

describe('pod template references read by the plan agree with the tree walk', () => {
  it('on every testdata file', () => {
    let total: Compared = { resources: 0, references: 0 };
    for (const file of yamlFiles(path.join(repoRoot, 'testdata'))) {
      total = add(total, agree(readFileSync(file, 'utf8')));
    }
    expect(total.references).toBeGreaterThan(50);
  });

  it('on every example package', () => {
    const examples = path.join(repoRoot, 'examples');
    let total: Compared = { resources: 0, references: 0 };
    for (const name of readdirSync(examples)) {
      const dir = path.join(examples, name);
      if (!statSync(dir).isDirectory()) continue;
      const { text, settings } = examplePackage(dir);
      total = add(total, agree(text, settings));
    }
    expect(total.references).toBeGreaterThan(100);
  });

  it.each(['mixed', 'dense', 'fan-out', 'fan-in'])('on the %s bench shape at 1k', (shape) => {
    const { items } = generate(1000, 1, shape);
    const { references } = agree(toResourceList(items));
    expect(references).toBeGreaterThan(500);
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
    // Each malformed item's error is found, by both reads alike.
    const input = readInput(text);
    const read = readItems(input, readPlan(defaultConfig));
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

/** The mappings and lists reachable from `value`. */
function nodesUnder(value: Json | undefined): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((n, child) => n + nodesUnder(child), 0);
}

describe('what reading keeps of a PodSpec', () => {
  // Fails on main (6 nodes: the PodSpec, containers, a container, env, an entry, valueFrom, the
  // reference): its PodSpec tree is kept until the run ends.
  it.fails('keeps no mapping under the PodSpec of a plain Deployment read by the plan', () => {
    const text = resourceList([deployment('d', secretKeyRef('s', 'k'))]);
    const [resource] = readItems(readInput(text), readPlan(defaultConfig)).resources;
    const template = isObject(resource?.value.spec) ? resource.value.spec.template : undefined;
    expect(isObject(template)).toBe(true);
    expect(nodesUnder(isObject(template) ? template.spec : undefined)).toBe(0);
  });
});
