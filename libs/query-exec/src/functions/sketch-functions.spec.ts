import { columnFromValues, type ColumnKind } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import { createAggregator } from '../aggregates/create-aggregator';
import { decodeTdigest } from '../aggregates/hll-tdigest-aggregators';
import { SCALAR_IMPLS } from './registry';
import { SKETCH_FUNCTIONS } from './sketch-functions';

function aggregate(fn: 'hll' | 'tdigest', values: unknown[]): unknown {
  const call: AggregateCall = {
    fn,
    args: [lit(null, 'real')],
    predicate: null,
    outputs: [{ name: 'x', type: 'dynamic' }],
    params: [],
  };
  const agg = createAggregator(call);
  agg.update(new Int32Array(values.length), values.length, [columnFromValues(values)], null);
  return agg.finish(1)[0].values[0];
}

const f = SKETCH_FUNCTIONS;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const kinds = (...k: ColumnKind[]) => k;

describe('sketch scalar functions', () => {
  it('are registered', () => {
    for (const name of Object.keys(f)) expect(SCALAR_IMPLS.get(name)).toBe(f[name]);
  });

  it("hll_merge(h1, h2) then dcount_hll: the hll_merge page's example (1..10 and 11..20 → 20)", () => {
    const merged = f.hll_merge([aggregate('hll', range(1, 10)), aggregate('hll', range(11, 20))], []);
    expect(f.dcount_hll([merged], kinds('dynamic'))).toBe(20);
  });

  it("merge_tdigest then percentile_tdigest(…, 100, typeof(long)): the merge_tdigest page's example (→ 20)", () => {
    for (const name of ['merge_tdigest', 'tdigest_merge']) {
      const merged = f[name]([aggregate('tdigest', range(1, 10)), aggregate('tdigest', range(11, 20))], []);
      expect(f.percentile_tdigest([merged, 100, null], kinds('dynamic', 'long', 'long'))).toBe(20);
    }
  });

  it("rank_tdigest: the page's example (rank of 685 in 1..1000 is 685), percentrank_tdigest its percentage", () => {
    const t = aggregate('tdigest', range(1, 1000));
    expect(f.rank_tdigest([t, 685], kinds('dynamic', 'long'))).toBe(685);
    expect(f.percentrank_tdigest([t, 685], kinds('dynamic', 'long'))).toBeCloseTo(68.5, 9);
    expect(f.rank_tdigest([t, 0], kinds('dynamic', 'long'))).toBe(0);
    expect(f.rank_tdigest([t, 5000], kinds('dynamic', 'long'))).toBe(1000);
  });

  it('rank_tdigest on centroids is monotone and close to the true rank', () => {
    const values = range(1, 50_000);
    const t = aggregate('tdigest', values);
    expect((t as unknown[])[3]).toBe(0); // centroids, not values
    let last = -1;
    for (const v of [1, 100, 5000, 25_000, 40_000, 49_900, 50_000]) {
      const r = f.rank_tdigest([t, v], kinds('dynamic', 'long')) as number;
      expect(r).toBeGreaterThanOrEqual(last);
      expect(Math.abs(r - v)).toBeLessThanOrEqual(Math.max(2, v * 0.01, (50_000 - v) * 0.01));
      last = r;
    }
  });

  it('percentile_tdigest: typeOfLiteral casts; without it a dynamic value (datetimes as text)', () => {
    const t = aggregate('tdigest', [1.5, 2.5, 3.5]);
    expect(f.percentile_tdigest([t, 50], kinds('dynamic', 'long'))).toBe(2.5);
    expect(f.percentile_tdigest([t, 50, null], kinds('dynamic', 'long', 'long'))).toBe(2);
    const dates = aggregate('tdigest', [Date.UTC(2007, 11, 20, 11, 30), Date.UTC(2007, 11, 31, 23, 59)]);
    // columnFromValues makes a long column of these; read back as a datetime digest it is text.
    const asDatetime = [...(dates as unknown[])];
    asDatetime[2] = 'datetime';
    expect(f.percentile_tdigest([asDatetime, 100], kinds('dynamic', 'long'))).toBe('2007-12-31T23:59:00Z');
    expect(f.percentile_tdigest([asDatetime, 100, null], kinds('dynamic', 'long', 'datetime'))).toBe(
      Date.UTC(2007, 11, 31, 23, 59),
    );
  });

  it('percentiles_array_tdigest: a list of ranks or one dynamic array, with an optional typeOfLiteral', () => {
    const t = aggregate('tdigest', range(0, 100));
    expect(f.percentiles_array_tdigest([t, 25, 75], kinds('dynamic', 'long', 'long'))).toEqual([25, 75]);
    expect(f.percentiles_array_tdigest([t, [0, 50, 100], NaN], kinds('dynamic', 'dynamic', 'long'))).toEqual([
      0, 50, 100,
    ]);
    expect(f.percentiles_array_tdigest([t, [10, 'x', 200]], kinds('dynamic', 'dynamic'))).toEqual([
      10,
      null,
      null,
    ]);
  });

  it('answers null for values that are not sketches, and for null', () => {
    const notSketches: unknown[] = [
      null,
      'abc',
      42,
      [],
      [1, 2, 3],
      { a: 1 },
      ['hll', 1, 'not base64 of 16384 bytes'],
    ];
    for (const v of notSketches) {
      expect(f.dcount_hll([v], kinds('dynamic'))).toBeNull();
      expect(f.percentile_tdigest([v, 50], kinds('dynamic', 'long'))).toBeNull();
      expect(f.rank_tdigest([v, 1], kinds('dynamic', 'long'))).toBeNull();
      expect(f.percentrank_tdigest([v, 1], kinds('dynamic', 'long'))).toBeNull();
      expect(f.percentiles_array_tdigest([v, 50], kinds('dynamic', 'long'))).toBeNull();
      expect(f.hll_merge([v, v], [])).toBeNull();
      expect(f.tdigest_merge([v], [])).toBeNull();
    }
    // A bad rank is null too; merges skip what is not a sketch.
    const t = aggregate('tdigest', [1, 2, 3]);
    expect(f.percentile_tdigest([t, 101], kinds('dynamic', 'long'))).toBeNull();
    expect(decodeTdigest(f.merge_tdigest([t, 'junk'], []))?.sketch.quantile(100)).toBe(3);
  });
});
