// Mutation fuzzing of run(): mutants of valid inputs (seeds.ts, mutate.ts) checked against the
// invariants in check.ts. `npm run fuzz` (vitest, test/fuzz/vitest.config.ts); environment:
//   FUZZ_MINUTES  how long to run (default 10; CI runs 1)
//   FUZZ_SEED     the run's seed (printed at the start; default from the clock): replays a run
//   FUZZ_RUNS     stop after this many mutants (with FUZZ_SEED: an exact replay)
//   FUZZ_DUMP     case numbers, comma-separated: with FUZZ_SEED, replays up to the last of them
//                 (a case's mutant depends on the corpus the cases before it built) and writes
//                 each one's mutant, unminimised, to $TMPDIR/fuzz-<seed>-<case>.yaml
// A replay is exact with the src/ and test/fuzz/ of the run: what joins the corpus depends on the
// function's output and the checker's verdicts (and on time only through the cost oracle).
// A mutant breaking an invariant with a new signature is minimised (whole lines removed while the
// problem stays) and saved as test/fuzz/findings/<hash>.yaml plus <hash>.txt (one line);
// test/fuzz/regressions.test.ts, in `npm test`, replays every saved finding. The cost oracle
// (cost.ts) judges the time of mutants that break nothing: one whose time per KB is far above its
// parent's, or that is slow outright, is saved whole (`cost: …` or `slow: …`) with its parent as
// <hash>.parent; `npm test` replays it for the invariants only, `npm run bench` times it again
// against that parent (cost.replay.ts). The run fails when it
// found something new; problems of findings already saved are counted, not saved again: the first
// input of each such signature goes to $TMPDIR/fuzz-<seed>-<case>.yaml, named in the summary.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  check,
  inspect,
  loadFindings,
  minimise,
  type Problem,
  saveFinding,
  stats,
} from './check.js';
import { costProblem, savedCostSignature } from './cost.js';
import { caseSeed, mutate, Rng } from './mutate.js';
import { loadSeeds } from './seeds.js';

const minutes = Number(process.env.FUZZ_MINUTES ?? 10);
const dump = new Set(
  (process.env.FUZZ_DUMP ?? '')
    .split(',')
    .filter((n) => n.trim() !== '')
    .map(Number),
);
const maxCases = process.env.FUZZ_RUNS
  ? Number(process.env.FUZZ_RUNS)
  : dump.size > 0
    ? Math.max(...dump) + 1
    : Number.POSITIVE_INFINITY;
const seed = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED) >>> 0
  : (Date.now() ^ (process.pid << 16)) >>> 0;
/** Saved per run at most, per category and in all: the rest are counted. */
const maxPerCategory = 6;
const maxSaved = 30;
const corpusCap = 3000;
const log = (line: string) => console.log(`fuzz: ${line}`);

/** What a run reported, roughly: a mutant reporting something new joins the corpus. */
function features(out: { exitCode: number; stdout: string; stderr: string }): string[] {
  const tail = out.stdout.slice(Math.max(0, out.stdout.lastIndexOf('\nresults:')));
  const messages = [
    ...out.stderr.split('\n'),
    ...[...tail.matchAll(/message: (.*)/g)].map((m) => m[1] as string),
  ];
  return messages
    .filter((m) => m.trim() !== '')
    .map(
      (m) =>
        `${out.exitCode} ${m
          .slice(0, 300)
          .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, 'Q')
          .replace(/\([^)]*\)/g, '(P)')
          .replace(/[0-9a-f]{12,}/g, 'H')
          .replace(/\d+/g, 'N')
          .slice(0, 100)}`,
    );
}

it(`fuzz for ${minutes} min`, async () => {
  log(
    `FUZZ_SEED=${seed} FUZZ_MINUTES=${minutes}${Number.isFinite(maxCases) ? ` FUZZ_RUNS=${maxCases}` : ''}`,
  );
  const seeds = loadSeeds();
  const corpus = seeds.map((s) => s.text);
  const seen = new Set<string>();
  for (const s of seeds) {
    const { problem, out } = inspect(s.text);
    if (problem) log(`seed ${s.name} breaks an invariant: ${problem.detail}`);
    if (out?.exitCode === 0 && out.stdout !== s.text) corpus.push(out.stdout);
    if (out) for (const f of features(out)) seen.add(f);
  }

  // Problems of the findings already saved: hit again, they are counted, not saved again.
  const known = new Map<string, string>();
  for (const f of loadFindings()) {
    const p = check(f.text);
    if (p) known.set(p.signature, f.hash);
    const cost = savedCostSignature(f);
    if (cost) known.set(cost, f.hash);
  }
  log(`${seeds.length} seeds, corpus ${corpus.length}, ${known.size} known problems`);

  /** Per signature: hits, the first one's problem and case, and where its input went. */
  const hits = new Map<
    string,
    { count: number; problem: Problem; first: number; hash?: string; file?: string }
  >();
  const perCategory = new Map<string, number>();
  const fresh: string[] = [];
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const runsBefore = stats.runs;
  let cases = 0;
  let nextReport = started + 30_000;
  let nextYield = started;
  while (cases < maxCases && Date.now() < deadline) {
    const n = cases++;
    const caseStarted = Date.now();
    const rng = new Rng(caseSeed(seed, n));
    const base = rng.chance(0.3) ? rng.pick(seeds).text : rng.pick(corpus);
    const { text, applied } = mutate(base, { rng, other: () => rng.pick(corpus) });
    const inspected = inspect(text);
    const { out, ms } = inspected;
    const problem =
      inspected.problem ?? (ms === undefined ? undefined : costProblem(text, ms, base));
    if (dump.has(n)) {
      const file = path.join(tmpdir(), `fuzz-${seed}-${n}.yaml`);
      writeFileSync(file, text);
      log(
        `case ${n} (${applied.join(', ')}): ${problem?.detail ?? 'no problem'}; written to ${file}`,
      );
    }
    if (out && !problem && text.length < 200_000) {
      const novel = features(out).filter((f) => !seen.has(f));
      if (novel.length > 0 && (out.exitCode === 0 || rng.chance(0.3))) {
        for (const f of novel) seen.add(f);
        if (corpus.length < corpusCap) corpus.push(text);
        else corpus[seeds.length + rng.int(corpusCap - seeds.length)] = text;
      }
    }
    if (problem) {
      const hit = hits.get(problem.signature) ?? { count: 0, problem, first: n };
      hit.count++;
      hits.set(problem.signature, hit);
      const category = perCategory.get(problem.category) ?? 0;
      if (
        hit.count === 1 &&
        !known.has(problem.signature) &&
        category < maxPerCategory &&
        fresh.length < maxSaved
      ) {
        perCategory.set(problem.category, category + 1);
        const timing = problem.category === 'cost' || problem.category === 'slow';
        const small = minimise(text, problem);
        const found = (!timing && check(small)) || problem;
        const hash = saveFinding(
          small,
          `${found.category}: ${found.detail} (FUZZ_SEED=${seed} case ${n}: ${applied.join(', ')})`,
          timing ? base : undefined,
        );
        hit.hash = hash;
        known.set(problem.signature, hash);
        known.set(found.signature, hash);
        fresh.push(hash);
        log(`finding ${hash}: ${found.category}: ${found.detail.slice(0, 200)}`);
      } else if (hit.count === 1) {
        // Not saved (a known signature, or past the caps): the input, for triage.
        hit.file = path.join(tmpdir(), `fuzz-${seed}-${n}.yaml`);
        writeFileSync(hit.file, text);
      }
    }
    if (Date.now() - caseStarted > 10_000) {
      log(
        `case ${n} took ${Date.now() - caseStarted} ms (${text.length} chars: ${applied.join(', ')})`,
      );
    }
    if (Date.now() >= nextYield) {
      // Lets vitest pass on the log lines while the loop runs.
      nextYield = Date.now() + 1000;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (Date.now() >= nextReport) {
      nextReport += 30_000;
      const s = (Date.now() - started) / 1000;
      log(
        `${Math.round(s)} s: ${cases} mutants (${Math.round(cases / s)}/s), ${stats.runs - runsBefore} runs, corpus ${corpus.length}, ${hits.size} problem signatures`,
      );
    }
  }

  const seconds = (Date.now() - started) / 1000;
  const runs = stats.runs - runsBefore;
  log(
    `done: ${cases} mutants in ${Math.round(seconds)} s (${Math.round(cases / seconds)} mutants/s), ${runs} run() calls (${Math.round(runs / seconds)}/s), corpus ${corpus.length}`,
  );
  for (const [signature, hit] of [...hits].sort((a, b) => b[1].count - a[1].count)) {
    const where = hit.hash ?? known.get(signature) ?? 'not saved';
    log(
      `  ${hit.count}× [${where}] first case ${hit.first}${hit.file ? ` (${hit.file})` : ''}: ${hit.problem.category}: ${hit.problem.detail.slice(0, 160)}`,
    );
  }
  expect(fresh, `new findings in test/fuzz/findings (FUZZ_SEED=${seed})`).toEqual([]);
});
