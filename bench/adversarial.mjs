// Adversarial benchmark (issue #20): for each family of costly input shapes (one generator a
// family, bench/adversarial/<family>.mjs, `generate(bytes) → text`), the built CLI on each size,
// a fresh process with the text as a file on stdin, NODE_EXTRA_CA_CERTS removed (≈70 ms per node
// start here). Measures wall time (median of --runs, process start included) and peak RSS (GNU
// time), checks the outcome (exit 0, or exit 1 with a clean error: no stack trace, no internal
// error), kills a run after --timeout seconds. Targets: every member ≤ 10 s and ≤ 512 MiB, and
// t(largest)/t(smallest) ≤ 1.25 × the size ratio (10 for 1 → 8 MB). Then replays, timed here and
// never in `npm test`: the fuzzer's cost findings against their parents (test/fuzz/cost.ts) and
// the bad inputs of test/bad-inputs/ against the bound their test no longer asserts.
//
//   node bench/adversarial.mjs              every family at 1, 2, 4, 8 MB, 3 runs; the replays
//   node bench/adversarial.mjs --quick      every family at 64 KB, one run: outcome only, no time
// Options: --family a,b (families only, no replays), --sizes 1,2,4,8 (MB; `64k` for KB),
// --runs R, --timeout S, --no-replays, --no-fail (exit 0 when a target is missed), --keep,
// --fn CMD (command to test instead of the built CLI, e.g. the build of another commit; the fuzz
// findings' replay runs this tree's src/ whatever --fn says).
// Exit 1 when an outcome is wrong or a target is missed.
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FAMILIES = join(ROOT, 'bench/adversarial');
const argv = process.argv.slice(2);
const flag = (k) => argv.includes(k);
const opt = (k, d) => (flag(k) ? argv[argv.indexOf(k) + 1] : d);
const quick = flag('--quick');
const runs = Number(opt('--runs', quick ? 1 : 3));
// In quick mode the kill only stops a runaway (64 KB runs take well under a second).
const timeoutS = Number(opt('--timeout', quick ? 300 : 60));
const sizes = opt('--sizes', quick ? '64k' : '1,2,4,8')
  .split(',')
  .map((s) => (/k$/i.test(s) ? Number.parseFloat(s) * 1024 : Number.parseFloat(s) * 1024 * 1024));
const target = { s: 10, rssMiB: 512, growth: 10 / 8 };

const bin = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin ?? {};
const fnSpec = opt('--fn', process.env.BENCH_FN ?? Object.values(bin)[0]).split(/\s+/);
const fnArgv = /\.[cm]?js$/.test(fnSpec[0]) ? [process.execPath, ...fnSpec] : fnSpec;
const { NODE_EXTRA_CA_CERTS: _ca, ...childEnv } = process.env;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null; // GNU time, for peak RSS
if (!TIME) console.error('note: /usr/bin/time missing (apt-get install time): no peak RSS');

const all = readdirSync(FAMILIES)
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .map((f) => f.slice(0, -'.mjs'.length))
  .sort();
const chosen = opt('--family', '')
  .split(',')
  .filter((f) => f !== '');
for (const f of chosen) {
  if (!all.includes(f)) {
    console.error(`unknown family ${f}; families: ${all.join(', ')}`);
    process.exit(2);
  }
}
const families = chosen.length > 0 ? chosen : all;
const replays = !quick && chosen.length === 0 && !flag('--no-replays');

const tmp = mkdtempSync(join(tmpdir(), 'secret-rollout-adversarial-'));
const rssFile = join(tmp, 'rss');
const problems = [];

const STACK = /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/m;
const CRASH = /internal error|FATAL ERROR|Maximum call stack|out of memory/i;

/**
 * One fresh process of `cmd` on `input`, killed with its process group after `timeoutS`.
 * Resolves to { s, rss (MiB), outcome }: outcome is 'ok' (exit 0), 'error' (exit 1 with a clean
 * error), or a failure text starting with ✗.
 */
function runOnce(cmd, input) {
  const inFd = openSync(input, 'r');
  const outFile = join(tmp, 'out');
  const outFd = openSync(outFile, 'w');
  const full = TIME ? [TIME, '-f', '%M', '-o', rssFile, ...cmd] : cmd;
  const t0 = performance.now();
  const child = spawn(full[0], full.slice(1), {
    cwd: ROOT,
    env: childEnv,
    stdio: [inFd, outFd, 'pipe'],
    detached: true, // its own process group: the kill reaches node under GNU time
  });
  const err = [];
  child.stderr.on('data', (b) => err.push(b));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    process.kill(-child.pid, 'SIGKILL');
  }, timeoutS * 1000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const s = (performance.now() - t0) / 1000;
      clearTimeout(timer);
      closeSync(inFd);
      closeSync(outFd);
      const stderr = Buffer.concat(err).toString('utf8');
      const rss =
        TIME && !killed
          ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop())
          : Number.NaN;
      resolve({ s, rss: rss / 1024, outcome: outcome(code, signal, killed, stderr, outFile) });
    });
  });
}

/** What the run answered: see runOnce. GNU time's own line ("Command exited …") is not the CLI's. */
function outcome(code, signal, killed, stderr, outFile) {
  if (killed) return `✗ killed after ${timeoutS} s`;
  const size = statSync(outFile).size;
  // Results come last; errors are at most a few hundred bytes each.
  const fd = openSync(outFile, 'r');
  const tail = Buffer.alloc(Math.min(size, 1 << 16));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  closeSync(fd);
  // Of stdout, only a ResourceList's results: the rest is the input's text. Results longer than
  // the tail (an error per item, or an error first and thousands of warnings after it) start
  // before it: on exit 1 the whole output is read then, to find them.
  let out = tail.toString('utf8');
  let at = Math.max(out.lastIndexOf('\nresults:\n'), out.lastIndexOf('"results":'));
  if (at < 0 && code === 1 && size > tail.length) {
    out = readFileSync(outFile, 'utf8');
    at = Math.max(out.lastIndexOf('\nresults:\n'), out.lastIndexOf('"results":'));
  }
  const results = at >= 0 ? out.slice(at) : '';
  const text = stderr.replace(/^Command (exited|terminated).*\n?/gm, '') + results;
  if (STACK.test(text)) return `✗ stack trace (exit ${code ?? signal})`;
  if (CRASH.test(text)) return `✗ internal error: ${CRASH.exec(text)[0]} (exit ${code ?? signal})`;
  if (code === 0) return 'ok';
  if (code !== 1) return `✗ exit ${code ?? signal}`;
  const errors = /"?severity"?: ?"?error/.test(text)
    ? text.match(/"?severity"?: ?"?error/g).length
    : stderr.split('\n').filter((l) => /^(error|secret-rollout): /.test(l)).length;
  return errors > 0
    ? `error (${errors === 1 ? 'one line' : `${errors} lines`})`
    : '✗ exit 1, no error';
}

const mid = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[a.length >> 1] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};
const mb = (bytes) =>
  bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(2)} MB` : `${Math.round(bytes / 1024)} KB`;
const mark = (ok) => (ok ? '✓' : '✗');
// A killed run has no peak RSS (GNU time is killed with it).
const mib = (v) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(0)} MiB`);

/** Every member of every chosen family: one row each. */
async function benchFamilies() {
  const rows = [];
  for (const family of families) {
    const { generate } = await import(pathToFileURL(join(FAMILIES, `${family}.mjs`)).href);
    for (const bytes of sizes) {
      const file = join(tmp, `${family}-${bytes}.yaml`);
      writeFileSync(file, generate(bytes));
      const size = statSync(file).size;
      const ms = [];
      let failed;
      for (let k = 0; k < runs && !failed; k++) {
        const m = await runOnce(fnArgv, file);
        ms.push(m);
        // A member that failed (or hit the kill) once is not run again.
        if (m.outcome.startsWith('✗')) failed = m.outcome;
      }
      const row = {
        family,
        bytes: size,
        s: failed ? Math.max(...ms.map((m) => m.s)) : mid(ms.map((m) => m.s)),
        rss: Math.max(...ms.map((m) => m.rss)),
        outcome: failed ?? ms[ms.length - 1].outcome,
        killed: ms.some((m) => m.outcome.startsWith('✗ killed')),
      };
      rows.push(row);
      console.error(
        `${family} ${mb(size)}: ${row.s.toFixed(2)} s, ${mib(row.rss)}, ${row.outcome}`,
      );
      if (!flag('--keep')) rmSync(file);
    }
  }
  return rows;
}

function familyTable(rows) {
  const span = Math.max(...sizes) / Math.min(...sizes);
  const growthMax = target.growth * span;
  const head = `t(${mb(Math.max(...sizes))})/t(${mb(Math.min(...sizes))}) (≤ ${+growthMax.toFixed(2)})`;
  const out = quick
    ? ['| family | size | outcome |', '|---|---:|---|']
    : [
        `| family | size | time (median of ${runs}) | peak RSS | ${sizes.length > 1 ? head : 'growth'} | outcome | targets |`,
        '|---|---:|---:|---:|---:|---|---|',
      ];
  for (const family of families) {
    const own = rows.filter((r) => r.family === family);
    const first = own[0];
    const last = own[own.length - 1];
    for (const r of own) {
      const bad = r.outcome.startsWith('✗');
      if (bad) problems.push(`${family} ${mb(r.bytes)}: ${r.outcome}`);
      if (quick) {
        out.push(`| ${family} | ${mb(r.bytes)} | ${r.outcome} |`);
        continue;
      }
      const ok = !bad && r.s <= target.s && !(r.rss > target.rssMiB);
      if (!bad && !ok)
        problems.push(`${family} ${mb(r.bytes)}: ${r.s.toFixed(1)} s, ${r.rss.toFixed(0)} MiB`);
      let growth = '';
      if (r === last && own.length > 1) {
        // A killed run bounds its time from below only.
        const g = last.s / first.s;
        const known = !first.killed;
        const gOk = known && !last.killed && g <= growthMax;
        if (!gOk) problems.push(`${family}: ${head.split(' (')[0]} ${g.toFixed(1)}`);
        growth = known ? `${last.killed ? '≥ ' : ''}${g.toFixed(1)} ${mark(gOk)}` : 'n/a ✗';
      }
      const time = `${r.killed ? '> ' : ''}${r.s.toFixed(2)} s`;
      out.push(
        `| ${family} | ${mb(r.bytes)} | ${time} | ${mib(r.rss)} | ${growth} | ${r.outcome} | ${mark(ok)} |`,
      );
    }
  }
  return out.join('\n');
}

/** The bad inputs of test/bad-inputs/: each through the CLI within the bound its test had. */
async function replayBadInputs() {
  const dir = join(ROOT, 'test/bad-inputs');
  const boundS = 10;
  let slowest = { s: 0, file: '' };
  const bad = [];
  for (const file of readdirSync(dir)
    .filter((f) => f !== 'cases.yaml')
    .sort()) {
    const m = await runOnce(fnArgv, join(dir, file));
    if (m.s > slowest.s) slowest = { s: m.s, file };
    if (m.s > boundS || !m.outcome.startsWith('error'))
      bad.push(`${file}: ${m.s.toFixed(2)} s, ${m.outcome}`);
  }
  for (const b of bad) problems.push(`bad input ${b}`);
  return `| bad inputs (test/bad-inputs/, one run each) | slowest ${slowest.s.toFixed(2)} s (${slowest.file}) | each ≤ ${boundS} s with a clean error | ${mark(bad.length === 0)} |`;
}

/**
 * The fuzzer's timing findings, replayed by test/fuzz/cost.replay.ts under vitest (it imports
 * src/ directly, as the fuzzer does, and times run() in-process the same way): each finding's
 * time per KB against its saved parent's, in the same process, and the absolute bound.
 */
async function replayCostFindings() {
  const report = join(tmp, 'cost.json');
  const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/fuzz/vitest.config.ts'], {
    cwd: ROOT,
    env: { ...childEnv, FUZZ_COST_REPLAY: report },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await new Promise((resolve) => child.on('close', resolve));
  if (!existsSync(report)) {
    problems.push('the cost findings replay (test/fuzz/cost.replay.ts) wrote no report');
    return '';
  }
  const found = JSON.parse(readFileSync(report, 'utf8'));
  const out = [
    '| fuzz finding | size | time (min of 3) | per KB | parent | parent per KB | ratio | verdict |',
    '|---|---:|---:|---:|---|---:|---:|---|',
  ];
  const perKb = (t) => `${(t.ms / (t.bytes / 1024)).toFixed(3)} ms`;
  for (const f of found) {
    if (f.verdict) problems.push(`fuzz finding ${f.hash}: ${f.verdict} (${f.detail})`);
    const parent = f.parent ? `${f.parent.hash}, ${mb(f.parent.bytes)}` : 'none saved';
    out.push(
      `| ${f.hash} (${f.category}) | ${mb(f.bytes)} | ${f.ms.toFixed(0)} ms | ${perKb(f)} | ${parent} | ${f.parent ? perKb(f.parent) : ''} | ${f.ratio === undefined ? '' : `${f.ratio.toFixed(1)}×`} | ${f.verdict ? `✗ ${f.verdict}` : '✓'} |`,
    );
  }
  return out.join('\n');
}

try {
  console.error(`fn: ${fnArgv.join(' ')}; families: ${families.join(', ')}; inputs in ${tmp}`);
  const rows = await benchFamilies();
  const tables = [
    `Adversarial families (bench/adversarial/), Node ${process.version}, fn = \`${fnSpec.join(' ')}\`; ${quick ? 'outcome only (quick mode)' : `wall time with process start, killed after ${timeoutS} s; targets: each ≤ ${target.s} s and ≤ ${target.rssMiB} MiB, growth ≤ ${target.growth} × the size ratio`}; NODE_EXTRA_CA_CERTS unset.`,
    '',
    familyTable(rows),
  ];
  if (replays) {
    tables.push(
      '',
      await replayCostFindings(),
      '',
      '| replay | measured | bound | |',
      '|---|---|---|---|',
      await replayBadInputs(),
    );
  }
  console.log(tables.join('\n'));
} catch (e) {
  problems.push(e.stack ?? String(e));
} finally {
  if (flag('--keep')) console.error(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
if (problems.length) {
  console.error(`\n${quick ? 'FAIL' : 'targets missed'}:\n- ${problems.join('\n- ')}`);
  if (quick || !flag('--no-fail')) process.exit(1);
}
