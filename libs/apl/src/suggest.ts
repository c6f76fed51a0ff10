/**
 * "Did you mean" hints: the closest candidate to a misspelled name. A case-insensitive exact match wins
 * (`Method` → `method`); otherwise the smallest Damerau-Levenshtein distance (optimal string alignment:
 * insert, delete, substitute, swap two adjacent characters), accepted only below a threshold that grows
 * with the length of the name, so short names are not "corrected" into unrelated ones.
 */

/** Optimal-string-alignment distance: Levenshtein plus transposition of adjacent characters. */
export function damerauLevenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const w = b.length + 1;
  // Three rolling rows: i-2, i-1, i.
  let prev2 = new Array<number>(w).fill(0);
  let prev = new Array<number>(w);
  let cur = new Array<number>(w);
  for (let j = 0; j < w; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length];
}

/** Largest distance still accepted as a typo of a name of this length. */
export function suggestionThreshold(length: number): number {
  if (length <= 2) return 0;
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return 3;
}

/**
 * The closest candidate when it is a plausible typo of `name`, else undefined. Case-insensitive exact
 * matches come first; ties on distance keep the earlier candidate (callers list likely names first).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const list = [...new Set(candidates)].filter((c) => c !== name);
  const caseOnly = list.find((c) => c.toLowerCase() === lower);
  if (caseOnly !== undefined) return caseOnly;
  const limit = suggestionThreshold(name.length);
  if (limit === 0) return undefined;
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of list) {
    // Cheap bound: the distance is at least the difference in length.
    if (Math.abs(c.length - name.length) > limit) continue;
    const d = damerauLevenshtein(lower, c.toLowerCase());
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return bestDist <= limit ? best : undefined;
}
