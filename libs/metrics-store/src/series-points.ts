import { internal } from '@quarry/common';
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
  // Loops, not push(...piece): spreading a piece of more than ~120k points overflows the stack.
  const times: number[] = [];
  for (const piece of pieces) for (const t of piece.times) times.push(t);
  if (first.kind === 'scalar') {
    const values: number[] = [];
    for (const piece of pieces) if (piece.kind === 'scalar') for (const v of piece.values) values.push(v);
    return normalizeSeries({ ...first, times, values });
  }
  const points: HistogramPoint[] = [];
  for (const piece of pieces) if (piece.kind === 'histogram') for (const p of piece.points) points.push(p);
  return normalizeSeries({ ...first, times, points });
}

/**
 * A scalar series' pieces (arrival order, each normalized) as typed arrays. Pieces of blocks and the
 * tail usually follow each other in time; then they are copied once, without the sort of `mergePieces`,
 * which is most of the cost of a long-range read.
 */
export function scalarColumns(pieces: readonly BlockSeries[]): { times: Float64Array; values: Float64Array } {
  let n = 0;
  let ordered = true;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.kind !== 'scalar') ordered = false;
    if (i > 0 && !(piece.times[0] > lastTime(pieces[i - 1]))) ordered = false;
    n += piece.times.length;
  }
  if (!ordered) {
    const merged = mergePieces(pieces);
    if (merged.kind !== 'scalar') throw internal('scalarColumns needs scalar pieces');
    return { times: Float64Array.from(merged.times), values: Float64Array.from(merged.values) };
  }
  const times = new Float64Array(n);
  const values = new Float64Array(n);
  let at = 0;
  for (const piece of pieces) {
    if (piece.kind !== 'scalar') continue;
    times.set(piece.times, at);
    values.set(piece.values, at);
    at += piece.times.length;
  }
  return { times, values };
}

const lastTime = (series: BlockSeries): number => series.times[series.times.length - 1];

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
