// A `docker` CLI for the container test, backed by buildah (no Docker engine on the test
// machines). It implements what kpt and kubectl's kustomize call, found by running them with a
// logging shim (kpt 1.0.0-beta.56, kubectl v1.32.4 / kustomize v5.5.0):
//
//   kpt:     docker version --format {{.Client.Version}}
//            docker run --rm -i --network none --user nobody --security-opt=no-new-privileges
//                       --pull missing IMAGE
//   kubectl: docker run --rm -i -a STDIN -a STDOUT -a STDERR --network none --user nobody
//                       --security-opt=no-new-privileges -e LOG_TO_STDERR=true
//                       -e STRUCTURED_RESULTS=true IMAGE
//
// plus `docker image inspect` and `docker pull` (success for local images only: nothing is ever
// pulled). `docker run` becomes `buildah from` + `buildah run --isolation chroot` of the image's
// entrypoint, with stdin and stdout passed straight through:
//   --user U          buildah run --user U (else the image's USER)
//   --network none    the run is wrapped in `unshare --net` (chroot isolation has no network
//                     option): an empty network namespace, not even a loopback that is up
//   --security-opt no-new-privileges   wrapped in `setpriv --no-new-privs`
//   --read-only       the container's root is bind-mounted read-only, with a tmpfs on /run
//                     (buildah's own mount points); DOCKER_SHIM_READ_ONLY=1 makes every run so
//   -e, -v, --mount, -w, --entrypoint   passed on; -i, -a, --rm, --name accepted (always attached,
//                     always removed). Anything else fails with exit 125 and the flag named.
// DOCKER_SHIM_PROBE=1 adds NODE_OPTIONS=--import=<probe> so the function's own process reports
// its uid, gid, capabilities, no_new_privs, network interfaces and whether / and /tmp are
// writable; the shim takes that line out of stderr. DOCKER_SHIM_LOG=FILE appends one JSON line
// per invocation (argv, the buildah command, exit code, probe). Storage: whatever buildah uses
// (the test sets CONTAINERS_STORAGE_CONF to its own vfs store).
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PROBE_PREFIX = 'docker-shim-probe ';
const PROBE = `
import fs from 'node:fs';
import os from 'node:os';
const status = fs.readFileSync('/proc/self/status', 'utf8');
const field = (k) => new RegExp('^' + k + ':\\\\s*(.*)$', 'm').exec(status)?.[1];
const tryWrite = (p) => {
  try { fs.writeFileSync(p, ''); fs.rmSync(p); return 'ok'; } catch (e) { return e.code; }
};
fs.writeSync(2, ${JSON.stringify(PROBE_PREFIX)} + JSON.stringify({
  uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(),
  capEff: field('CapEff'), noNewPrivs: field('NoNewPrivs'),
  interfaces: Object.keys(os.networkInterfaces()),
  writeRoot: tryWrite('/.docker-shim-probe'), writeTmp: tryWrite('/tmp/.docker-shim-probe'),
  argv: process.argv, cwd: process.cwd(),
}) + '\\n');
`;
// Lines buildah adds to stderr when the process exits non-zero; docker prints nothing of the kind.
const BUILDAH_EXIT_NOISE = /^(subprocess exited with status \d+|Error: exit status \d+)$/;

const argv = process.argv.slice(2);
const record = { argv };

class ShimError extends Error {
  constructor(message, code = 125) {
    super(message);
    this.code = code;
  }
}

function fail(message, code = 125) {
  throw new ShimError(message, code);
}

/** Runs buildah quietly; returns its stdout, or undefined when it failed. */
function buildah(args) {
  const r = spawnSync('buildah', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) fail(`cannot run buildah: ${r.error.message}`);
  return r.status === 0 ? r.stdout : undefined;
}

function imageConfig(image) {
  const out = buildah(['inspect', '--type', 'image', image]);
  if (out === undefined) return undefined;
  const info = JSON.parse(out);
  return { id: info.FromImageID, config: info.OCIv1?.config ?? {} };
}

function version() {
  const format = argv.find((a, i) => argv[i - 1] === '--format' || a.startsWith('--format='));
  process.stdout.write(format ? '28.0.0\n' : 'Client:\n Version: 28.0.0 (buildah shim)\n');
  return 0;
}

function imageInspect(images) {
  const found = [];
  let code = 0;
  for (const image of images) {
    const info = imageConfig(image);
    if (info === undefined) {
      process.stderr.write(`Error: No such image: ${image}\n`);
      code = 1;
      continue;
    }
    found.push({ Id: `sha256:${info.id}`, RepoTags: [image], Config: info.config });
  }
  process.stdout.write(`${JSON.stringify(found, null, 4)}\n`);
  return code;
}

function pull(image) {
  if (image === undefined) fail('"docker pull" requires 1 argument');
  if (imageConfig(image) === undefined) {
    fail(`cannot pull ${image}: this shim only has local images (buildah images)`, 1);
  }
  process.stdout.write(`Status: Image is up to date for ${image}\n`);
  return 0;
}

const VALUE_FLAGS = new Set([
  '-a',
  '--attach',
  '-e',
  '--env',
  '--entrypoint',
  '--mount',
  '--name',
  '--net',
  '--network',
  '--pull',
  '--security-opt',
  '-u',
  '--user',
  '-v',
  '--volume',
  '-w',
  '--workdir',
]);
const BOOL_FLAGS = new Set(['-i', '--interactive', '--rm', '--read-only']);

function parseRun(args) {
  const opts = { env: [], volumes: [], mounts: [], securityOpts: [], readOnly: false };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-')) break;
    if (arg === '--') {
      i++;
      break;
    }
    let name = arg;
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      name = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    }
    if (BOOL_FLAGS.has(name)) {
      if (name === '--read-only') opts.readOnly = value !== 'false';
      continue;
    }
    if (!VALUE_FLAGS.has(name)) fail(`unsupported docker run flag ${arg}`);
    if (value === undefined) {
      i++;
      if (i >= args.length) fail(`flag ${arg} needs a value`);
      value = args[i];
    }
    switch (name) {
      case '-e':
      case '--env':
        if (value.includes('=')) opts.env.push(value);
        else if (process.env[value] !== undefined) opts.env.push(`${value}=${process.env[value]}`);
        break;
      case '-v':
      case '--volume':
        opts.volumes.push(value);
        break;
      case '--mount':
        opts.mounts.push(value);
        break;
      case '--security-opt':
        opts.securityOpts.push(value);
        break;
      case '--net':
      case '--network':
        opts.network = value;
        break;
      case '-u':
      case '--user':
        opts.user = value;
        break;
      case '-w':
      case '--workdir':
        opts.workdir = value;
        break;
      case '--entrypoint':
        opts.entrypoint = value;
        break;
      case '--pull':
        opts.pull = value;
        break;
      default: // -a/--attach (stdin, stdout and stderr are always attached), --name
    }
  }
  if (i >= args.length) fail('"docker run" requires at least 1 argument (the image)');
  return { ...opts, image: args[i], args: args.slice(i + 1) };
}

/** Container paths that --volume / --mount bind onto, with whether the source is a directory. */
function mountTargets(opts) {
  const targets = [];
  for (const v of opts.volumes) {
    const [src, dst] = v.split(':');
    if (src && dst) targets.push({ dst, dir: !existsSync(src) || statSync(src).isDirectory() });
  }
  for (const m of opts.mounts) {
    const kv = Object.fromEntries(m.split(',').map((p) => p.split('=')));
    const src = kv.source ?? kv.src;
    const dst = kv.destination ?? kv.dst ?? kv.target;
    if (dst) targets.push({ dst, dir: !src || !existsSync(src) || statSync(src).isDirectory() });
  }
  return targets;
}

function touch(path, dir) {
  if (dir) {
    mkdirSync(path, { recursive: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, 'a'));
}

function run(opts) {
  Object.assign(record, { image: opts.image });
  const info = imageConfig(opts.image);
  if (info === undefined) {
    fail(
      `Unable to find image '${opts.image}' locally, and this shim cannot pull (--pull ${opts.pull ?? 'missing'})`,
    );
  }
  const cfg = info.config;
  const entrypoint = opts.entrypoint !== undefined ? [opts.entrypoint] : (cfg.Entrypoint ?? []);
  const cmd = opts.args.length > 0 || opts.entrypoint !== undefined ? opts.args : (cfg.Cmd ?? []);
  const command = [...entrypoint, ...cmd];
  if (command.length === 0) fail(`image ${opts.image} has no entrypoint or command`);

  const network = opts.network ?? 'default';
  if (!['none', 'host', 'bridge', 'default'].includes(network)) {
    fail(`unsupported --network ${network}`);
  }
  let noNewPrivs = false;
  for (const s of opts.securityOpts) {
    if (/^no-new-privileges([:=]true)?$/.test(s)) noNewPrivs = true;
    else fail(`unsupported --security-opt ${s}`);
  }
  const readOnly = opts.readOnly || process.env.DOCKER_SHIM_READ_ONLY === '1';
  const env = [...opts.env];
  if (process.env.DOCKER_SHIM_PROBE === '1') {
    const probe = `--import=data:text/javascript;base64,${Buffer.from(PROBE).toString('base64')}`;
    const i = env.findIndex((e) => e.startsWith('NODE_OPTIONS='));
    if (i >= 0) env[i] = `${env[i]} ${probe}`;
    else env.push(`NODE_OPTIONS=${probe}`);
  }

  const name = `docker-shim-${process.pid}-${Date.now()}`;
  if (buildah(['from', '--pull=never', '--quiet', '--name', name, opts.image]) === undefined) {
    fail(`buildah from ${opts.image} failed`);
  }
  let code = 125;
  try {
    const runArgs = ['run', '--isolation', 'chroot', '--user', opts.user ?? (cfg.User || 'root')];
    for (const e of env) runArgs.push('--env', e);
    for (const v of opts.volumes) runArgs.push('--volume', v);
    for (const m of opts.mounts) runArgs.push('--mount', m);
    if (opts.workdir !== undefined) runArgs.push('--workingdir', opts.workdir);
    runArgs.push(name, '--', ...command);

    let wrapped = ['buildah', ...runArgs];
    if (readOnly) {
      const root = buildah(['mount', name])?.trim();
      if (!root) fail(`buildah mount ${name} failed`);
      // buildah run mounts /dev, /proc, /sys, /etc/{hosts,resolv.conf,hostname}, /run/… and the
      // volumes onto the root: the mount points must exist before the root turns read-only.
      for (const d of ['dev', 'proc', 'sys', 'run']) touch(join(root, d), true);
      for (const f of ['etc/hosts', 'etc/resolv.conf', 'etc/hostname']) touch(join(root, f), false);
      for (const t of mountTargets(opts)) touch(join(root, t.dst), t.dir);
      const script =
        'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && ' +
        'mount -t tmpfs -o size=1m,mode=0755 tmpfs "$1/run" && shift && exec "$@"';
      wrapped = ['unshare', '--mount', '--', 'sh', '-c', script, 'sh', root, ...wrapped];
    }
    if (network === 'none') wrapped = ['unshare', '--net', '--', ...wrapped];
    if (noNewPrivs) wrapped = ['setpriv', '--no-new-privs', '--', ...wrapped];
    Object.assign(record, { command: wrapped, user: opts.user, network, readOnly, noNewPrivs });

    const r = spawnSync(wrapped[0], wrapped.slice(1), {
      stdio: ['inherit', 'inherit', 'pipe'],
      maxBuffer: 1 << 28,
    });
    if (r.error) fail(`cannot run ${wrapped[0]}: ${r.error.message}`);
    const kept = [];
    for (const line of r.stderr.toString('utf8').split(/(?<=\n)/)) {
      if (line.startsWith(PROBE_PREFIX)) record.probe = JSON.parse(line.slice(PROBE_PREFIX.length));
      else if (!BUILDAH_EXIT_NOISE.test(line.trimEnd())) kept.push(line);
    }
    process.stderr.write(kept.join(''));
    code = r.status ?? 128 + 9;
  } finally {
    buildah(['umount', name]);
    buildah(['rm', name]);
  }
  return code;
}

function main() {
  switch (argv[0]) {
    case 'version':
      return version();
    case 'image':
      if (argv[1] !== 'inspect') fail(`unsupported: docker ${argv.join(' ')}`);
      return imageInspect(argv.slice(2).filter((a) => !a.startsWith('-')));
    case 'inspect':
      return imageInspect(argv.slice(1).filter((a) => !a.startsWith('-')));
    case 'pull':
      return pull(argv.slice(1).find((a) => !a.startsWith('-')));
    case 'run':
      return run(parseRun(argv.slice(1)));
    default:
      return fail(`unsupported: docker ${argv.join(' ')}`);
  }
}

let exitCode;
try {
  exitCode = main();
} catch (e) {
  if (!(e instanceof ShimError)) throw e;
  process.stderr.write(`docker (buildah shim): ${e.message}\n`);
  record.error = e.message;
  exitCode = e.code;
}
record.exitCode = exitCode;
if (process.env.DOCKER_SHIM_LOG) {
  appendFileSync(process.env.DOCKER_SHIM_LOG, `${JSON.stringify(record)}\n`);
}
process.exitCode = exitCode;
