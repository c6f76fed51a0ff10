import { columnFromValues, type Column } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import { createAggregator } from './create-aggregator';

function call(fn: string, params: unknown[] = [], width = 1): AggregateCall {
  return {
    fn,
    args: Array.from({ length: width }, () => lit(null, 'real')),
    predicate: null,
    outputs: [{ name: 'x', type: 'real' }],
    params,
  };
}

/** Aggregates values in one state, and split across two states that are then merged; both must agree. */
function both(fn: string, values: unknown[], groups: number[], params: unknown[] = []) {
  const col: Column = columnFromValues(values);
  const whole = createAggregator(call(fn, params));
  whole.update(Int32Array.from(groups), values.length, [col], null);
  const half = Math.floor(values.length / 2);
  const a = createAggregator(call(fn, params));
  const b = createAggregator(call(fn, params));
  a.update(Int32Array.from(groups.slice(0, half)), half, [columnFromValues(values.slice(0, half))], null);
  // The second partial numbers its groups in reverse; the map translates them.
  const maxG = Math.max(...groups);
  const flipped = groups.slice(half).map((g) => maxG - g);
  b.update(Int32Array.from(flipped), values.length - half, [columnFromValues(values.slice(half))], null);
  const map = Array.from({ length: maxG + 1 }, (_, g) => maxG - g);
  a.merge(b, map);
  return { whole: whole.finish(maxG + 1)[0].values, merged: a.finish(maxG + 1)[0].values };
}

describe('aggregator merge', () => {
  const values = [5, 1, null, 7, 3, 3, 9, 2, 8, null, 4, 6];
  const groups = [0, 1, 0, 1, 0, 1, 2, 2, 0, 1, 2, 0];
  it.each([['count'], ['sum'], ['avg'], ['min'], ['max'], ['dcount'], ['stdev'], ['variance'], ['make_set']])(
    '%s merges like a single pass',
    (fn) => {
      const { whole, merged } = both(fn, values, groups);
      if (fn === 'make_set')
        expect(merged.map((l) => [...(l as number[])].sort())).toEqual(
          whole.map((l) => [...(l as number[])].sort()),
        );
      else if (fn === 'stdev' || fn === 'variance')
        merged.forEach((v, i) => expect(v as number).toBeCloseTo(whole[i] as number, 9));
      else expect(merged).toEqual(whole);
    },
  );

  it('percentile merges', () => {
    const { whole, merged } = both('percentile', values, groups, [50]);
    expect(merged).toEqual(whole);
  });
});
