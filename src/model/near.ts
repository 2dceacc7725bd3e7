// "Did you mean": how near two words are, for misspelt kinds, names, commands, flags and options.

/**
 * Longest word compared: a Kubernetes name is at most 253 characters, and the distance costs the
 * product of the lengths, so words from untrusted input longer than this are never near.
 */
const longest = 253;

/**
 * The two rows of the distance table, shared by every call (none is re-entered): the near-name
 * lint compares thousands of names, and a fresh row per character cost 14 MB on a 10k-item run.
 */
let previous = new Uint16Array(longest + 1);
let current = new Uint16Array(longest + 1);

/** Edit distance, stopping early past `max` (then any result above `max`: only "past it" is meant). */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || a.length > longest || b.length > longest) {
    return max + 1;
  }
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    const char = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = char === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length] as number;
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
