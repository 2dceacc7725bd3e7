// "Did you mean": how near two words are, for misspelt kinds, names, commands, flags and options.

/**
 * Longest word compared: a Kubernetes name is at most 253 characters, and the distance costs the
 * product of the lengths, so words from untrusted input longer than this are never near.
 */
const longest = 253;

/** Edit distance, stopping early past `max` (a result above `max` is `max + 1`). */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || a.length > longest || b.length > longest) {
    return max + 1;
  }
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
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
