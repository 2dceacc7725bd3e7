// Builders for test inputs, and readers for outputs that do not go through the code under test.
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import path, { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { run } from '../src/run.js';

export const checksumKey = 'checksum/external-secrets';
export const waveKey = 'argocd.argoproj.io/sync-wave';

/** Wraps YAML item texts (each a mapping at column 0) into a ResourceList. */
export function resourceList(items: readonly string[], functionConfig?: string): string {
  const body = items.map((item) => indentItem(item)).join('');
  const config = functionConfig ? `functionConfig:\n${indent(functionConfig, 2)}` : '';
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${body}${config}`;
}

function indentItem(item: string): string {
  const lines = item.replace(/\n$/, '').split('\n');
  return `${lines.map((l, i) => (i === 0 ? `- ${l}` : l === '' ? '' : `  ${l}`)).join('\n')}\n`;
}

function indent(text: string, n: number): string {
  return `${text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n')}\n`;
}

export function runOk(text: string, settings?: Record<string, string>) {
  const out = run(text, settings ? { settings } : {});
  if (out.exitCode !== 0) {
    throw new Error(
      `exit ${out.exitCode}\n${out.stderr}\n${out.stdout.slice(out.stdout.indexOf('results:'))}`,
    );
  }
  return out;
}

type Obj = Record<string, unknown>;

/** Parsed items of an output ResourceList (or stream). */
export function itemsOf(output: string): Obj[] {
  const doc = load(output) as Obj;
  if (doc && doc.kind === 'ResourceList') return (doc.items ?? []) as Obj[];
  throw new Error('not a ResourceList');
}

export function resultsOf(output: string): Obj[] {
  return ((load(output) as Obj).results ?? []) as Obj[];
}

export function find(items: Obj[], kind: string, name: string): Obj {
  const item = items.find((i) => i.kind === kind && (i.metadata as Obj)?.name === name);
  if (!item) throw new Error(`no ${kind} ${name}`);
  return item;
}

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Obj | undefined)?.[key], value);
}

export function templateAnnotation(item: Obj, key = checksumKey): string | undefined {
  const path =
    item.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec', 'template'] : ['spec', 'template'];
  return at(item, [...path, 'metadata', 'annotations', key]) as string | undefined;
}

export function wave(item: Obj): string | undefined {
  return at(item, ['metadata', 'annotations', waveKey]) as string | undefined;
}

/**
 * Our entries removed from a flow mapping: a line like `metadata: {annotations: {k: "v"}, a: b}`
 * is the input line `metadata: {a: b}` updated in place, the one documented non-insertion.
 */
export function withoutOurFlowEntries(line: string, keys = [checksumKey, waveKey]): string {
  const ours = keys.map((k) => k.replace(/[./]/g, '\\$&')).join('|');
  return line
    .replace(new RegExp(`(${ours}): "[^"]*"(, )?`, 'g'), '')
    .replace(/annotations: \{\}(, )?/g, '')
    .replace(/, \}/g, '}');
}

/** The input's lines must appear in the output in order; returns the inserted lines. */
export function insertedLines(input: string, output: string): string[] {
  const want = input.split('\n');
  const inserted: string[] = [];
  let i = 0;
  for (const line of output.split('\n')) {
    if (i < want.length && (line === want[i] || withoutOurFlowEntries(line) === want[i])) i++;
    else inserted.push(line);
  }
  if (i < want.length)
    throw new Error(`input lines missing from output:\n${want.slice(i).join('\n')}`);
  return inserted;
}

export const externalSecret = (
  name: string,
  opts: {
    namespace?: string;
    target?: string;
    version?: string;
    extra?: string;
    wave?: string;
  } = {},
) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
${opts.namespace ? `  namespace: ${opts.namespace}\n` : ''}${opts.wave ? `  annotations:\n    ${waveKey}: "${opts.wave}"\n` : ''}spec:
  refreshInterval: 1h
  secretStoreRef:
    name: vault
    kind: ClusterSecretStore
${opts.target ? `  target:\n    name: ${opts.target}\n` : ''}  data:
  - secretKey: password
    remoteRef:
      key: db/${name}
      property: password
      version: "${opts.version ?? '1'}"
  - secretKey: user
    remoteRef:
      key: db/${name}
      property: user
${opts.extra ?? ''}`;

export const deployment = (
  name: string,
  secretRef: string,
  opts: { namespace?: string; wave?: string; kind?: string } = {},
) => `apiVersion: apps/v1
kind: ${opts.kind ?? 'Deployment'}
metadata:
  name: ${name}
${opts.namespace ? `  namespace: ${opts.namespace}\n` : ''}${opts.wave ? `  annotations:\n    ${waveKey}: "${opts.wave}"\n` : ''}spec:
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: app
        image: app:1
${secretRef.replace(/^/gm, '        ')}
`;

export const envFrom = (secret: string) => `envFrom:\n- secretRef:\n    name: ${secret}`;

/** ExternalSecrets s0…, and Deployments d0… each reading every one of them whole (envFrom). */
export const everyoneReadsAll = (sources: number, consumers: number): string[] => [
  ...Array.from({ length: sources }, (_, s) => externalSecret(`s${s}`)),
  ...Array.from({ length: consumers }, (_, c) =>
    deployment(
      `d${c}`,
      `envFrom:\n${Array.from({ length: sources }, (_, s) => `- secretRef: {name: s${s}}`).join('\n')}`,
    ),
  ),
];
export const secretKeyRef = (secret: string, key: string) =>
  `env:\n- name: X\n  valueFrom:\n    secretKeyRef:\n      name: ${secret}\n      key: ${key}`;

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const esoExamples = path.join(repoRoot, 'testdata/eso/examples');

/** ESO's doc snippets (testdata/eso/examples, see testdata/SOURCES.md), by file name. */
export const esoExampleFiles = () => readdirSync(esoExamples).filter((f) => f.endsWith('.yaml'));

/** A snippet's text without mkdocs' `{% raw %}` lines, which are not YAML. */
export const readEsoExample = (file: string) =>
  readFileSync(path.join(esoExamples, file), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('{%'))
    .join('\n');

/** The executable `command` resolves to on PATH, as a shell would find it. */
export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Runs `f` and counts the elements every iteration of an array walks meanwhile (a spread, a
 * for…of, Array.from): a cost bound, counted. A list copied to add one element (`[...list, x]`)
 * walks n²/2 of them for n elements.
 */
export function elementsWalked(f: () => void): number {
  let walked = 0;
  const iterate = Array.prototype[Symbol.iterator];
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    walked += this.length;
    return iterate.call(this);
  };
  try {
    f();
  } finally {
    Array.prototype[Symbol.iterator] = iterate;
  }
  return walked;
}

/** A package's manifests as one stream, with the options its Kptfile passes (configMap:). */
export function examplePackage(dir: string): { text: string; settings: Record<string, string> } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'github-actions.yaml')
    .sort();
  const text = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('---\n');
  let settings: Record<string, string> = {};
  try {
    const kptfile = load(readFileSync(path.join(dir, 'Kptfile'), 'utf8')) as
      | { pipeline?: { mutators?: { configMap?: Record<string, string> }[] } }
      | undefined;
    settings = kptfile?.pipeline?.mutators?.[0]?.configMap ?? {};
  } catch {
    // no Kptfile: the defaults
  }
  return { text, settings };
}

/** A Flux HelmRelease in namespace shop: `spec` below its interval, `meta` below its name. */
export const helmRelease = (
  name: string,
  spec: string,
  meta = '',
) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: shop
${meta}spec:
  interval: 1h
${spec.replace(/^/gm, '  ')}
`;

/** An app-template release's spec whose container reads Secret `secretName` (envFrom). */
export const appTemplate = (
  secretName: string,
) => `chartRef: {kind: OCIRepository, name: app-template}
values:
  controllers:
    main:
      containers:
        app:
          envFrom:
            - secretRef:
                name: "${secretName}"`;
