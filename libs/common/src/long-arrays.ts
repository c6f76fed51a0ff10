/**
 * Arrays known to hold `long` elements only.
 *
 * Kusto's dynamic values keep each element's type, so `dynamic([1, 2])` holds longs and `dynamic([1.0,
 * 2.0])` reals, and some series functions answer by that type: `series_fill_linear` of a long series
 * truncates what it interpolates (its page: `[null, 111, null, 36]` fills 73, where the real series fills
 * 73.5). A JS number has no such type, so the sources that know it remember the array here: a `dynamic(...)`
 * literal whose numbers are all written as integers, and `make-series` of an aggregate typed long
 * (`count()`, `dcount`, `sum` of longs). An array from anywhere else (stored events, `parse_json`,
 * computed series) is not marked and counts as real. The mark belongs to the array object: a copy, or an
 * array that crossed to another thread, is unmarked.
 */
const longArrays = new WeakSet<readonly unknown[]>();

/** Marks `array` as holding longs only, and returns it. */
export function markLongArray<T extends readonly unknown[]>(array: T): T {
  longArrays.add(array);
  return array;
}

export function isLongArray(value: unknown): boolean {
  return Array.isArray(value) && longArrays.has(value);
}
