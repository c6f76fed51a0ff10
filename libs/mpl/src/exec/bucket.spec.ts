import type { HistogramPoint, HistogramSeries, MetricTagValue } from '@quarry/contracts';
import type { BucketCall } from '../syntax/ast';
import { bucketQuantile, bucketSeries, specName } from './bucket';
import { epochGrid, gridTimes, type HistogramInput, type Scalar } from './frame';

const N = NaN;
const str = (value: string): MetricTagValue => ({ type: 'string', value });
const span = { start: 0, end: 0, line: 1, column: 1 };
const BOUNDS = [1, 2, 4];

function point(
  time: number,
  counts: number[],
  sum: number,
  min: number | null = null,
  max: number | null = null,
): HistogramPoint {
  return { time, count: counts.reduce((a, b) => a + b, 0), sum, min, max, bounds: BOUNDS, counts };
}

function hist(
  tags: Record<string, string>,
  temporality: 'Delta' | 'Cumulative',
  points: HistogramPoint[],
): HistogramInput {
  const t = Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, str(v)]));
  const series: HistogramSeries = { kind: 'histogram', metric: 'h', tags: t, temporality, points };
  return { series, metric: 'h', tags: t, subKinds: ['count', 'sum', 'min', 'max'] };
}

function call(fn: BucketCall['fn'], specs: BucketCall['specs'], mode?: 'rate' | 'increase'): BucketCall {
  return { fn, mode, specs, span };
}

function run(
  input: { histograms?: HistogramInput[]; scalars?: Scalar[] },
  c: BucketCall,
  by: string[] = [],
  end = 120,
) {
  const grid = epochGrid({ start: 0, end }, 60);
  const warnings: string[] = [];
  const out = bucketSeries(
    { histograms: input.histograms ?? [], scalars: input.scalars ?? [] },
    grid,
    gridTimes(grid),
    by,
    c,
    warnings,
  );
  return {
    out: out.map((s) => ({
      tags: Object.fromEntries(Object.entries(s.tags).map(([k, v]) => [k, v?.value ?? null])),
      values: Array.from(s.values),
    })),
    warnings,
  };
}

describe('MPL bucket', () => {
  it('names specs p50 / p99.9 / count', () => {
    expect(specName({ kind: 'quantile', q: 0.5 })).toBe('p50');
    expect(specName({ kind: 'quantile', q: 0.999 })).toBe('p99.9');
    expect(specName({ kind: 'count' })).toBe('count');
  });

  it('interpolates quantiles Prometheus-style', () => {
    const counts = Float64Array.from([2, 2, 0, 4]); // (0,1] (1,2] (2,4] (4,+Inf)
    expect(bucketQuantile(0.25, BOUNDS, counts)).toBe(1); // rank 2 → end of first bucket
    expect(bucketQuantile(0.375, BOUNDS, counts)).toBe(1.5); // rank 3 → half of (1,2]
    expect(bucketQuantile(0.1, BOUNDS, counts)).toBeCloseTo(0.4); // first bucket starts at 0
    expect(bucketQuantile(0.9, BOUNDS, counts)).toBe(4); // +Inf bucket → largest bound
    expect(bucketQuantile(0.5, BOUNDS, Float64Array.from([0, 0, 0, 0]))).toBeNaN();
  });

  it('sums delta histograms per group and window, with min/max from the points', () => {
    const a = hist({ q: 'a' }, 'Delta', [
      point(10, [1, 1, 0, 0], 2, 0.5, 1.5),
      point(20, [0, 2, 0, 0], 3, 1.2, 1.8),
      point(70, [0, 0, 0, 0], 0),
    ]);
    const b = hist({ q: 'b' }, 'Delta', [point(30, [0, 0, 4, 0], 12, 3, 3.5)]);
    const { out } = run(
      { histograms: [a, b] },
      call('interpolate_delta_histogram', [
        { kind: 'count' },
        { kind: 'min' },
        { kind: 'max' },
        { kind: 'avg' },
        { kind: 'quantile', q: 0.5 },
      ]),
    );
    expect(out).toEqual([
      { tags: { spec: 'count' }, values: [8, 0] },
      { tags: { spec: 'min' }, values: [0.5, N] },
      { tags: { spec: 'max' }, values: [3.5, N] },
      { tags: { spec: 'avg' }, values: [17 / 8, N] },
      // counts [1,3,4,0], rank 4 → end of (1,2]
      { tags: { spec: 'p50' }, values: [2, N] },
    ]);
  });

  it('differences cumulative histograms, treating a count drop as a reset; rate divides by the window', () => {
    const h = hist({ s: 'x' }, 'Cumulative', [
      point(0, [1, 0, 0, 0], 1), // first point: no delta
      point(30, [3, 1, 0, 0], 4), // +2,+1 → count 3, sum 3
      point(70, [3, 3, 0, 0], 8), // +0,+2 → count 2, sum 4
      point(90, [0, 1, 0, 0], 2), // reset: own values → count 1, sum 2
    ]);
    const inc = run(
      { histograms: [h] },
      call(
        'interpolate_cumulative_histogram',
        [{ kind: 'count' }, { kind: 'sum' }, { kind: 'quantile', q: 0.5 }],
        'increase',
      ),
      ['s'],
    );
    expect(inc.out).toEqual([
      { tags: { s: 'x', spec: 'count' }, values: [3, 3] },
      { tags: { s: 'x', spec: 'sum' }, values: [3, 6] },
      { tags: { s: 'x', spec: 'p50' }, values: [0.75, 1.5] },
    ]);
    const rate = run(
      { histograms: [h] },
      call('interpolate_cumulative_histogram', [{ kind: 'count' }], 'rate'),
    );
    expect(rate.out[0].values).toEqual([3 / 60, 3 / 60]);
  });

  it('reads Prometheus-style le-tagged bucket series', () => {
    const le = (bound: string, values: number[]): Scalar => ({
      metric: 'b',
      tags: { le: str(bound) },
      times: Float64Array.from([10, 20]),
      values: Float64Array.from(values),
    });
    const { out } = run(
      { scalars: [le('1', [1, 1]), le('2', [2, 3]), le('+Inf', [3, 4])] },
      call('interpolate_delta_histogram', [{ kind: 'count' }, { kind: 'quantile', q: 0.5 }]),
    );
    // cumulative-by-bound: le1 = 2, le2 = 5, +Inf = 7 → buckets [2, 3, 2]; rank 3.5 → 1 + 1·1.5/3
    expect(out).toEqual([
      { tags: { spec: 'count' }, values: [7, N] },
      { tags: { spec: 'p50' }, values: [1.5, N] },
    ]);
  });

  it('histogram() on plain series pools every sample of the group', () => {
    const plain = (v: number[]): Scalar => ({
      metric: 'p',
      tags: {},
      times: Float64Array.from([0, 30]),
      values: Float64Array.from(v),
    });
    const { out } = run(
      { scalars: [plain([1, 3]), plain([5, N])] },
      call('histogram', [
        { kind: 'count' },
        { kind: 'sum' },
        { kind: 'avg' },
        { kind: 'max' },
        { kind: 'quantile', q: 0.5 },
      ]),
    );
    expect(out.map((s) => s.values[0])).toEqual([3, 9, 3, 5, 3]);
  });

  it('warns when interpolate functions get plain series', () => {
    const plain: Scalar = {
      metric: 'p',
      tags: {},
      times: Float64Array.from([0]),
      values: Float64Array.from([1]),
    };
    expect(
      run({ scalars: [plain] }, call('interpolate_delta_histogram', [{ kind: 'count' }])).warnings[0],
    ).toContain('ignores series');
  });
});
