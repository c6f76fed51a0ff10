/**
 * `align to d using f` (README "Align"): one value per epoch-aligned window from the non-gap samples
 * in it; empty window = gap (also for `count`). `prom::rate` sums the increases of consecutive sample
 * pairs whose later sample lies in the window (a drop counts the new value: counter reset) and divides
 * by the window length, so adjacent windows add up to the total increase.
 */
import type { AlignFunction } from '../syntax/stdlib';
import type { Grid } from './frame';

/** Hot loop over typed arrays; `acc`/`cnt` avoid per-window objects. */
export function alignValues(
  times: Float64Array,
  values: Float64Array,
  grid: Grid,
  fn: AlignFunction,
): Float64Array {
  const n = grid.length;
  const out = new Float64Array(n).fill(NaN);
  const acc = new Float64Array(n);
  const cnt = new Float64Array(n);
  const { start, resolution } = grid;
  let prev = NaN;
  for (let i = 0; i < times.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    const idx = Math.floor((times[i] - start) / resolution);
    if (fn === 'prom::rate') {
      const hadPrev = !Number.isNaN(prev);
      const increase = hadPrev ? (v >= prev ? v - prev : v) : 0;
      prev = v;
      if (!hadPrev || idx < 0 || idx >= n) continue;
      acc[idx] += increase;
      cnt[idx]++;
      continue;
    }
    if (idx < 0 || idx >= n) continue;
    switch (fn) {
      case 'min':
        if (!(out[idx] <= v)) out[idx] = v;
        break;
      case 'max':
        if (!(out[idx] >= v)) out[idx] = v;
        break;
      case 'last':
        out[idx] = v;
        break;
      default:
        acc[idx] += v;
    }
    cnt[idx]++;
  }
  if (fn === 'min' || fn === 'max' || fn === 'last') return out;
  for (let k = 0; k < n; k++) {
    if (cnt[k] === 0) continue;
    out[k] =
      fn === 'sum' ? acc[k] : fn === 'avg' ? acc[k] / cnt[k] : fn === 'count' ? cnt[k] : acc[k] / resolution;
  }
  return out;
}
