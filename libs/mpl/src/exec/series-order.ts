import type { TagMap } from './frame';

/**
 * Series in one order whatever order the store read them in (blocks, tail, which node): by their tags.
 * The output order derives from it (groups are made in series order), so a query answers in the same
 * order on one node and split over several (series-split.ts).
 */
export function sortBySeries(series: { tags: TagMap }[]): void {
  if (series.length > 1) series.sort((a, b) => compareSeriesTags(a.tags, b.tags));
}

/**
 * Tag by tag in name order (the union of both sets): a series without a tag comes before one with it;
 * values compare as numbers when both are numbers, else as text.
 */
export function compareSeriesTags(a: TagMap, b: TagMap): number {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const name of names) {
    const x = a[name];
    const y = b[name];
    if (x === undefined || y === undefined || x === null || y === null) {
      if (x == null && y == null) continue;
      return x == null ? -1 : 1;
    }
    const c =
      typeof x.value === 'number' && typeof y.value === 'number'
        ? x.value - y.value
        : String(x.value) < String(y.value)
          ? -1
          : String(x.value) > String(y.value)
            ? 1
            : 0;
    if (c !== 0) return c;
  }
  return 0;
}
