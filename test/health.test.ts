// `secret-rollout health --for argocd|flux|kapp|kstatus`: each deployer's readiness check. The Flux
// CEL runs under a real CEL evaluator (@bufbuild/cel) the way kustomize-controller evaluates it,
// on ESO status fixtures and on every Argo CD fixture, and must agree with the Lua check run by
// lua5.1. kapp's Config is checked against kapp's Go types (its ytt function cannot run here).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CelInput, run as celRun } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deployers, healthFor } from '../src/health.js';
import { healthCheckPatch } from '../src/rules/argocd-health.js';
import { repoRoot } from './helpers.js';
import { health as luaHealth } from './lua-health.js';

type Obj = Record<string, unknown>;
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const fixture = (dir: string, file: string) => parse(read(path.join(dir, file))) as Obj;

const esoDir = 'testdata/eso-status';
const argocdDirs = [
  'argocd/resource_customizations/external-secrets.io/ExternalSecret/testdata',
  'testdata/argocd/external-secrets.io/ExternalSecret/testdata',
];

// ---- Flux ----------------------------------------------------------------------------------

interface FluxExprs {
  apiVersion: string;
  kind: string;
  inProgress: string;
  failed: string;
  current: string;
}

const fluxDoc = parse(read('flux/externalsecret-health.yaml')) as {
  spec: { wait: boolean; healthCheckExprs: FluxExprs[] };
};
const [fluxExprs] = fluxDoc.spec.healthCheckExprs as [FluxExprs];

/**
 * A parsed YAML value as kustomize-controller hands it to CEL: an unstructured object, whose JSON
 * integers are int64 (bigint here) and whose mappings are maps.
 */
function toCel(value: unknown): CelInput {
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  }
  return value as CelInput;
}

const topLevel = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];
/** Whether the expression reads the variable `name` (not a field of that name). */
const reads = (expr: string, name: string) => new RegExp(`(?<![.\\w])${name}\\b`).test(expr);

type FluxStatus = 'InProgress' | 'Failed' | 'Current' | { error: string };

/**
 * fluxcd/pkg runtime/cel/status_evaluator.go `Evaluate`: an observedGeneration behind
 * metadata.generation is InProgress; then inProgress, failed, current, the first true wins, none
 * is InProgress; an expression's error is returned (Flux then polls again until its timeout).
 * The variables are the object's top-level fields; the environment has ext.Strings.
 */
function fluxStatus(obj: Obj): FluxStatus {
  const vars = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, toCel(v)]));
  const status = obj.status as Obj | undefined;
  const metadata = obj.metadata as Obj | undefined;
  if (typeof status?.observedGeneration === 'number') {
    if (status.observedGeneration !== metadata?.generation) return 'InProgress';
  }
  const order = [
    ['InProgress', fluxExprs.inProgress],
    ['Failed', fluxExprs.failed],
    ['Current', fluxExprs.current],
  ] as const;
  for (const [result, expr] of order) {
    // cel-go, given an absent top-level field, fails "no such attribute(s)", inside has() too
    // (fluxcd/pkg status_evaluator_test.go "object without status"); @bufbuild/cel reads has()
    // on it as false. Each expression reads status first, so the error is Flux's answer.
    const absent = topLevel.find((name) => !(name in obj) && reads(expr, name));
    if (absent !== undefined) return { error: `no such attribute(s): ${absent}` };
    let value: unknown;
    try {
      value = celRun(expr, vars, { funcs: strings });
    } catch (error) {
      return { error: (error as Error).message };
    }
    if (typeof value !== 'boolean') return { error: `not a bool: ${String(value)}` };
    if (value) return result;
  }
  return 'InProgress';
}

const luaToFlux: Record<string, FluxStatus> = {
  Healthy: 'Current',
  Progressing: 'InProgress',
  Degraded: 'Failed',
};

describe('Flux healthCheckExprs on ESO status fixtures (testdata/eso-status)', () => {
  it('is one entry for external-secrets.io/v1 ExternalSecret, with wait on', () => {
    expect(fluxDoc.spec.wait).toBe(true);
    expect(fluxDoc.spec.healthCheckExprs).toHaveLength(1);
    expect(fluxExprs).toMatchObject({
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
    });
    expect(Object.keys(fluxExprs).sort()).toEqual(
      ['apiVersion', 'current', 'failed', 'inProgress', 'kind'].sort(),
    );
  });

  it.each([
    // A spec change bumped the generation; ESO has not synced it: the old Ready=True must wait.
    ['stale-ready-after-generation-bump.yaml', 'InProgress', 'Progressing'],
    ['synced-current-generation.yaml', 'Current', 'Healthy'],
    ['failed-get-secret-data.yaml', 'Failed', 'Degraded'],
  ] as const)('%s: Flux %s, Argo CD %s', (file, flux, argocd) => {
    const obj = fixture(esoDir, file);
    expect(fluxStatus(obj)).toBe(flux);
    expect(luaHealth(obj).status).toBe(argocd);
  });

  it('errors on an object ESO has not written a status to yet: Flux waits, as Argo CD does', () => {
    const obj = fixture(esoDir, 'created-no-status.yaml');
    // A top-level field that is absent is no variable (fluxcd/pkg status_evaluator_test.go:
    // "no such attribute(s)"); kustomize-controller keeps polling until its timeout.
    expect(fluxStatus(obj)).toEqual({ error: 'no such attribute(s): status' });
    expect(luaHealth(obj).status).toBe('Progressing');
  });

  it('uses only functions of the CEL environment Flux builds (standard, ext.Strings)', () => {
    // fluxcd/pkg runtime/cel/expression.go: cel.OptionalTypes, ext.Strings, ext.Sets,
    // ext.Encoders; parsed, not compiled. No optional syntax: @bufbuild/cel has none.
    const used = new Set<string>();
    for (const expr of [fluxExprs.inProgress, fluxExprs.failed, fluxExprs.current]) {
      for (const m of expr.matchAll(/(\w+)\(/g)) used.add(m[1] as string);
    }
    const standard = ['has', 'filter', 'size', 'matches', 'startsWith', 'int'];
    const extStrings = ['split'];
    expect([...used].sort()).toEqual([...standard, ...extStrings].sort());
  });
});

describe('Flux and Argo CD agree on every Argo CD fixture', () => {
  const cases = argocdDirs.flatMap((dir) =>
    readdirSync(path.join(repoRoot, dir)).map((file) => [dir, file] as const),
  );

  it('covers them all', () => {
    expect(cases.length).toBeGreaterThanOrEqual(26);
  });

  it.each(cases)('%s/%s', (dir, file) => {
    const obj = fixture(dir, file);
    const flux = fluxStatus(obj);
    if (obj.status === undefined) {
      expect(flux).toEqual({ error: expect.any(String) });
      expect(luaHealth(obj).status).toBe('Progressing');
    } else {
      expect(flux).toBe(luaToFlux[luaHealth(obj).status]);
    }
  });
});

// ---- kapp ----------------------------------------------------------------------------------

/** What kapp reads, as carvel-dev/kapp pkg/kapp/config/*.go declares it (JSON names). */
const kappTypes = {
  waitRule: ['supportsObservedGeneration', 'conditionMatchers', 'resourceMatchers', 'ytt'],
  waitRuleYtt: ['funcContractV1'],
  funcContractV1: ['resource.star'],
  resourceMatcher: [
    'allMatcher',
    'anyMatcher',
    'notMatcher',
    'andMatcher',
    'apiGroupKindMatcher',
    'apiVersionKindMatcher',
    'kindNamespaceNameMatcher',
    'hasAnnotationMatcher',
    'hasNamespaceMatcher',
    'customResourceMatcher',
    'emptyFieldMatcher',
  ],
  apiGroupKindMatcher: ['apiGroup', 'kind'],
  // resourcesmisc/wait_rule_contract_v1.go WaitRuleContractV1ResultDetails
  result: ['done', 'successful', 'message', 'unblockChanges'],
};

describe('kapp Config (kapp/externalsecret-wait-rule.yaml)', () => {
  const config = parse(read('kapp/externalsecret-wait-rule.yaml')) as Obj;
  const rules = config.waitRules as Obj[];
  const [rule] = rules as [Obj];

  it('is a kapp Config that Config.Validate accepts', () => {
    expect(config.apiVersion).toBe('kapp.k14s.io/v1alpha1');
    expect(config.kind).toBe('Config');
    // No "v" prefix; ytt wait rules (funcContractV1) came in v0.48.0.
    expect(config.minimumRequiredVersion).toBe('0.48.0');
    expect(Object.keys(config).sort()).toEqual(
      ['apiVersion', 'kind', 'minimumRequiredVersion', 'waitRules'].sort(),
    );
  });

  it('has one wait rule for every served version of external-secrets.io ExternalSecret', () => {
    expect(rules).toHaveLength(1);
    for (const key of Object.keys(rule)) expect(kappTypes.waitRule).toContain(key);
    const matchers = rule.resourceMatchers as Obj[];
    expect(matchers).toHaveLength(1);
    for (const matcher of matchers) {
      expect(Object.keys(matcher)).toHaveLength(1);
      expect(kappTypes.resourceMatcher).toContain(Object.keys(matcher)[0]);
    }
    // apiGroupKindMatcher ignores the version, as Flux's apiVersion does.
    expect(matchers[0]).toEqual({
      apiGroupKindMatcher: { apiGroup: 'external-secrets.io', kind: 'ExternalSecret' },
    });
  });

  it('is generation-aware through ytt, never through supportsObservedGeneration', () => {
    // ESO writes no status.observedGeneration: kapp would read 0 and wait forever
    // (resourcesmisc/custom_waiting_resource.go IsDoneApplying).
    expect(rule.supportsObservedGeneration).toBeUndefined();
    expect(rule.conditionMatchers).toBeUndefined();
    const ytt = rule.ytt as Obj;
    expect(Object.keys(ytt)).toEqual(kappTypes.waitRuleYtt);
    const contract = ytt.funcContractV1 as Obj;
    expect(Object.keys(contract)).toEqual(kappTypes.funcContractV1);
    const star = contract['resource.star'] as string;
    // The contract loads is_done from resource.star and reads its result's keys.
    expect(star).toMatch(/^def is_done\(resource\):$/m);
    for (const m of star.matchAll(/"(\w+)": /g)) expect(kappTypes.result).toContain(m[1]);
    // What the check compares: the prefix of syncedResourceVersion with metadata.generation.
    expect(star).toContain('syncedResourceVersion');
    expect(star).toContain('partition("-")');
  });
});

// ---- the command ---------------------------------------------------------------------------

describe('healthFor', () => {
  it('argocd is the argocd-cm patch, unchanged', () => {
    expect(healthFor('argocd')).toBe(healthCheckPatch());
  });

  it('flux and kapp print their files byte for byte', () => {
    expect(healthFor('flux')).toBe(read('flux/externalsecret-health.yaml'));
    expect(healthFor('kapp')).toBe(read('kapp/externalsecret-wait-rule.yaml'));
  });

  it('kstatus states the limit and the alternatives', () => {
    const text = healthFor('kstatus');
    expect(text).toContain('Ready=True');
    expect(text).toContain('observedGeneration');
    for (const way of ['targetNames: hashed', 'depends-on', '--for argocd', '--for flux']) {
      expect(text).toContain(way);
    }
  });

  it('every deployer has a check', () => {
    for (const d of deployers) expect(healthFor(d).length).toBeGreaterThan(0);
  });
});
