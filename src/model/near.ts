// "Did you mean": how near two words are, for misspelt kinds, names, commands, flags and options.

/**
 * Longest word compared: a Kubernetes name is at most 253 characters, and the distance costs up
 * to the product of the lengths, so words from untrusted input longer than this are never near.
 */
const longest = 253;

/**
 * The two rows of the distance table, shared by every call (none is re-entered): the near-name
 * lint compares thousands of names, and a fresh row per character cost 14 MB on a 10k-item run.
 */
let previous = new Uint16Array(longest + 1);
let current = new Uint16Array(longest + 1);

/**
 * Edit distance, stopping early past `max` (then any result above `max`: only "past it" is meant).
 * Only the cells within `max` of the diagonal are computed: a cell further off is more than `max`
 * edits on every path through it, and taken as `max + 1` it changes no distance up to `max` (a
 * misspelt name of 25 characters: 125 cells, not 625). Below the optimising compiler, as a run's
 * few hundred distances are, each cell is a dozen bytecodes: the least of three by comparisons,
 * not Math.min, which was a call per cell there.
 */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || a.length > longest || b.length > longest) {
    return max + 1;
  }
  const past = Math.min(max + 1, longest + 1);
  const width = Math.min(max, b.length);
  for (let j = 0; j <= width; j++) previous[j] = j;
  if (width < b.length) previous[width + 1] = past;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - max);
    const high = Math.min(b.length, i + max);
    // Left of the band: as far as the cells beyond its right edge, set below.
    current[low - 1] = low === 1 ? i : past;
    let best = current[low - 1] as number;
    const char = a.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      let value = (previous[j - 1] as number) + (char === b.charCodeAt(j - 1) ? 0 : 1);
      const above = (previous[j] as number) + 1;
      if (above < value) value = above;
      const left = (current[j - 1] as number) + 1;
      if (left < value) value = left;
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    if (high < b.length) current[high + 1] = past;
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length] as number;
}

/**
 * Whether two words differ only by two neighbouring characters swapped (`vault`, `vautl`): the
 * commonest typo, two edits to `distance`, where a short word is allowed one.
 */
export function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i + 1 >= a.length) return false;
  if (a.charCodeAt(i) !== b.charCodeAt(i + 1) || a.charCodeAt(i + 1) !== b.charCodeAt(i)) {
    return false;
  }
  return a.slice(i + 2) === b.slice(i + 2);
}

/**
 * The candidate nearest to `word` within `max` edits (case-insensitive), or undefined; among
 * equally near ones the first in `candidates`, so the answer is deterministic.
 */
export function nearest(word: string, candidates: Iterable<string>, max = 2): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase(), max);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
