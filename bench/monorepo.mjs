// Monorepo benchmark (issue #24): `secret-rollout impact BASE HEAD` on two trees of a generated
// monorepo of A applications (a directory each, as a GitOps repository holds them) against one
// plain pass over the same items, in the same run.
//
// One plain pass: one fresh `secret-rollout` process (the function, as kpt runs it) reading
// BASE's and HEAD's items as one YAML stream on stdin: each tree's manifest files in path order,
// BASE's then HEAD's, the bytes impact reads (HEAD's namespaces renamed, `-head`, so the stream
// holds no duplicate and the run plans every item as impact plans each side). Impact plans twice as
// many resources per side's analysis, compares and writes a report; the plain pass plans all of them
// at once and writes every item back. Target: impact / plain pass ≤ 1.5, the median of same-round
// ratios (the two runs adjacent in time), NODE_EXTRA_CA_CERTS removed as in run.mjs.
//
//   node bench/monorepo.mjs            500 applications, 7 rounds
//   node bench/monorepo.mjs --quick    500 applications, 3 rounds (run.mjs --quick)
// Options: --apps N, --runs R, --keep, --fn CMD (the built CLI by default).
// Exit 1 when the report is wrong or the target is missed. run.mjs calls monorepoBench.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const target = 1.5;

/**
 * One application's files (path → text) at BASE or HEAD. Application i: namespace app-NNN, two
 * ExternalSecrets (db, api-key), Deployments api and worker reading them, a CronJob (every third
 * app) reading db, a Service and a ConfigMap. Most are kustomize directories, every tenth a kpt
 * package. The pull request bumps db's remoteRef.version in every fifth app (the rollouts) and
 * the image tag of every third (no rollout: the checksum covers secrets, not images).
 */
export function appFiles(i, side) {
  const app = `app-${String(i).padStart(3, '0')}`;
  const ns = side === 'head-renamed' ? `${app}-head` : app;
  const head = side !== 'base';
  const dbVersion = head && i % 5 === 0 ? 8 : 7;
  const tag = head && i % 3 === 0 ? '1.5.0' : '1.4.2';
  const dir = `apps/${app}`;
  const es = (name, key, version) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  refreshInterval: 1h
  secretStoreRef:
    kind: ClusterSecretStore
    name: vault
  target:
    name: ${name}
  data:
    - secretKey: password
      remoteRef:
        key: ${app}/${key}
        version: "${version}"
`;
  const deployment = (name, reads) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${app}
    app.kubernetes.io/component: ${name}
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: ${app}
      app.kubernetes.io/component: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${app}
        app.kubernetes.io/component: ${name}
    spec:
      containers:
        - name: ${name}
          image: registry.example.com/${app}/${name}:${tag}
          ports:
            - containerPort: 8080
          envFrom:
${reads.map((s) => `            - secretRef:\n                name: ${s}`).join('\n')}
          env:
            - name: CONFIG
              valueFrom:
                configMapKeyRef:
                  name: ${app}-config
                  key: mode
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: 8080
`;
  const cron = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
  namespace: ${ns}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: backup
              image: registry.example.com/tools/backup:2.1.0
              env:
                - name: DB_PASSWORD
                  valueFrom:
                    secretKeyRef:
                      name: db
                      key: password
`;
  const rest = `apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: ${ns}
spec:
  selector:
    app.kubernetes.io/name: ${app}
  ports:
    - port: 80
      targetPort: 8080
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${app}-config
  namespace: ${ns}
data:
  mode: production
`;
  const files = {
    [`${dir}/externalsecrets.yaml`]: `${es('db', 'db', dbVersion)}---\n${es('api-key', 'api', 3)}`,
    [`${dir}/workloads.yaml`]: [
      deployment('api', ['db', 'api-key']),
      deployment('worker', ['db']),
      ...(i % 3 === 0 ? [cron] : []),
    ].join('---\n'),
    [`${dir}/service.yaml`]: rest,
  };
  if (i % 10 === 0) {
    files[`${dir}/Kptfile`] =
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${app}\n  annotations:\n    config.kubernetes.io/local-config: "true"\n`;
  } else {
    files[`${dir}/kustomization.yaml`] =
      'resources:\n  - externalsecrets.yaml\n  - workloads.yaml\n  - service.yaml\n';
  }
  return files;
}

const platform = {
  'platform/cluster-secret-store.yaml': `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault:
      server: https://vault.example.com
      path: secret
      version: v2
`,
};

/** Writes BASE and HEAD trees of `apps` applications under `dir`; what the report must say. */
export function writeMonorepo(dir, apps) {
  const sides = { base: { ...platform }, head: { ...platform } };
  let rollouts = 0;
  let rolling = 0;
  for (let i = 0; i < apps; i++) {
    Object.assign(sides.base, appFiles(i, 'base'));
    Object.assign(sides.head, appFiles(i, 'head'));
    if (i % 5 === 0) {
      rollouts += i % 3 === 0 ? 3 : 2;
      rolling++;
    }
  }
  for (const [side, files] of Object.entries(sides)) {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, side, file)), { recursive: true });
      writeFileSync(join(dir, side, file), text);
    }
  }
  return { rollouts, applications: rolling, sources: rolling };
}

/** The plain pass's input: BASE's manifest files then HEAD's (renamed), as one YAML stream. */
export function plainStream(apps) {
  const manifests = (files) =>
    Object.keys(files)
      .filter((f) => f.endsWith('.yaml') && !f.endsWith('kustomization.yaml'))
      .sort()
      .map((f) => files[f]);
  const base = { ...platform };
  const head = {};
  for (let i = 0; i < apps; i++) {
    Object.assign(base, appFiles(i, 'base'));
    Object.assign(head, appFiles(i, 'head-renamed'));
  }
  return [...manifests(base), ...manifests(head)].join('---\n');
}

const mid = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[a.length >> 1] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};

/**
 * The benchmark; returns its problems (empty when the report is right and the target met) and
 * prints its table on stdout.
 */
export function monorepoBench({ fnArgv, quick = false, runs = quick ? 3 : 7, apps = 500, keep }) {
  const { NODE_EXTRA_CA_CERTS: _ca, ...env } = process.env;
  const tmp = mkdtempSync(join(tmpdir(), 'secret-rollout-monorepo-'));
  const problems = [];
  try {
    const expected = writeMonorepo(tmp, apps);
    const stream = join(tmp, 'plain.yaml');
    writeFileSync(stream, plainStream(apps));
    const time = (args, input) => {
      const t0 = performance.now();
      const r = spawnSync(args[0], args.slice(1), {
        // The command as run.mjs resolves it (relative to the repository); the trees by full path.
        cwd: ROOT,
        env,
        input: input === undefined ? '' : readFileSync(input),
        maxBuffer: 1 << 28,
      });
      const s = (performance.now() - t0) / 1000;
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      return { s, stdout: String(r.stdout) };
    };
    const impact = [...fnArgv, 'impact', join(tmp, 'base'), join(tmp, 'head')];
    const plain = () => time(fnArgv, stream);
    // The warm-up doubles as the check: the JSON's counts are what the generator bumped.
    const json = JSON.parse(time([...impact, '--format', 'json']).stdout);
    if (json.rollouts.length !== expected.rollouts) {
      problems.push(`monorepo: ${json.rollouts.length} rollouts, expected ${expected.rollouts}`);
    }
    const summary = `**${expected.rollouts} workloads will restart** in ${expected.applications} applications`;
    const md = time(impact).stdout;
    if (!md.includes(summary))
      problems.push(`monorepo: the markdown does not start with ${summary}`);
    plain();
    const ratios = [];
    const times = { impact: [], plain: [] };
    for (let k = 0; k < runs; k++) {
      // Alternate which runs first, so drift hits both evenly.
      const pair = k % 2 ? [plain(), time(impact)].reverse() : [time(impact), plain()];
      times.impact.push(pair[0].s);
      times.plain.push(pair[1].s);
      ratios.push(pair[0].s / pair[1].s);
    }
    const r = mid(ratios);
    const items = readFileSync(stream, 'utf8').split(/^---$/m).length;
    console.log(
      [
        '',
        `| monorepo (${apps} applications, ${items} items in both trees) | impact BASE HEAD | one plain pass | impact / plain (≤ ${target}) |`,
        '|---|---:|---:|---:|',
        `| median of ${runs} | ${mid(times.impact).toFixed(3)} s | ${mid(times.plain).toFixed(3)} s | ${r.toFixed(2)}${r <= target ? ' ✓' : ' ✗'} |`,
      ].join('\n'),
    );
    if (!(r <= target)) problems.push(`monorepo: impact / plain pass ${r.toFixed(2)} > ${target}`);
  } catch (e) {
    problems.push(`monorepo: ${e.message}`);
  } finally {
    if (keep) console.error(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (k) => argv.includes(k);
  const opt = (k, d) => (flag(k) ? argv[argv.indexOf(k) + 1] : d);
  const bin = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin ?? {};
  const fnSpec = opt('--fn', process.env.BENCH_FN ?? Object.values(bin)[0]).split(/\s+/);
  const fnArgv = /\.[cm]?js$/.test(fnSpec[0]) ? [process.execPath, ...fnSpec] : fnSpec;
  const quick = flag('--quick');
  const problems = monorepoBench({
    fnArgv,
    quick,
    runs: Number(opt('--runs', quick ? 3 : 7)),
    apps: Number(opt('--apps', 500)),
    keep: flag('--keep'),
  });
  if (problems.length) {
    console.error(`\nFAIL:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
}
