// The fuzzer's cost oracle, for `npm run fuzz` and the benchmark's replay (cost.replay.ts), never
// for `npm test`: a time is no test result, a busy machine would fail it. A mutant is a finding
// when its time per KB is at least `costRatio` times its parent's (the input it was mutated from)
// and it takes at least `costFloorMs` ('cost'), or when it takes `slowMs` or more whatever its
// parent ('slow': a reader linear but slow). Every time is the minimum of 3 runs of run() in this
// process, warm as the fuzzer is: a scan that restarts per line or per document shows as a ratio
// that grows with the input, while noise and a GC pause do not survive the minimum. A small
// parent's fixed cost per run weighs on its time per KB, so the ratio rather understates how much
// worse the mutant scales.
import { hashOf, type Problem, timedRun } from './check.js';

export const costRatio = 20;
export const costFloorMs = 100;
export const slowMs = 2_000;

export interface Timing {
  /** The minimum of 3 runs. */
  ms: number;
  bytes: number;
}

/** Time per KB; inputs under 1 KB count as 1 KB, so that a tiny parent's ratio stays finite. */
export const perKb = (t: Timing) => t.ms / Math.max(t.bytes / 1024, 1);

/** The minimum of 3 runs of run(text); `first`, when given, is one already made. */
export function timing(text: string, first?: number): Timing {
  const ms = [first ?? timedRun(text).ms, timedRun(text).ms, timedRun(text).ms];
  return { ms: Math.min(...ms), bytes: Buffer.byteLength(text) };
}

/** The oracle's verdict on timings (it reads no clock: check.test.ts gives it numbers). */
export function costVerdict(
  mutant: Timing,
  parent: Timing | undefined,
): 'cost' | 'slow' | undefined {
  if (parent && mutant.ms >= costFloorMs && perKb(mutant) >= costRatio * perKb(parent)) {
    return 'cost';
  }
  return mutant.ms >= slowMs ? 'slow' : undefined;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line: the timings that made (or would make) the verdict. */
export function costDetail(mutant: Timing, parent: Timing | undefined, parentHash = ''): string {
  const own = `${kb(mutant.bytes)} in ${Math.round(mutant.ms)} ms`;
  if (!parent) return `${own}, minimum of 3 runs; no parent saved (bound ${slowMs} ms)`;
  const ratio = perKb(mutant) / perKb(parent);
  return `time per KB ${ratio.toFixed(1)}× its parent's (${own}; parent ${parentHash}, ${kb(parent.bytes)} in ${parent.ms.toFixed(parent.ms < 10 ? 2 : 0)} ms; minimum of 3 runs each; a finding from ${costRatio}× and ${costFloorMs} ms, or from ${slowMs} ms)`;
}

/**
 * Timing findings are told apart by the shape of their longest line (letters and digits as `a`,
 * repeats as `…`): the costly part of a mutant is mostly one long line (a nesting, a run of
 * spaces), and mutations that make the same one are likely the same bug. Known findings are
 * recognised by their saved text.
 */
export function costSignature(category: string, text: string): string {
  let longest = '';
  for (const line of text.split('\n')) if (line.length > longest.length) longest = line;
  const shape = longest
    .trim()
    .replace(/[\w./-]+/g, 'a')
    .replace(/(.{1,8}?)\1+/g, '$1…')
    .slice(0, 40);
  return `${category}|${shape}`;
}

/** A saved finding's timing signature, when it is a timing finding. */
export function savedCostSignature(f: { text: string; description: string }): string | undefined {
  const category = /^(cost|slow): /.exec(f.description)?.[1];
  return category && costSignature(category, f.text);
}

/** A timing finding: described as one (`cost: …`, `slow: …`). */
export const isCostFinding = (description: string) => /^(cost|slow): /.test(description);

const parentTimings = new Map<string, Timing>();

/**
 * The oracle on a mutant whose first run (clean, `firstMs`) is known, made from `parent`. Most
 * mutants cost nothing more: one run bounds the minimum of 3 from above, so only a first run past
 * the thresholds is measured again, with its parent.
 */
export function costProblem(text: string, firstMs: number, parent: string): Problem | undefined {
  if (firstMs < costFloorMs) return undefined;
  let before = parentTimings.get(parent);
  if (!before) {
    before = timing(parent);
    if (parentTimings.size >= 10_000) parentTimings.clear();
    parentTimings.set(parent, before);
  }
  if (!costVerdict({ ms: firstMs, bytes: Buffer.byteLength(text) }, before)) return undefined;
  const now = timing(text, firstMs);
  const verdict = costVerdict(now, before);
  if (!verdict) return undefined;
  return {
    category: verdict,
    detail: costDetail(now, before, hashOf(parent)),
    signature: costSignature(verdict, text),
  };
}

export interface CostReplay {
  hash: string;
  category: string;
  bytes: number;
  ms: number;
  parent?: Timing & { hash: string };
  ratio?: number;
  /** Set when the finding still is one. */
  verdict?: string;
  detail: string;
}

/**
 * A saved timing finding and its parent timed again, after warm-up runs of each (the fuzzer's
 * process is warm: a cold parent would look slower per KB and hide the ratio).
 */
export function replayCost(f: {
  hash: string;
  text: string;
  description: string;
  parent?: string;
}): CostReplay {
  for (let k = 0; k < 10 && f.parent !== undefined; k++) timedRun(f.parent);
  timedRun(f.text);
  const before = f.parent === undefined ? undefined : timing(f.parent);
  const now = timing(f.text);
  const parentHash = f.parent === undefined ? '' : hashOf(f.parent);
  const verdict = costVerdict(now, before);
  return {
    hash: f.hash,
    category: f.description.split(':')[0] as string,
    bytes: now.bytes,
    ms: now.ms,
    ...(before
      ? { parent: { ...before, hash: parentHash }, ratio: perKb(now) / perKb(before) }
      : {}),
    ...(verdict ? { verdict } : {}),
    detail: costDetail(now, before, parentHash),
  };
}
