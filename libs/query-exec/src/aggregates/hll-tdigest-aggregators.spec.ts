import { columnFromValues, type BoolColumn, type Column } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import fc from 'fast-check';
import { createAggregator } from './create-aggregator';
import type { Aggregator } from './aggregator';
import { decodeHll, decodeTdigest, encodeHll } from './hll-tdigest-aggregators';
import { packInstances, unpackInstances } from './state-transfer';

function call(fn: string, width = 1, params: unknown[] = []): AggregateCall {
  return {
    fn,
    args: Array.from({ length: width }, () => lit(null, 'real')),
    predicate: null,
    outputs: [{ name: 'x', type: 'dynamic' }],
    params,
  };
}

/** One group: every value of `columns` through a fresh aggregator of `fn`, finished. */
function run(
  fn: string,
  columns: unknown[][],
  predicate: BoolColumn | null = null,
  params: unknown[] = [],
): unknown {
  const agg = createAggregator(call(fn, columns.length, params));
  const n = columns[0].length;
  agg.update(new Int32Array(n), n, columns.map((c) => columnFromValues(c)) as Column[], predicate);
  return agg.finish(1)[0].values[0];
}

/** `agg` cloned the way worker threads send it (structured clone, classes restored). */
function sent(agg: Aggregator): Aggregator {
  agg.prepareForTransfer?.();
  return unpackInstances(structuredClone(packInstances(agg))) as Aggregator;
}

describe('hll aggregations', () => {
  it('dcount_hll(hll(x)) equals dcount(x), exact and sketched (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 6000 }), fc.string({ maxLength: 3 })), {
          maxLength: 9000,
        }),
        (values) => {
          const strings = values.map(String);
          for (const column of [values, strings]) {
            const counter = decodeHll(run('hll', [column]));
            expect(counter?.estimate()).toBe(run('dcount', [column]));
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('keeps small sets exactly and switches to registers past 4096 keys', () => {
    const small = run('hll', [['a', 'b', 'a', null]]) as unknown[];
    expect(small[0]).toBe('hll');
    expect(small[2]).toEqual(expect.arrayContaining(['sa', 'sb']));
    const big = run('hll', [Array.from({ length: 20_000 }, (_, i) => i)]) as unknown[];
    expect(typeof big[2]).toBe('string');
    const estimate = decodeHll(big)!.estimate();
    expect(Math.abs(estimate - 20_000) / 20_000).toBeLessThan(0.03);
  });

  it('hll_if counts the rows its predicate keeps', () => {
    const predicate = columnFromValues([true, false, true, true]) as BoolColumn;
    const h = run('hll_if', [['a', 'b', 'c', 'a']], predicate);
    expect(decodeHll(h)!.estimate()).toBe(2);
  });

  it('hll_merge of per-part hll values counts the union, skipping values that are not hll', () => {
    const parts = [
      run('hll', [[1, 2, 3]]),
      run('hll', [Array.from({ length: 10_000 }, (_, i) => i)]),
      'not an hll',
      [1, 2, 3],
      null,
    ];
    const merged = decodeHll(run('hll_merge', [parts]))!.estimate();
    expect(merged).toBe(run('dcount', [Array.from({ length: 10_000 }, (_, i) => i)]));
  });

  it('survives JSON (storage, the wire) and a worker-thread clone mid-aggregation', () => {
    const values = Array.from({ length: 6000 }, (_, i) => `u${i % 5000}`);
    const a = createAggregator(call('hll'));
    const b = createAggregator(call('hll'));
    a.update(new Int32Array(3000), 3000, [columnFromValues(values.slice(0, 3000))], null);
    b.update(new Int32Array(3000), 3000, [columnFromValues(values.slice(3000))], null);
    const received = sent(b);
    a.merge(received, [0]);
    const value = JSON.parse(JSON.stringify(a.finish(1)[0].values[0])) as unknown;
    expect(decodeHll(value)!.estimate()).toBe(run('dcount', [values]));
  });

  it('an empty group is an empty hll (dcount_hll 0)', () => {
    expect(decodeHll(encodeHll(undefined))!.estimate()).toBe(0);
  });
});

describe('tdigest aggregations', () => {
  const ranks = [0, 1, 25, 50, 90, 99, 100];

  // percentile(x, p) stays exact far longer (8 M values); a digest keeps 10,000 exactly, then centroids.
  it('percentiles of tdigest(x) equal percentile(x) while exact, and are close past it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 30_000 }),
        (values) => {
          const digest = decodeTdigest(run('tdigest', [values]))!;
          const sorted = [...values].sort((x, y) => x - y);
          for (const p of ranks) {
            const percentile = run('percentile', [values], null, [p]) as number;
            const got = digest.sketch.quantile(p)!;
            if (values.length <= 10_000) expect(got).toBe(percentile);
            else {
              // Approximate: within 2% of the values' rank range around p.
              const lo = sorted[Math.max(0, Math.floor(((p - 2) / 100) * sorted.length))];
              const hi = sorted[Math.min(sorted.length - 1, Math.ceil(((p + 2) / 100) * sorted.length))];
              expect(got).toBeGreaterThanOrEqual(lo);
              expect(got).toBeLessThanOrEqual(hi);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('tdigest_merge / merge_tdigest of per-part digests answer the percentiles of all values', () => {
    const parts = [
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9, 10],
    ].map((v) => run('tdigest', [v]));
    for (const fn of ['tdigest_merge', 'merge_tdigest']) {
      const merged = decodeTdigest(run(fn, [[...parts, 'junk', { a: 1 }, null]]))!;
      expect(merged.sketch.quantile(50)).toBe(5);
      expect(merged.sketch.quantile(100)).toBe(10);
      expect(merged.kind).toBe('long');
    }
  });

  it('tdigest(x, weight) weighs each value', () => {
    const digest = decodeTdigest(
      run('tdigest', [
        [1, 2, 3],
        [1, 1, 10],
      ]),
    )!;
    // Whole weights: 12 values exactly, 10 of them 3: the median is 3.
    expect(digest.sketch.quantile(50)).toBe(3);
    expect(digest.sketch.quantile(0)).toBe(1);
  });

  it('survives JSON and a worker-thread clone mid-aggregation (weighted points still buffered)', () => {
    const a = createAggregator(call('tdigest', 2));
    const b = createAggregator(call('tdigest', 2));
    // Fractional weights: centroids, not repeated values.
    a.update(new Int32Array(2), 2, [columnFromValues([1, 2]), columnFromValues([1.5, 1.5])], null);
    b.update(new Int32Array(2), 2, [columnFromValues([3, 4]), columnFromValues([1.5, 7.5])], null);
    a.merge(sent(b), [0]);
    const value = JSON.parse(JSON.stringify(a.finish(1)[0].values[0])) as unknown;
    const digest = decodeTdigest(value)!;
    expect((value as unknown[])[3]).toBe(0);
    expect(digest.sketch.quantile(100)).toBe(4);
    // Rank 6 of 12 units lies between the mids of 3 (4.5 - 0.75) and 4 (4.5 + 3.75): interpolated 3.5.
    expect(digest.sketch.quantile(50)).toBeCloseTo(3.5, 9);
  });

  it('decodes only well-formed digests', () => {
    const good = run('tdigest', [[1, 2]]) as unknown[];
    expect(decodeTdigest(good)).not.toBeNull();
    const bad: unknown[] = [
      'x',
      42,
      [],
      ['tdigest', 1, 'long', 1, [1], [1, 2]],
      ['tdigest', 1, 'string', 1, [1], [1]],
      ['tdigest', 2, 'long', 1, [1], [1]],
      ['tdigest', 1, 'long', 1, ['a'], [1]],
      ['tdigest', 1, 'long', 1, [1], [0]],
    ];
    for (const b of bad) expect(decodeTdigest(b)).toBeNull();
    // A huge claimed count is read as a centroid, never expanded value by value.
    const huge = decodeTdigest(['tdigest', 1, 'real', 1, [5], [1e12]])!;
    expect(huge.sketch.quantile(50)).toBe(5);
  });
});
