// The built CLI's own flags (dist/secret-rollout.cjs; `npm test` builds it first): --version and
// --help, which must answer on stdout with exit 0 wherever they appear and never read stdin; each
// command's own help; "did you mean" for a misspelt command, flag or option.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flagsOf } from '../src/cli-args.js';
import { impactArgs } from '../src/impact-cli.js';
import { readmeHelp } from '../src/readme-help.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/secret-rollout.cjs');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
// Input that would produce output if it were read: help and version must ignore it.
const stream = readFileSync(path.join(root, 'examples/ci/manifests.yaml'), 'utf8');

function cliRun(args: string[]) {
  const out = spawnSync(process.execPath, [cli, ...args], { input: stream, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('CLI flags', () => {
  it('--version and -V print the package version', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['--version'], ['-V'], ['plan', '--version'], ['impact', '-V']]) {
      expect(cliRun(args)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  const readme = readmeHelp(readFileSync(path.join(root, 'README.md'), 'utf8'));

  it.each(['--help', '-h', '--verbose --help', 'storeWave=-3 -h'])(
    '%s prints the help built from the README on stdout and exits 0',
    (line) => {
      const out = cliRun(line.split(' '));
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      if ('problem' in readme) throw new Error(readme.problem);
      expect(out.stdout.startsWith(`secret-rollout: ${readme.Short}\n`)).toBe(true);
      expect(out.stdout).toContain(readme.Long);
      expect(out.stdout).toContain(readme.Examples);
      // Every command is listed, and so is how to get its own help.
      for (const command of ['plan', 'check', 'impact', 'health']) {
        expect(out.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      }
      expect(out.stdout).toContain('secret-rollout COMMAND --help');
    },
  );

  // Each command's help names every flag its parser takes (main.ts's and impact-cli.ts's specs).
  it.each([
    ['plan --help', 'plan', ['--format', '--mermaid', '--verbose', '--fn-config', 'key=value']],
    ['plan --mermaid -h', 'plan', ['--format']],
    ['check --help', 'check', ['--verbose', '--fn-config', 'key=value']],
    ['impact --help', 'impact', ['--format', '--exclude', '--fn-config', '.krmignore']],
    ['impact base head -h', 'impact', ['--exclude']],
    ['health --help', 'health', ['argocd-health', '--for', 'flux', 'kapp', 'kstatus']],
    ['argocd-health --help', 'health', ['argocd-health', '--for']],
  ] as const)("%s prints the command's own help", (line, command, named) => {
    const out = cliRun(line.split(' '));
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout.startsWith(`Usage: secret-rollout ${command}`)).toBe(true);
    expect(out.stdout).toMatch(/\n\nFlags:\n[\s\S]*\n\nExamples:\n {2}\S/);
    for (const word of [...named, '--help']) expect(out.stdout).toContain(word);
    // Not the top-level help.
    expect(out.stdout).not.toContain('Commands:');
  });

  const healthUsage =
    'Usage: secret-rollout health [--for argocd|flux|kapp|kstatus]\nMore: secret-rollout health --help\n';

  it('health prints the argocd-cm patch, as argocd-health does, and takes no options', () => {
    const health = cliRun(['health']);
    expect(health.code).toBe(0);
    expect(health.stdout).toContain(
      'resource.customizations.health.external-secrets.io_ExternalSecret',
    );
    expect(cliRun(['argocd-health'])).toEqual(health);
    const out = cliRun(['health', 'storeWave=-3']);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`secret-rollout: health takes no options\n${healthUsage}`);
  });

  it('health --for argocd is the default; --for flux, kapp and kstatus print their own check', () => {
    const argocd = cliRun(['health']);
    expect(cliRun(['health', '--for', 'argocd'])).toEqual(argocd);
    expect(cliRun(['argocd-health', '--for=argocd'])).toEqual(argocd);
    const outputs = ['flux', 'kapp', 'kstatus'].map((d) => cliRun(['health', '--for', d]));
    for (const out of outputs) expect(out).toMatchObject({ code: 0, stderr: '' });
    const [flux, kapp, kstatus] = outputs.map((out) => out.stdout);
    expect(flux).toContain('healthCheckExprs:');
    expect(kapp).toContain('kind: Config');
    expect(kstatus).toContain('targetNames: hashed');
    expect(new Set([argocd.stdout, flux, kapp, kstatus]).size).toBe(4);
  });

  it.each([
    [
      ['--for', 'fluxx'],
      '--for must be one of argocd, flux, kapp, kstatus: did you mean flux?',
      true,
    ],
    [['--for', 'helm'], '--for must be one of argocd, flux, kapp, kstatus', true],
    [['--for'], '--for needs a value', true],
    [['--for', 'flux', '--for', 'kapp'], '--for given twice', false],
    [['--fr', 'flux'], 'unknown argument "--fr", did you mean --for?', true],
  ])('health %j is refused: %s', (args, error, usage) => {
    const out = cliRun(['health', ...args]);
    expect(out).toMatchObject({ code: 1, stdout: '' });
    expect(out.stderr).toBe(`secret-rollout: ${error}\n${usage ? healthUsage : ''}`);
  });

  it.each([
    ['--versoin', 'unknown argument "--versoin", did you mean --version?', ''],
    ['--verbsoe', 'unknown argument "--verbsoe", did you mean --verbose?', ''],
    ['plan --mermiad', 'unknown argument "--mermiad", did you mean --mermaid?', ' plan'],
    ['check --verbos=1', 'unknown argument "--verbos=…", did you mean --verbose?', ' check'],
    ['impact a b --exlcude x', 'unknown argument "--exlcude", did you mean --exclude?', ''],
    ['plann', 'unknown command "plann", did you mean plan?', ''],
    ['chekc --verbose', 'unknown command "chekc", did you mean check?', ''],
    ['--xyzzy', 'unknown argument "--xyzzy"', ''],
    [
      'input.yaml',
      'unknown command "input.yaml" (commands: plan, check, impact, health; the input comes on stdin)',
      '',
    ],
  ])('%s: one line, with the nearest command or flag when there is one', (line, error, command) => {
    const out = cliRun(line.split(' '));
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    const [first, usage] = out.stderr.split('\n');
    expect(first).toBe(
      line.startsWith('impact') ? `secret-rollout: impact: ${error}` : `secret-rollout: ${error}`,
    );
    if (!line.startsWith('impact')) {
      expect(usage).toMatch(/^Usage: secret-rollout /);
      expect(out.stderr).toContain(`More: secret-rollout${command} --help`);
    }
  });

  it('a misspelt option, on the command line or in a ConfigMap, names the nearest one', () => {
    const out = cliRun(['storewave=-3']);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^error: key=value arguments: unknown option storewave, did you mean storeWave\? \(known: /,
    );
    // In a ResourceList's functionConfig: an error result naming the field.
    const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: {extrnalSecretWave: "-1"}\n`;
    const fromList = spawnSync(process.execPath, [cli], { input: list, encoding: 'utf8' });
    expect(fromList.status).toBe(1);
    expect(fromList.stdout).toContain(
      'unknown option data.extrnalSecretWave, did you mean externalSecretWave? (known: ',
    );
  });

  it('impact --help names every flag impact takes', () => {
    const out = cliRun(['impact', '--help']).stdout;
    for (const flag of flagsOf(impactArgs)) expect(out).toContain(flag);
  });
});

describe('the help text from the README (src/readme-help.ts, read by build.mjs)', () => {
  const block = (name: string, text: string) => `<!--mdtogo:${name}-->${text}<!--mdtogo-->`;
  const all = `# x\n${block('Short', 'Does **one** thing.')}\n${block('Long', '\nSee [docs](docs/a.md), [ESO](https://external-secrets.io) and [below](#b), `code`.\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```mermaid\ngraph\n```\n')}\n${block('Examples', '\n```sh\nsecret-rollout < in.yaml\n```\n')}\n`;

  it('takes each block as plain text for a terminal', () => {
    expect(readmeHelp(all)).toEqual({
      Short: 'Does one thing.',
      Long: 'See docs, ESO (https://external-secrets.io) and below, code.\n\nPart:\n\n| a | b |\n| 1 | 2 |',
      Examples: '  secret-rollout < in.yaml',
    });
  });

  it('leaves out a parenthesis that is only a link into the repository, not a web link', () => {
    const long = block(
      'Long',
      '\nExits 1 ([exit status](docs/c.md#exit)), see [ESO](https://e.io) ([site](https://e.io)); paths ([details](docs/o.md#p), [readers](docs/r.md)).\n',
    );
    expect(readmeHelp(all.replace(/<!--mdtogo:Long-->[\s\S]*?<!--mdtogo-->/, long))).toMatchObject({
      Long: 'Exits 1, see ESO (https://e.io) (site (https://e.io)); paths.',
    });
  });

  it('names a block that is missing, doubled or empty (the build fails with it)', () => {
    expect(readmeHelp(all.replace(/<!--mdtogo:Long-->/, ''))).toEqual({
      problem:
        'README.md has no <!--mdtogo:Long-->…<!--mdtogo--> block, needs one: --help is built from it',
    });
    expect(readmeHelp(`${all}${block('Short', 'again')}`)).toMatchObject({
      problem: expect.stringContaining('has 2 <!--mdtogo:Short-->'),
    });
    expect(readmeHelp(all.replace('Does **one** thing.', ' '))).toEqual({
      problem: "README.md's <!--mdtogo:Short--> block is empty",
    });
  });

  it('the build refuses a README without the blocks', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'build-help-'));
    for (const file of ['build.mjs', 'package.json']) {
      writeFileSync(path.join(dir, file), readFileSync(path.join(root, file)));
    }
    writeFileSync(path.join(dir, 'README.md'), '# secret-rollout\n');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(
      path.join(dir, 'src/readme-help.ts'),
      readFileSync(path.join(root, 'src/readme-help.ts')),
    );
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    const out = spawnSync(process.execPath, ['build.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(out.status).toBe(1);
    expect(out.stderr).toBe(
      'build.mjs: README.md has no <!--mdtogo:Short-->…<!--mdtogo--> block, needs one: --help is built from it\n',
    );
  });
});

describe('V8 settings for large inputs (main.ts tuneForLargeInput)', () => {
  // A preload records the flags the run sets through node:v8 and ends the process once they are
  // set (they are set before the input is read further): the decision alone, without a run of
  // 64 MB.
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'v8-flags-')), 'probe.cjs');
  writeFileSync(
    probe,
    `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
const flags = [];
v8.setFlagsFromString = (flag) => {
  flags.push(flag);
  set(flag);
  if (flag === '--no-turbo-inlining') {
    process.stderr.write('flags ' + flags.join(' ') + '\\n');
    process.exit(0);
  }
};
`,
  );
  const flagsFor = (characters: number) => {
    const head = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n';
    const out = spawnSync(process.execPath, ['--require', probe, cli], {
      input: head + '#'.repeat(characters - head.length - 1) + '\n',
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    return /^flags (.*)$/m.exec(out.stderr)?.[1] ?? 'none';
  };

  it('keeps the young generation at its first size up to 64 Mi characters, lets it grow past', () => {
    expect(flagsFor(1 << 20)).toBe('none');
    expect(flagsFor((1 << 20) + 1)).toBe('--semi-space-growth-factor=1 --no-turbo-inlining');
    expect(flagsFor(1 << 26)).toBe('--semi-space-growth-factor=1 --no-turbo-inlining');
    // 100k items (125–300 MB): fewer scavenges, and no higher peak (ARCHITECTURE.md GC settings).
    expect(flagsFor((1 << 26) + 1)).toBe('--no-turbo-inlining');
  });

  it('lets it grow once the yaml library has judged 256 Ki characters, not for the quick reader', () => {
    // Every flag the whole run sets, in order.
    const all = path.join(path.dirname(probe), 'all.cjs');
    writeFileSync(
      all,
      `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
const flags = [];
v8.setFlagsFromString = (flag) => { flags.push(flag); set(flag); };
process.on('exit', () => process.stderr.write('flags ' + flags.join(' ') + '\\n'));
`,
    );
    const flagsOf = (value: string) => {
      const item = (i: number) =>
        `- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c${i}}\n  data:\n    v: ${value}\n`;
      let input = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n';
      for (let i = 0; input.length <= (1 << 20) + 1; i++) input += item(i);
      const out = spawnSync(process.execPath, ['--require', all, cli], {
        input,
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      expect(out.status).toBe(0);
      return /^flags (.*)$/m.exec(out.stderr)?.[1];
    };
    // Nested deeper than the quick reader reads (its maxDepth, 40): the conforming reader's.
    const deep = `${'['.repeat(60)}1${']'.repeat(60)}`;
    expect(flagsOf(deep)).toBe(
      '--semi-space-growth-factor=1 --no-turbo-inlining --semi-space-growth-factor=2',
    );
    expect(flagsOf('plain')).toBe('--semi-space-growth-factor=1 --no-turbo-inlining');
  });
});

describe('code cache (src/launch.cjs, build.mjs)', () => {
  // V8 says whether it took the cache: a preload wraps vm.Script and prints cachedDataRejected
  // (undefined when no cache was given, true when V8 refused it) once the run is over.
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'code-cache-')), 'probe.cjs');
  writeFileSync(
    probe,
    `const vm = require('node:vm');
const { Script } = vm;
vm.Script = class extends Script {
  constructor(...args) {
    super(...args);
    const file = require('node:path').basename(args[1].filename);
    process.on('exit', () => process.stderr.write(file + ' cachedDataRejected=' + this.cachedDataRejected + '\\n'));
  }
};
`,
  );
  const withProbe = (input: string) =>
    spawnSync(process.execPath, ['--require', probe, cli], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });

  const verdicts = (stderr: string) => stderr.match(/^\S+ cachedDataRejected=\w+$/gm) ?? [];
  const bothTaken = [
    'secret-rollout-bundle.cjs cachedDataRejected=false',
    'secret-rollout-rules.cjs cachedDataRejected=false',
  ];

  it('the caches the build wrote are accepted by the Node.js that built them', () => {
    const out = withProbe(stream);
    expect(out.status, out.stderr).toBe(0);
    expect(verdicts(out.stderr)).toEqual(bothTaken);
  });

  it("on a large input too, whose V8 flags (main.ts tuneForLargeInput) the rules' cache predates", () => {
    // It was rejected: the rules' file was compiled after the flags changed (7 ms more on 1k items).
    const item = (i: number) =>
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n  data:\n    k: ${'v'.repeat(200)}\n`;
    const large = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${Array.from({ length: 5000 }, (_, i) => item(i)).join('')}`;
    expect(large.length).toBeGreaterThan(1 << 20);
    const out = withProbe(large);
    expect(out.status, out.stderr).toBe(0);
    expect(verdicts(out.stderr)).toEqual(bothTaken);
  });

  it("an empty list's run compiles the bundle alone: the rules' file is not read", () => {
    const out = withProbe('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');
    expect(out.status, out.stderr).toBe(0);
    expect(verdicts(out.stderr)).toEqual(['secret-rollout-bundle.cjs cachedDataRejected=false']);
  });

  it('with the cache, the output is the one of the bundle compiled from source', () => {
    // dist/ without the cache: the launcher compiles the bundle from its text.
    const bare = mkdtempSync(path.join(tmpdir(), 'no-cache-'));
    for (const file of readdirSync(path.join(root, 'dist')).filter((f) => !f.endsWith('.v8cache')))
      copyFileSync(path.join(root, 'dist', file), path.join(bare, file));
    const plain = spawnSync(
      process.execPath,
      ['--require', probe, path.join(bare, 'secret-rollout.cjs')],
      {
        input: stream,
        encoding: 'utf8',
      },
    );
    expect(verdicts(plain.stderr)).toEqual([
      'secret-rollout-bundle.cjs cachedDataRejected=undefined',
      'secret-rollout-rules.cjs cachedDataRejected=undefined',
    ]);
    const cached = withProbe(stream);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('checksum/external-secrets:');
    expect(cached.stdout).toBe(plain.stdout);
  });
});

describe('the end of a run (main.ts)', () => {
  // 'beforeExit' is emitted when the event loop ends on its own, never on process.exit().
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'exit-')), 'probe.cjs');
  writeFileSync(
    probe,
    `process.on('beforeExit', () => process.stderr.write('event loop ended\\n'));\n`,
  );
  const many = (n: number) =>
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${Array.from(
      { length: n },
      (_, i) =>
        `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n  data:\n    k: v${i}\n`,
    ).join('')}`;

  it('all written: the process exits at once, without running the event loop to its end', () => {
    // Main ran it, and the scavenge V8 had queued ran in it: ≈1 ms of an empty list's start.
    for (const input of [
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n',
      stream,
    ]) {
      const out = spawnSync(process.execPath, ['--require', probe, cli], {
        input,
        encoding: 'utf8',
      });
      expect(out.status, out.stderr).toBe(0);
      expect(out.stderr).not.toContain('event loop ended');
    }
  });

  it('output left to a stream (a non-blocking stdout that is full) is all written before exit', async () => {
    const input = many(4000);
    const expected = spawnSync(process.execPath, [cli], { input, encoding: 'utf8' }).stdout;
    expect(expected.length).toBeGreaterThan(200_000);
    // Opening process.stdout as a stream makes the pipe non-blocking (as a parent that shares a
    // non-blocking pipe would); the test reads nothing for a while, so the pipe fills, a write
    // meets EAGAIN and the rest goes to the stream.
    const nonBlocking = path.join(path.dirname(probe), 'non-blocking.cjs');
    writeFileSync(nonBlocking, 'process.stdout;\n');
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = spawn(process.execPath, ['--require', nonBlocking, cli]);
        let stdout = '';
        let stderr = '';
        child.stdout.pause();
        setTimeout(() => {
          child.stdout.setEncoding('utf8').on('data', (d: string) => {
            stdout += d;
          });
          child.stdout.resume();
        }, 500);
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
        });
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      },
    );
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.length).toBe(expected.length);
    expect(out.stdout).toBe(expected);
  });
});

describe('bundle layout (build.mjs): what a start reads', () => {
  // A preload that reports each file of dist/ the bundle requires beside it.
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'lazy-files-')), 'probe.cjs');
  writeFileSync(
    probe,
    `const Module = require('node:module');
const load = Module._load;
const seen = new Set();
Module._load = function (request, ...rest) {
  if (request.startsWith('./secret-rollout-') && !seen.has(request)) {
    seen.add(request);
    process.stderr.write('loaded ' + request + '\\n');
  }
  return load.call(this, request, ...rest);
};
`,
  );
  const loaded = (input: string) => {
    const out = spawnSync(process.execPath, ['--require', probe, cli], { input, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    return [...out.stderr.matchAll(/^loaded (.*)$/gm)].map((m) => m[1]);
  };
  const lazyFiles = [
    'secret-rollout-ignore.cjs',
    'secret-rollout-re2js.cjs',
    'secret-rollout-yaml.cjs',
  ];

  it('the bundle run directly says which file to run and exits 1 (it was a silent exit 0)', () => {
    for (const file of ['secret-rollout-bundle.cjs', 'secret-rollout-rules.cjs']) {
      const out = spawnSync(process.execPath, [path.join(root, 'dist', file)], {
        input: 'apiVersion: v1\nkind: List\nitems: []\n',
        encoding: 'utf8',
      });
      expect(out.status, file).toBe(1);
      expect(out.stdout, file).toBe('');
      expect(out.stderr, file).toBe(
        'secret-rollout: run dist/secret-rollout.cjs, not the bundle\n',
      );
    }
  });

  it("src/rules/ and src/report/ are the rules' file, each module once, loaded on first use", () => {
    const bundle = readFileSync(path.join(root, 'dist/secret-rollout-bundle.cjs'), 'latin1');
    const rules = readFileSync(path.join(root, 'dist/secret-rollout-rules.cjs'), 'latin1');
    // Main's bundle held them: 303 KB.
    expect(bundle.length).toBeLessThan(200_000);
    expect(bundle).toContain('require("./secret-rollout-rules.cjs")');
    // The modules both use are the bundle's: the rules' file takes them from it.
    const firstLine = rules.slice(0, rules.indexOf('\n'));
    expect(
      firstLine.endsWith(
        '(function (exports, require, module, __filename, __dirname, bundle) {const __secretRolloutBundle=bundle.modules();',
      ),
    ).toBe(true);
    expect(rules).toContain('__secretRolloutBundle["src/model/json.ts"]');
    // Text of one of the lints (double-restart): in the rules' file only.
    const message = 'secretproviderclasses.exclude.reloader.stakater.com/reload';
    expect(rules).toContain(message);
    expect(bundle).not.toContain(message);
  });

  it('the libraries only some runs need are files of their own, not in the bundle', () => {
    const bundle = readFileSync(path.join(root, 'dist/secret-rollout-bundle.cjs'), 'latin1');
    // Session 9's bundle held them: 571 KB, re2js 151 KB and yaml 115 KB of it.
    expect(bundle.length).toBeLessThan(200_000);
    // Already CommonJS's wrapper, on the first line after the guard against running the file
    // directly: the launcher compiles the text as read, not a joined copy.
    const firstLine = bundle.slice(0, bundle.indexOf('\n'));
    expect(firstLine.startsWith('typeof module<"u"&&')).toBe(true);
    expect(
      firstLine.endsWith('(function (exports, require, module, __filename, __dirname) {'),
    ).toBe(true);
    const rules = readFileSync(path.join(root, 'dist/secret-rollout-rules.cjs'), 'latin1');
    for (const file of lazyFiles) {
      expect(bundle + rules).toContain(`require("./${file}")`);
      expect(readFileSync(path.join(root, 'dist', file), 'latin1').length).toBeGreaterThan(5000);
    }
  });

  it('a run on an empty ResourceList, or on the example, loads none of them', () => {
    expect(loaded('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n')).toEqual(
      [],
    );
    expect(loaded(stream)).toEqual([]);
  });

  it('a run that needs one loads it from dist/ and works as before', () => {
    // A Reloader reload list with a regular expression (re2js), in flow style (the yaml library's
    // verdict on what js-yaml read).
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata: {name: shop-db, namespace: shop}
  spec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: shop-db}
    data: [{secretKey: password, remoteRef: {key: shop/db, property: password}}]
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api
    namespace: shop
    annotations: {secret.reloader.stakater.com/reload: "shop-.*"}
  spec:
    template:
      spec:
        containers: [{name: api, image: api, envFrom: [{secretRef: {name: shop-db}}]}]
`;
    expect(loaded(input).sort()).toEqual([
      './secret-rollout-re2js.cjs',
      './secret-rollout-yaml.cjs',
    ]);
    const out = spawnSync(process.execPath, [cli], { input, encoding: 'utf8' });
    expect(out.stdout).toContain('checksum/external-secrets:');
    expect(out.stdout).toContain('rule: double-restart');
  });
});
