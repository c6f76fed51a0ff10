import type { HistogramPoint } from '@quarry/contracts';
import type { BlockSeries } from './point-block';

/**
 * Sorts a series' points by time and keeps the last point received for each second (OTLP timestamps
 * are truncated to seconds, and a re-sent point replaces the earlier one).
 */
export function normalizeSeries(series: BlockSeries): BlockSeries {
  const order = series.times.map((_, i) => i);
  // Stable sort: equal times keep arrival order, so "last wins" below keeps the latest arrival.
  order.sort((a, b) => series.times[a] - series.times[b]);
  const keep: number[] = [];
  for (const i of order) {
    if (keep.length > 0 && series.times[keep[keep.length - 1]] === series.times[i]) keep[keep.length - 1] = i;
    else keep.push(i);
  }
  const times = keep.map((i) => series.times[i]);
  if (series.kind === 'scalar') return { ...series, times, values: keep.map((i) => series.values[i]) };
  return { ...series, times, points: keep.map((i) => series.points[i]) };
}

/** Concatenates pieces of one series (in arrival order) and normalizes the result. */
export function mergePieces(pieces: readonly BlockSeries[]): BlockSeries {
  if (pieces.length === 1) return pieces[0];
  const first = pieces[0];
  const times: number[] = [];
  if (first.kind === 'scalar') {
    const values: number[] = [];
    for (const piece of pieces) {
      if (piece.kind !== 'scalar') continue;
      times.push(...piece.times);
      values.push(...piece.values);
    }
    return normalizeSeries({ ...first, times, values });
  }
  const points: HistogramPoint[] = [];
  for (const piece of pieces) {
    if (piece.kind !== 'histogram') continue;
    times.push(...piece.times);
    points.push(...piece.points);
  }
  return normalizeSeries({ ...first, times, points });
}

/** The part of a (sorted) series inside `[start, end)`, or null when none of it is. */
export function sliceSeries(series: BlockSeries, start: number, end: number): BlockSeries | null {
  const from = lowerBound(series.times, start);
  const to = lowerBound(series.times, end);
  if (from >= to) return null;
  if (from === 0 && to === series.times.length) return series;
  const times = series.times.slice(from, to);
  if (series.kind === 'scalar') return { ...series, times, values: series.values.slice(from, to) };
  return { ...series, times, points: series.points.slice(from, to) };
}

function lowerBound(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
