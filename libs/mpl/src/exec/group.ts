/**
 * `group [by t…] using f` (README "Group"): per grid slot over the non-gap values of the series that
 * share the `by` tag values. Output tags are exactly the `by` tags (a missing tag is null).
 */
import type { GroupFunction } from '../syntax/stdlib';
import { groupKeyOf, pickTags, type Grid, type Scalar } from './frame';

export function groupScalars(
  scalars: Scalar[],
  grid: Grid,
  times: Float64Array,
  by: readonly string[],
  fn: GroupFunction,
): Scalar[] {
  const n = grid.length;
  interface Acc {
    out: Scalar;
    acc: Float64Array;
    cnt: Float64Array;
  }
  const groups = new Map<string, Acc>();
  for (const s of scalars) {
    const key = groupKeyOf(s.tags, by);
    let g = groups.get(key);
    if (!g) {
      const values = new Float64Array(n).fill(NaN);
      g = {
        out: { metric: s.metric, tags: pickTags(s.tags, by), times, values },
        acc: new Float64Array(n),
        cnt: new Float64Array(n),
      };
      groups.set(key, g);
    }
    const { acc, cnt } = g;
    const out = g.out.values;
    const vs = s.values;
    for (let k = 0; k < n; k++) {
      const v = vs[k];
      if (Number.isNaN(v)) continue;
      if (fn === 'min') {
        if (!(out[k] <= v)) out[k] = v;
      } else if (fn === 'max') {
        if (!(out[k] >= v)) out[k] = v;
      } else acc[k] += v;
      cnt[k]++;
    }
  }
  const result: Scalar[] = [];
  for (const g of groups.values()) {
    if (fn === 'sum' || fn === 'avg' || fn === 'count') {
      const out = g.out.values;
      for (let k = 0; k < n; k++) {
        if (g.cnt[k] === 0) continue;
        out[k] = fn === 'sum' ? g.acc[k] : fn === 'avg' ? g.acc[k] / g.cnt[k] : g.cnt[k];
      }
    }
    result.push(g.out);
  }
  return result;
}
