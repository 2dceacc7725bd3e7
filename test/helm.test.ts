// secret-rollout as Helm's post-renderer, tested against the contract in Helm's own code, since no
// helm binary can be installed here (not on npm, not in Debian). Sources (helm/helm):
// - Helm 3, v3.21.4 (813176c51bb5c181dbbd7901298ddcc104cd3417): pkg/postrender/exec.go runs the
//   executable (a path, or a name looked up on PATH) with the --post-renderer-args as its
//   arguments, the manifests on stdin; stdout is the result; stderr is shown only when it exits
//   non-zero, and then Helm fails. pkg/action/action.go renderResources writes the manifests as
//   "---\n# Source: <template>\n<document, trimmed>\n" each, hooks left out (helm#7891);
//   cmd/helm/template.go's --show-only splits the result with releaseutil.SplitManifests and finds
//   each document's template by its "# Source:" line.
// - Helm 4, e9b85e4de16ad45805843fb121748018cf89094b: a post-renderer is a plugin of type
//   postrenderer/v1 (pkg/postrenderer/postrenderer.go); internal/plugin/loader.go reads plugin.yaml,
//   metadata_v1.go and metadata.go validate it, subprocess_commands.go builds the command line,
//   runtime_subprocess.go runs it (stderr kept to itself), and output that is only whitespace is an
//   error. pkg/action/action.go annotateAndMerge feeds kyaml's stream with a
//   postrenderer.helm.sh/postrender-filename annotation per document, hooks included by default.
// The rules below are ported from those files; testdata/helm/ holds Helm's own data (SOURCES.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { insertedLines, repoRoot } from './helpers.js';

const example = path.join(repoRoot, 'examples/helm-post-renderer');
const pluginDir = path.join(repoRoot, 'helm/secret-rollout');
// biome-ignore lint/suspicious/noTemplateCurlyInString: Helm's own ${VAR}, which Helm expands.
const pluginDirVar = '${HELM_PLUGIN_DIR}';
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

let bin: string;
beforeAll(() => {
  // `--post-renderer secret-rollout` finds the command on PATH, as an installed package puts it.
  bin = mkdtempSync(path.join(tmpdir(), 'helm-post-renderer-'));
  mkdirSync(path.join(bin, 'bin'));
  symlinkSync(path.join(repoRoot, 'dist/secret-rollout.cjs'), path.join(bin, 'bin/secret-rollout'));
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

const envWithCli = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${path.join(bin, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
});

/** Helm 3's execRender.Run: stdout on success, else an error carrying stderr. */
function helm3PostRender(manifests: string, args: string[] = [], executable = 'secret-rollout') {
  const out = spawnSync(executable, args, {
    input: manifests,
    encoding: 'utf8',
    env: envWithCli(),
  });
  return out.status === 0
    ? { ok: true as const, manifests: out.stdout, stderr: out.stderr }
    : { ok: false as const, error: `error while running command: ${out.stderr}` };
}

/** releaseutil.SplitManifests (v3.21.4): the documents, trimmed, empty ones dropped. */
function splitManifests(stream: string): string[] {
  return stream
    .trim()
    .split(/(?:^|\s*\n)---\s*/)
    .filter((d) => d !== '')
    .map((d) => d.trim());
}

describe('Helm 3: --post-renderer secret-rollout', () => {
  it("passes Helm's own `helm template` output through byte for byte (nothing to add)", () => {
    const helm = read('testdata/helm/v3-template.txt');
    const out = helm3PostRender(helm);
    expect(out).toMatchObject({ ok: true, manifests: helm });
  });

  it('adds the checksum to the stream Helm pipes, keeps every # Source line, and is idempotent', () => {
    const input = readFileSync(path.join(example, 'rendered/helm3-input.yaml'), 'utf8');
    const golden = readFileSync(path.join(example, 'rendered/helm3-output.yaml'), 'utf8');
    const out = helm3PostRender(input, ['ordering=none']);
    if (!out.ok) throw new Error(out.error);
    expect(out.manifests).toBe(golden);
    expect(insertedLines(input, out.manifests)).toEqual([
      '      annotations:',
      expect.stringMatching(/^ {8}checksum\/external-secrets: "[0-9a-f]{64}"$/),
    ]);
    // --show-only still finds every template: same documents, each with its # Source line first.
    const sources = (s: string) => splitManifests(s).map((d) => d.split('\n')[0]);
    expect(sources(out.manifests)).toEqual(sources(input));
    expect(sources(input)).toEqual([
      '# Source: shop/templates/deployment.yaml',
      '# Source: shop/templates/external-secret.yaml',
      '# Source: shop/templates/secret-store.yaml',
    ]);
    // Results go to stderr, which Helm 3 shows only on failure.
    expect(out.stderr).toMatch(/^info: checksum of ExternalSecret shop\/shop-db /m);
    expect(helm3PostRender(out.manifests, ['ordering=none'])).toMatchObject({
      ok: true,
      manifests: out.manifests,
    });
  });

  it('keeps a document --hide-secret left as comments only', () => {
    const input = `${read('testdata/helm/v3-template.txt')}---\n# Source: subchart/templates/secret.yaml\n# HIDDEN: The Secret output has been suppressed\n`;
    expect(helm3PostRender(input)).toMatchObject({ ok: true, manifests: input });
  });

  it('fails Helm on an error result, with one line that names the problem and no output', () => {
    const input = `---\n# Source: shop/templates/broken.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n`;
    const out = helm3PostRender(input);
    expect(out.ok).toBe(false);
    expect(out).toMatchObject({ error: expect.stringMatching(/invalid YAML/) });
  });

  it('an empty render (hooks or CRDs only) passes through post-render.sh; secret-rollout refuses it', () => {
    const script = path.join(pluginDir, 'post-render.sh');
    expect(helm3PostRender('', [], script)).toEqual({ ok: true, manifests: '', stderr: '' });
    expect(helm3PostRender('')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no input/),
    });
    // Not empty: every byte reaches secret-rollout, the first one included.
    for (const input of [
      read('testdata/helm/v3-template.txt'),
      `\n${read('testdata/helm/v3-template.txt')}`,
    ]) {
      expect(helm3PostRender(input, [], script)).toMatchObject({ ok: true, manifests: input });
    }
    expect(helm3PostRender('%x\n', [], script)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/invalid YAML/),
    });
  });

  it('a warning does not fail the release: exit 0', () => {
    // A hook reading the Secret: Helm 4 post-renders hooks, and the hook-phase lint warns.
    const input = readFileSync(path.join(example, 'rendered/helm4-input.yaml'), 'utf8');
    const out = helm3PostRender(input, ['ordering=none']);
    if (!out.ok) throw new Error(out.error);
    expect(out.stderr).toMatch(/^warning: Job shop\/shop-migrate /m);
  });
});

// ---------------------------------------------------------------------------------------------
// Helm 4: plugin.yaml as internal/plugin/loader.go loads it.

/** MetadataV1's fields (metadata_v1.go); loader.go decodes with KnownFields(true). */
const metadataV1Fields = [
  'apiVersion',
  'name',
  'type',
  'runtime',
  'version',
  'sourceURL',
  'config',
  'runtimeConfig',
];
/** plugin_type_registry.go's pluginTypes. */
const pluginTypes = ['test/v1', 'cli/v1', 'getter/v1', 'postrenderer/v1'];
/** loader.go's runtimes. */
const runtimes = ['subprocess', 'extism/v1'];
/** plugin.go's validPluginName. */
const validPluginName = /^[A-Za-z0-9_-]+$/;
/** Masterminds semver StrictNewVersion, as metadata.go's isValidSemver calls it. */
const strictSemver =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

interface PlatformCommand {
  os?: string;
  arch?: string;
  command?: string;
  args?: string[];
}

/** The first error loadMetadataV1 would return, or the platform commands of a valid plugin. */
function loadPluginYaml(text: string): { error: string } | { commands: PlatformCommand[] } {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return { error: 'invalid YAML' };
  const m = doc.toJS() as Record<string, unknown>;
  if (m.apiVersion !== 'v1') return { error: 'not a v1 plugin.yaml' };
  for (const key of Object.keys(m)) {
    if (!metadataV1Fields.includes(key)) return { error: `field ${key} not found` };
  }
  // MetadataV1.Validate
  if (typeof m.name !== 'string' || !validPluginName.test(m.name)) {
    return { error: 'invalid plugin `name`' };
  }
  if (typeof m.version !== 'string' || m.version === '') {
    return { error: 'plugin `version` is required' };
  }
  if (!strictSemver.test(m.version)) return { error: 'invalid plugin `version`' };
  if (typeof m.type !== 'string' || m.type === '') return { error: '`type` missing' };
  if (typeof m.runtime !== 'string' || m.runtime === '') return { error: '`runtime` missing' };
  // fromMetadataV1: unmarshalConfig (strict; ConfigPostRendererV1 has no fields), then the runtime
  if (!pluginTypes.includes(m.type)) return { error: `unknown plugin type ${m.type}` };
  const config = (m.config ?? {}) as Record<string, unknown>;
  if (m.type === 'postrenderer/v1' && Object.keys(config).length > 0) {
    return { error: 'postrenderer/v1 takes no config' };
  }
  if (!runtimes.includes(m.runtime)) return { error: `unsupported plugin runtime ${m.runtime}` };
  const runtimeConfig = (m.runtimeConfig ?? {}) as { platformCommand?: PlatformCommand[] };
  return { commands: runtimeConfig.platformCommand ?? [] };
}

/** subprocess_commands.go: getPlatformCommand (linux/amd64 here) and PrepareCommands. */
function prepareCommands(
  cmds: PlatformCommand[],
  extraArgs: string[],
  env: Record<string, string>,
): { main: string; args: string[] } | { error: string } {
  const eq = (a = '', b = '') => a.toLowerCase() === b.toLowerCase();
  let chosen: PlatformCommand | undefined;
  let foundOs = false;
  for (const c of cmds) {
    if (eq(c.os, 'linux') && eq(c.arch, 'amd64')) {
      chosen = c;
      break;
    }
    if ((c.os && !eq(c.os, 'linux')) || c.arch) continue;
    if (!foundOs && c.os && eq(c.os, 'linux')) {
      chosen = c;
      foundOs = true;
    } else if (!chosen) chosen = c;
  }
  const parts = (chosen?.command ?? '').split(' ');
  if (parts[0] === '') return { error: 'no plugin command is applicable' };
  // os.Expand: $VAR and ${VAR}, unset is empty.
  const expand = (s: string) =>
    s.replace(/\$\{([^}]*)\}|\$([A-Za-z0-9_]+)/g, (_, a, b) => env[a ?? b] ?? '');
  return {
    main: expand(parts[0] as string),
    args: [...parts.slice(1), ...(chosen?.args ?? [])].map(expand).concat(extraArgs),
  };
}

/** runPostrenderer and postRendererPlugin.Run: stdout, unless it fails or is only whitespace. */
function helm4PostRender(dir: string, manifests: string, extraArgs: string[] = []) {
  const loaded = loadPluginYaml(readFileSync(path.join(dir, 'plugin.yaml'), 'utf8'));
  if ('error' in loaded) throw new Error(loaded.error);
  const env = { ...envWithCli(), HELM_PLUGIN_NAME: 'secret-rollout', HELM_PLUGIN_DIR: dir };
  const command = prepareCommands(loaded.commands, extraArgs, env as Record<string, string>);
  if ('error' in command) throw new Error(command.error);
  const out = spawnSync(command.main, command.args, { input: manifests, encoding: 'utf8', env });
  if (out.status !== 0) return { ok: false as const, error: 'plugin exited with error' };
  if (out.stdout.trim() === '') return { ok: false as const, error: 'produced empty output' };
  return { ok: true as const, manifests: out.stdout };
}

describe('Helm 4: the postrenderer/v1 plugin in helm/secret-rollout', () => {
  it('plugin.yaml loads as Helm loads it: a postrenderer/v1 subprocess plugin', () => {
    const text = readFileSync(path.join(pluginDir, 'plugin.yaml'), 'utf8');
    expect(loadPluginYaml(text)).toEqual({
      commands: [{ command: `${pluginDirVar}/post-render.sh` }],
    });
    const meta = parseDocument(text).toJS();
    expect(meta).toMatchObject({ name: 'secret-rollout', type: 'postrenderer/v1' });
    expect(meta.version).toBe(JSON.parse(read('package.json')).version);
  });

  it("the ported rules accept Helm's own postrenderer-v1 test plugin and refuse what Helm refuses", () => {
    const helms = read('testdata/helm/postrenderer-v1-plugin.yaml');
    expect(loadPluginYaml(helms)).toEqual({
      commands: [{ command: `${pluginDirVar}/sed-test.sh` }],
    });
    const ours = readFileSync(path.join(pluginDir, 'plugin.yaml'), 'utf8');
    const broken: [string, string][] = [
      ['type: postrenderer/v1', 'type: postrender/v1'],
      ['version: 0.1.0', 'version: v0.1.0'],
      ['name: secret-rollout', 'name: secret rollout'],
      ['runtime: subprocess', 'runtime: exec'],
      ['runtimeConfig:', 'command: secret-rollout\nruntimeConfig:'],
      ['runtimeConfig:', 'config: {verbose: true}\nruntimeConfig:'],
    ];
    for (const [from, to] of broken) {
      expect(loadPluginYaml(ours.replace(from, to)), to).toHaveProperty('error');
    }
  });

  it('runs secret-rollout on the kyaml stream Helm 4 hands it, hooks included', () => {
    const input = readFileSync(path.join(example, 'rendered/helm4-input.yaml'), 'utf8');
    const golden = readFileSync(path.join(example, 'rendered/helm4-output.yaml'), 'utf8');
    const out = helm4PostRender(pluginDir, input, ['ordering=none']);
    expect(out).toEqual({ ok: true, manifests: golden });
    // The filename annotations Helm splits the result by are kept.
    expect(golden.match(/postrenderer\.helm\.sh\/postrender-filename: /g)).toHaveLength(4);
    expect(helm4PostRender(pluginDir, golden, ['ordering=none'])).toEqual(out);
  });

  it("passes Helm 4's own merged stream through, never empty for a non-empty input", () => {
    for (const file of [
      'testdata/helm/v4-annotate-and-merge.yaml',
      'testdata/helm/v3-template.txt',
    ]) {
      const input = read(file);
      expect(helm4PostRender(pluginDir, input)).toEqual({ ok: true, manifests: input });
    }
  });

  it('an error fails the release; the results reach the file SECRET_ROLLOUT_RESULTS names', () => {
    const results = path.join(bin, 'results.txt');
    writeFileSync(results, '');
    process.env.SECRET_ROLLOUT_RESULTS = results;
    try {
      const out = helm4PostRender(
        pluginDir,
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n',
      );
      expect(out).toEqual({ ok: false, error: 'plugin exited with error' });
      expect(readFileSync(results, 'utf8')).toMatch(/invalid YAML/);
      const input = readFileSync(path.join(example, 'rendered/helm4-input.yaml'), 'utf8');
      expect(helm4PostRender(pluginDir, input).ok).toBe(true);
      expect(readFileSync(results, 'utf8')).toMatch(/^warning: Job shop\/shop-migrate /m);
    } finally {
      delete process.env.SECRET_ROLLOUT_RESULTS;
    }
  });
});
