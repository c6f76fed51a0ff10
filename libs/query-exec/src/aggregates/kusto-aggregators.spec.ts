/**
 * The Kusto aggregations Quarry adds (take_any/any, make_list_with_nulls, make_bag_if, stdevp/variancep(if),
 * percentiles, percentilew/percentilesw(_array)): their answers, and that a state split in parts and merged
 * (as worker threads and query nodes do) answers what one pass over all rows answers.
 */
import * as v8 from 'node:v8';
import { columnFromValues, type Column, type ColumnKind } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import type { Aggregator } from './aggregator';
import { createAggregator } from './create-aggregator';
import { packInstances, unpackInstances } from './state-transfer';
import { WeightedPercentileAggregator } from './weighted-percentile-aggregator';

function call(fn: string, params: unknown[], outputs: ColumnKind[], width: number): AggregateCall {
  return {
    fn,
    args: Array.from({ length: width }, () => lit(null, 'real')),
    predicate: null,
    outputs: outputs.map((type, i) => ({ name: `o${i}`, type })),
    params,
  };
}

interface Case {
  fn: string;
  params?: unknown[];
  outputs?: ColumnKind[];
  /** One array of values per argument column. */
  columns: unknown[][];
  groups: number[];
}

function feed(agg: Aggregator, columns: unknown[][], groups: number[], from: number, to: number, flip = -1) {
  const gs = groups.slice(from, to).map((g) => (flip < 0 ? g : flip - g));
  const cols: Column[] = columns.map((c) => columnFromValues(c.slice(from, to)));
  agg.update(Int32Array.from(gs), to - from, cols, null);
}

/** One pass; and three parts (the last numbering its groups in reverse), each sent as to another thread or node, merged. */
function both(c: Case) {
  const make = () => createAggregator(call(c.fn, c.params ?? [], c.outputs ?? ['real'], c.columns.length));
  const n = c.groups.length;
  const maxG = Math.max(...c.groups);
  const whole = make();
  feed(whole, c.columns, c.groups, 0, n);
  const cut1 = Math.floor(n / 3);
  const cut2 = Math.floor((2 * n) / 3);
  const parts = [make(), make(), make()];
  feed(parts[0], c.columns, c.groups, 0, cut1);
  feed(parts[1], c.columns, c.groups, cut1, cut2);
  feed(parts[2], c.columns, c.groups, cut2, n, maxG);
  // Parts cross a thread boundary (structuredClone) or a node boundary (V8 serialization, query-rpc.ts).
  const travelled = parts.map((p, i) => {
    p.prepareForTransfer?.();
    const packed = packInstances(p);
    const copy = i === 1 ? v8.deserialize(v8.serialize(packed)) : structuredClone(packed);
    return unpackInstances(copy as typeof packed) as Aggregator;
  });
  const identity = Array.from({ length: maxG + 1 }, (_, g) => g);
  const reversed = Array.from({ length: maxG + 1 }, (_, g) => maxG - g);
  travelled[0].merge(travelled[1], identity);
  travelled[0].merge(travelled[2], reversed);
  const values = (a: Aggregator) => a.finish(maxG + 1).map((o) => o.values);
  return { whole: values(whole), merged: values(travelled[0]) };
}

const x = [5, 1, null, 7, 3, 3, 9, 2, 8, null, 4, 6];
const w = [1, 2, 3, null, 0, 2, 1, -1, 4, 1, 2, 3];
const groups = [0, 1, 0, 1, 0, 1, 2, 2, 0, 1, 2, 0];

describe('Kusto aggregations: split, cloned and merged equals one pass', () => {
  it.each([
    { fn: 'stdevp', columns: [x], groups },
    { fn: 'variancep', columns: [x], groups },
    { fn: 'make_list_with_nulls', columns: [x], groups },
    { fn: 'percentiles', params: [0, 50, 90], outputs: ['real', 'real', 'real'], columns: [x], groups },
    { fn: 'percentilew', params: [50], columns: [x, w], groups },
    {
      fn: 'percentilesw',
      params: [10, 50, 99.9],
      outputs: ['real', 'real', 'real'],
      columns: [x, w],
      groups,
    },
    { fn: 'percentilesw_array', params: [25, 75], outputs: ['dynamic'], columns: [x, w], groups },
    // The same values in every part: their weights must add up across parts (10: 9, 20: 4 → p60 is 10, p75 is 20).
    {
      fn: 'percentilesw',
      params: [60, 70, 75],
      outputs: ['real', 'real', 'real'],
      columns: [
        [10, 20, 10, 10, 20, 10],
        [3, 1, 2, 1, 3, 3],
      ],
      groups: [0, 0, 0, 0, 0, 0],
    },
    { fn: 'take_any', outputs: ['real'], columns: [x], groups },
    { fn: 'take_any', outputs: ['real', 'real'], columns: [x, w], groups },
    {
      fn: 'make_bag_if',
      outputs: ['dynamic'],
      columns: [
        [
          { a: 1 },
          null,
          { b: 2 },
          { a: 3, c: 4 },
          5,
          { d: 6 },
          { a: 7 },
          [],
          { e: 8 },
          { b: 9 },
          { f: 1 },
          {},
        ],
      ],
      groups,
    },
  ] as Case[])('$fn', (c) => {
    const { whole, merged } = both(c);
    if (c.fn === 'stdevp' || c.fn === 'variancep') {
      merged[0].forEach((v, g) => expect(v as number).toBeCloseTo(whole[0][g] as number, 9));
      return;
    }
    expect(merged).toEqual(whole);
  });
});

function once(fn: string, columns: unknown[][], params: unknown[] = [], outputs: ColumnKind[] = ['real']) {
  const agg = createAggregator(call(fn, params, outputs, columns.length));
  const n = columns[0].length;
  agg.update(
    new Int32Array(n),
    n,
    columns.map((c) => columnFromValues(c)),
    null,
  );
  return agg.finish(1).map((o) => o.values[0]);
}

describe('Kusto aggregations: answers', () => {
  it('stdevp / variancep divide by n (the pages: 1..5 → 1.4142135623731, 2); stdev divides by n − 1', () => {
    expect(once('stdevp', [[1, 2, 3, 4, 5]])[0]).toBeCloseTo(1.4142135623731, 12);
    expect(once('variancep', [[1, 2, 3, 4, 5]])[0]).toBeCloseTo(2, 12);
    expect(once('variance', [[1, 2, 3, 4, 5]])[0]).toBeCloseTo(2.5, 12);
    expect(once('variancep', [[7]])[0]).toBe(0);
  });

  it('make_list_with_nulls keeps nulls in order; make_list drops them', () => {
    expect(once('make_list_with_nulls', [[null, 4, null, 5]])[0]).toEqual([null, 4, null, 5]);
    expect(once('make_list', [[null, 4, null, 5]])[0]).toEqual([4, 5]);
  });

  it('percentilesw: nearest rank with each value counted weight times (the page: 20, 20, 40)', () => {
    const values = [10, 20, 30, 40];
    const weights = [8, 6, 3, 1];
    expect(once('percentilesw', [values, weights], [50, 75, 99.9], ['long', 'long', 'long'])).toEqual([
      20, 20, 40,
    ]);
    expect(
      once('percentilesw', [values, weights], [0, 44.4, 44.5, 100], ['long', 'long', 'long', 'long']),
    ).toEqual([10, 10, 20, 40]);
  });

  it('percentilew: a null weight counts once, a weight ≤ 0 is skipped', () => {
    // Counted: 1 (once), 9 (×3); 5 (weight 0) and 100 (weight -2) are not.
    expect(
      once(
        'percentilew',
        [
          [1, 5, 9, 100],
          [null, 0, 3, -2],
        ],
        [25],
      ),
    ).toEqual([1]);
    expect(
      once(
        'percentilew',
        [
          [1, 5, 9, 100],
          [null, 0, 3, -2],
        ],
        [26],
      ),
    ).toEqual([9]);
    expect(
      once(
        'percentilew',
        [
          [1, 5, 9, 100],
          [null, 0, 3, -2],
        ],
        [100],
      ),
    ).toEqual([9]);
    expect(once('percentilew', [[null], [1]], [50])).toEqual([null]);
  });

  it('percentiles: one column per rank, nearest rank', () => {
    expect(once('percentiles', [[4, 1, 3, 2]], [0, 50, 75, 100], ['long', 'long', 'long', 'long'])).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('take_any of one expression skips null and empty values while it can; of several, one whole row', () => {
    expect(once('take_any', [[null, '', 'x', 'y']], [], ['string'])).toEqual(['x']);
    expect(once('take_any', [[null, null]], [], ['string'])).toEqual([null]);
    expect(
      once(
        'take_any',
        [
          [null, 'x'],
          [1, 2],
        ],
        [],
        ['string', 'long'],
      ),
    ).toEqual([null, 1]);
  });

  it('make_bag_if merges the bags of passing rows, first value of a key wins', () => {
    const agg = createAggregator(call('make_bag_if', [], ['dynamic'], 1));
    const bags = [{ prop01: 'val_a' }, { prop02: 'val_b' }, { prop03: 'val_c' }, { prop01: 'later' }];
    const predicate = columnFromValues([true, false, true, true]);
    agg.update(new Int32Array(4), 4, [columnFromValues(bags)], predicate as never);
    expect(agg.finish(1)[0].values[0]).toEqual({ prop01: 'val_a', prop03: 'val_c' });
  });
});

describe('take_any merging', () => {
  it('a part that kept a null gives way to a later part with a value; a kept value stays', () => {
    const make = () => createAggregator(call('take_any', [], ['string'], 1));
    const a = make();
    const b = make();
    const c = make();
    a.update(new Int32Array(1), 1, [columnFromValues([null])], null);
    b.update(new Int32Array(1), 1, [columnFromValues(['x'])], null);
    c.update(new Int32Array(1), 1, [columnFromValues(['y'])], null);
    a.merge(b, [0]);
    a.merge(c, [0]);
    expect(a.finish(1)[0].values).toEqual(['x']);
  });
});

describe('weighted percentiles keep a bounded number of distinct values', () => {
  it('fail with query_limit_exceeded past the cap, in update and in merge, and not at it', () => {
    const fill = (agg: WeightedPercentileAggregator, values: number[]) =>
      agg.update(
        new Int32Array(values.length),
        values.length,
        [columnFromValues(values), columnFromValues(values.map(() => 1))],
        null,
      );
    const atCap = new WeightedPercentileAggregator([50], 'one', 4);
    fill(atCap, [1, 2, 3, 4, 4, 1]); // repeats add weight, not values
    expect(atCap.finish(1)[0].values).toEqual([2]);
    const over = new WeightedPercentileAggregator([50], 'one', 4);
    expect(() => fill(over, [1, 2, 3, 4, 5])).toThrow(
      expect.objectContaining({ code: 'query_limit_exceeded' }),
    );
    const left = new WeightedPercentileAggregator([50], 'one', 4);
    const right = new WeightedPercentileAggregator([50], 'one', 4);
    fill(left, [1, 2, 3]);
    fill(right, [3, 4, 5]);
    expect(() => left.merge(right, [0])).toThrow(expect.objectContaining({ code: 'query_limit_exceeded' }));
  });
});
