/**
 * `bucket [by t…] to d using fn(specs)` (README "Bucket"): groups series by tags and windows at once
 * and emits one series per (group, spec), the spec in tag `spec` (`p50`, `count`, …).
 *
 * Inputs, per group:
 * - histogram series: bucket vectors summed per window. `interpolate_cumulative_histogram` and
 *   `histogram` on cumulative series first turn each series into per-point deltas (a drop of the
 *   observation count is a reset: the point's own values are the delta; the first point has none).
 * - Prometheus-style scalar series tagged `le`: cumulative-by-bound counts per window, turned into
 *   buckets at the end (deltas over time first for the cumulative function).
 * - plain scalar series (`histogram` only): count/sum/avg/min/max of every sample; quantiles are exact
 *   quantiles of the pooled samples (linear between order statistics).
 */
import type { HistogramPoint } from '@quarry/contracts';
import type { BucketCall, BucketSpec } from '../syntax/ast';
import { groupKeyOf, pickTags, type Grid, type HistogramInput, type Scalar, type TagMap } from './frame';

export const SPEC_TAG = 'spec';

/** `p50`, `p99.9`, `count`, … */
export function specName(spec: BucketSpec): string {
  if (spec.kind !== 'quantile') return spec.kind;
  return 'p' + String(Number((spec.q * 100).toPrecision(12)));
}

/**
 * Prometheus `histogram_quantile` style: rank = q·Σc; first bucket whose cumulative count reaches the
 * rank; linear inside it from its lower bound (0 for the first bucket); the +Inf bucket answers the
 * largest finite bound. NaN when the histogram is empty.
 */
export function bucketQuantile(
  q: number,
  bounds: readonly number[],
  counts: Float64Array,
  offset = 0,
): number {
  const nb = bounds.length + 1;
  let total = 0;
  for (let j = 0; j < nb; j++) total += counts[offset + j];
  if (!(total > 0)) return NaN;
  const rank = q * total;
  let cum = 0;
  for (let j = 0; j < nb; j++) {
    const c = counts[offset + j];
    if (cum + c >= rank && c > 0) {
      if (j === bounds.length) return bounds.length > 0 ? bounds[bounds.length - 1] : NaN;
      const lo = j === 0 ? 0 : bounds[j - 1];
      const hi = bounds[j];
      return lo + ((hi - lo) * (rank - cum)) / c;
    }
    cum += c;
  }
  return bounds.length > 0 ? bounds[bounds.length - 1] : NaN;
}

/** Exact quantile of pooled samples, linear between order statistics. */
function pooledQuantile(q: number, samples: number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

class GroupAcc {
  bounds?: readonly number[];
  buckets?: Float64Array;
  readonly count: Float64Array;
  readonly sum: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly has: Uint8Array;
  /** `le` value → per-window summed (cumulative-by-bound) counts. */
  readonly le = new Map<number, Float64Array>();
  pooled?: number[][];

  constructor(
    readonly metric: string,
    readonly tags: TagMap,
    readonly n: number,
  ) {
    this.count = new Float64Array(n);
    this.sum = new Float64Array(n);
    this.min = new Float64Array(n).fill(NaN);
    this.max = new Float64Array(n).fill(NaN);
    this.has = new Uint8Array(n);
  }

  addMinMax(k: number, min: number | null, max: number | null): void {
    if (min !== null && !(this.min[k] <= min)) this.min[k] = min;
    if (max !== null && !(this.max[k] >= max)) this.max[k] = max;
  }

  /** Returns false when the bounds differ from the group's first histogram (the point is skipped). */
  addBuckets(
    k: number,
    bounds: readonly number[],
    counts: ArrayLike<number>,
    count: number,
    sum: number,
  ): boolean {
    if (!this.bounds) {
      this.bounds = bounds;
      this.buckets = new Float64Array(this.n * (bounds.length + 1));
    } else if (!sameBounds(this.bounds, bounds)) return false;
    const nb = bounds.length + 1;
    const base = k * nb;
    for (let j = 0; j < nb; j++) this.buckets![base + j] += counts[j];
    this.count[k] += count;
    this.sum[k] += sum;
    this.has[k] = 1;
    return true;
  }
}

function sameBounds(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function parseLe(tags: TagMap): number | undefined {
  const le = tags.le;
  if (!le) return undefined;
  if (le.type === 'int' || le.type === 'float') return le.value;
  if (le.type === 'string') {
    const s = le.value.trim();
    if (/^\+?inf$/i.test(s)) return Infinity;
    const v = Number(s);
    return s !== '' && Number.isFinite(v) ? v : undefined;
  }
  return undefined;
}

export interface BucketInput {
  histograms: HistogramInput[];
  scalars: Scalar[];
}

export function bucketSeries(
  input: BucketInput,
  grid: Grid,
  times: Float64Array,
  by: readonly string[],
  call: BucketCall,
  warnings: string[],
): Scalar[] {
  const n = grid.length;
  const groups = new Map<string, GroupAcc>();
  const accFor = (metric: string, tags: TagMap) => {
    const key = groupKeyOf(tags, by);
    let acc = groups.get(key);
    if (!acc) groups.set(key, (acc = new GroupAcc(metric, pickTags(tags, by), n)));
    return acc;
  };
  const windowOf = (t: number) => {
    const k = Math.floor((t - grid.start) / grid.resolution);
    return k >= 0 && k < n ? k : -1;
  };
  let boundsMismatch = false;
  const wantsPooled = call.specs.some((s) => s.kind === 'quantile');

  for (const h of input.histograms) {
    const acc = accFor(h.metric, h.tags);
    const cumulative =
      call.fn === 'interpolate_cumulative_histogram' ||
      (call.fn === 'histogram' && h.series.temporality === 'Cumulative');
    let prev: HistogramPoint | undefined;
    for (const p of h.series.points) {
      const k = windowOf(p.time);
      if (!cumulative) {
        if (k >= 0) {
          if (!acc.addBuckets(k, p.bounds, p.counts, p.count, p.sum)) boundsMismatch = true;
          else acc.addMinMax(k, p.min, p.max);
        }
        continue;
      }
      const before = prev;
      prev = p;
      if (!before || k < 0) continue;
      const reset = p.count < before.count || !sameBounds(p.bounds, before.bounds);
      if (reset) {
        if (!acc.addBuckets(k, p.bounds, p.counts, p.count, p.sum)) boundsMismatch = true;
        continue;
      }
      const deltas = new Float64Array(p.counts.length);
      for (let j = 0; j < deltas.length; j++) deltas[j] = Math.max(0, p.counts[j] - before.counts[j]);
      if (!acc.addBuckets(k, p.bounds, deltas, p.count - before.count, p.sum - before.sum))
        boundsMismatch = true;
    }
  }

  let plainIgnored = false;
  for (const s of input.scalars) {
    const acc = accFor(s.metric, s.tags);
    const le = parseLe(s.tags);
    if (le !== undefined) {
      let row = acc.le.get(le);
      if (!row) acc.le.set(le, (row = new Float64Array(n)));
      const cumulative = call.fn === 'interpolate_cumulative_histogram';
      let prev = NaN;
      for (let i = 0; i < s.times.length; i++) {
        const v = s.values[i];
        if (Number.isNaN(v)) continue;
        const before = prev;
        prev = v;
        const k = windowOf(s.times[i]);
        if (k < 0) continue;
        if (cumulative) {
          if (Number.isNaN(before)) continue;
          row[k] += v >= before ? v - before : v;
        } else row[k] += v;
        acc.has[k] = 1;
      }
      continue;
    }
    if (call.fn !== 'histogram') {
      plainIgnored = true;
      continue;
    }
    if (wantsPooled && !acc.pooled) acc.pooled = Array.from({ length: n }, () => []);
    for (let i = 0; i < s.times.length; i++) {
      const v = s.values[i];
      const k = windowOf(s.times[i]);
      if (Number.isNaN(v) || k < 0) continue;
      acc.count[k]++;
      acc.sum[k] += v;
      acc.addMinMax(k, v, v);
      acc.has[k] = 1;
      acc.pooled?.[k].push(v);
    }
  }
  if (boundsMismatch)
    warnings.push(
      'bucket: histograms with different bucket bounds in one group; points with other bounds were skipped',
    );
  if (plainIgnored)
    warnings.push(
      `bucket: ${call.fn} ignores series that are neither histograms nor "le"-tagged bucket series`,
    );

  const out: Scalar[] = [];
  const perSecond = call.mode === 'rate' ? 1 / grid.resolution : 1;
  for (const acc of groups.values()) {
    if (!acc.bounds && acc.le.size > 0) leToBuckets(acc);
    for (const spec of call.specs) {
      const values = new Float64Array(n).fill(NaN);
      for (let k = 0; k < n; k++) {
        if (!acc.has[k]) continue;
        values[k] = specValue(acc, spec, k, perSecond);
      }
      out.push({
        metric: acc.metric,
        tags: { ...acc.tags, [SPEC_TAG]: { type: 'string', value: specName(spec) } },
        times,
        values,
      });
    }
  }
  return out;
}

function specValue(acc: GroupAcc, spec: BucketSpec, k: number, perSecond: number): number {
  switch (spec.kind) {
    case 'count':
      return acc.count[k] * perSecond;
    case 'sum':
      return acc.sum[k] * perSecond;
    case 'avg':
      return acc.count[k] > 0 ? acc.sum[k] / acc.count[k] : NaN;
    case 'min':
      return acc.min[k];
    case 'max':
      return acc.max[k];
    case 'quantile':
      if (acc.bounds && acc.buckets)
        return bucketQuantile(spec.q, acc.bounds, acc.buckets, k * (acc.bounds.length + 1));
      if (acc.pooled) return pooledQuantile(spec.q, acc.pooled[k]);
      return NaN;
  }
}

/** Turns per-`le` cumulative-by-bound counts into a bucket vector per window; `sum` is unknown. */
function leToBuckets(acc: GroupAcc): void {
  const les = [...acc.le.keys()].sort((a, b) => a - b);
  const bounds = les.filter((b) => Number.isFinite(b));
  const nb = bounds.length + 1;
  acc.bounds = bounds;
  acc.buckets = new Float64Array(acc.n * nb);
  for (let k = 0; k < acc.n; k++) {
    if (!acc.has[k]) continue;
    let prevCum = 0;
    let top = 0;
    for (let j = 0; j < les.length; j++) {
      const cum = acc.le.get(les[j])![k];
      acc.buckets[k * nb + Math.min(j, nb - 1)] += Math.max(0, cum - prevCum);
      prevCum = Math.max(prevCum, cum);
      top = Math.max(top, cum);
    }
    acc.count[k] = top;
    acc.sum[k] = NaN;
  }
}
