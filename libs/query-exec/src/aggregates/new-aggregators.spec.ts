import { columnFromValues, type BoolColumn, type Column } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import type { Aggregator } from './aggregator';
import { createAggregator } from './create-aggregator';
import { topkCapacity } from './topk-aggregator';

function call(fn: string, params: unknown[] = [], periodMs?: number): AggregateCall {
  return {
    fn,
    args: [lit(null, 'dynamic')],
    predicate: null,
    outputs: [{ name: 'x', type: 'dynamic' }],
    params,
    periodMs,
  };
}

function boolCol(bits: boolean[]): BoolColumn {
  return { kind: 'bool', values: Uint8Array.from(bits.map(Number)), nulls: null };
}

interface Input {
  values: unknown[];
  groups: number[];
  pred?: boolean[];
  column?: (values: unknown[]) => Column;
}

function feed(agg: Aggregator, input: Input, from: number, to: number, mapGroup = (g: number) => g) {
  const col = (input.column ?? columnFromValues)(input.values.slice(from, to));
  const pred = input.pred ? boolCol(input.pred.slice(from, to)) : null;
  agg.update(Int32Array.from(input.groups.slice(from, to).map(mapGroup)), to - from, [col], pred);
}

/** One pass over everything, and `parts` contiguous parts (group ids reversed in odd parts) merged in order. */
function onePassAndMerged(c: AggregateCall, input: Input, parts = 4) {
  const n = input.values.length;
  const groupCount = input.groups.reduce((m, g) => Math.max(m, g), 0) + 1;
  const whole = createAggregator(c);
  feed(whole, input, 0, n);
  const flip = (g: number) => groupCount - 1 - g;
  const states = Array.from({ length: parts }, (_, p) => {
    const a = createAggregator(c);
    feed(a, input, Math.floor((p * n) / parts), Math.floor(((p + 1) * n) / parts), p % 2 ? flip : (g) => g);
    return a;
  });
  const identity = Array.from({ length: groupCount }, (_, g) => g);
  const flipped = identity.map(flip);
  states.slice(1).forEach((s, i) => states[0].merge(s, (i + 1) % 2 ? flipped : identity));
  return { whole: whole.finish(groupCount)[0], merged: states[0].finish(groupCount)[0] };
}

describe('topk', () => {
  const values = ['a', 'b', 'a', null, 'c', 'a', 'b', 'd', 'c', 'a', 'b', 'e'];
  const groups = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1];

  it('counts exactly while the values fit, sorted by count desc then key', () => {
    const agg = createAggregator(call('topk', [2]));
    feed(agg, { values, groups }, 0, values.length);
    expect(agg.finish(2)[0].values).toEqual([
      [
        { key: 'a', count: 3, error: 0 },
        { key: 'b', count: 2, error: 0 },
      ],
      [
        { key: 'a', count: 1, error: 0 },
        { key: 'b', count: 1, error: 0 },
      ],
    ]);
  });

  it('topkif counts only rows where the predicate holds; numbers stay numbers; empty group → []', () => {
    const agg = createAggregator(call('topkif', [5]));
    const nums = [1, 2, 2, 3, 3, 3, 9];
    feed(
      agg,
      { values: nums, groups: [0, 0, 0, 0, 0, 0, 1], pred: [true, true, true, true, false, true, false] },
      0,
      7,
    );
    expect(agg.finish(2)[0].values).toEqual([
      [
        { key: 2, count: 2, error: 0 },
        { key: 3, count: 2, error: 0 },
        { key: 1, count: 1, error: 0 },
      ],
      [],
    ]);
  });

  it('merges like a single pass while exact', () => {
    const { whole, merged } = onePassAndMerged(call('topk', [3]), { values, groups });
    expect(merged.values).toEqual(whole.values);
    expect(merged.kind).toBe('dynamic');
  });

  describe('beyond capacity (Zipf-like stream, 20,000 distinct values, 1,000 counters)', () => {
    // Value v (1-based rank) occurs about 40000/v times, plus a long tail of singletons.
    const stream: string[] = [];
    const truth = new Map<string, number>();
    for (let v = 1; v <= 200; v++) {
      const times = Math.floor(40_000 / v);
      for (let i = 0; i < times; i++) stream.push('v' + v);
      truth.set('v' + v, times);
    }
    for (let i = 0; i < 19_800; i++) {
      stream.push('t' + i);
      truth.set('t' + i, 1);
    }
    // Deterministic shuffle so the tail interleaves with the heavy values.
    let seed = 42;
    for (let i = stream.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const j = seed % (i + 1);
      [stream[i], stream[j]] = [stream[j], stream[i]];
    }
    const input = { values: stream, groups: stream.map(() => 0) };
    const k = 10;
    const expectedKeys = Array.from({ length: k }, (_, i) => 'v' + (i + 1));

    const check = (cells: { key: string; count: number; error: number }[]) => {
      expect(cells.map((c) => c.key)).toEqual(expectedKeys);
      for (const c of cells) {
        const t = truth.get(c.key)!;
        // Space-Saving: count overestimates by at most error, and error ≤ N / capacity.
        expect(c.count).toBeGreaterThanOrEqual(t);
        expect(c.count - c.error).toBeLessThanOrEqual(t);
        expect(c.error).toBeLessThanOrEqual(stream.length / topkCapacity(k));
      }
    };

    it('one pass: right keys, true count within [count - error, count]', () => {
      const agg = createAggregator(call('topk', [k]));
      feed(agg, input, 0, stream.length);
      check(agg.finish(1)[0].values[0] as never);
    });

    it('4 merged parts keep the same guarantees', () => {
      const { merged } = onePassAndMerged(call('topk', [k]), input, 4);
      check(merged.values[0] as never);
    });
  });
});

describe('histogram', () => {
  it('equal-width bins over [min, max], last bin includes max, empty bins kept', () => {
    const agg = createAggregator(call('histogram', [3]));
    // min 1, max 10 → width 3: [1,4) [4,7) [7,10].
    feed(agg, { values: [1, 2, 3, 10, null, 7, 'x', 4], groups: [0, 0, 0, 0, 0, 0, 0, 0] }, 0, 8);
    expect(agg.finish(2)[0].values).toEqual([
      [
        { lower: 1, upper: 4, count: 3 },
        { lower: 4, upper: 7, count: 1 },
        { lower: 7, upper: 10, count: 2 },
      ],
      [],
    ]);
  });

  it('one bin when all values are equal; histogramif applies the predicate', () => {
    const agg = createAggregator(call('histogramif', [4]));
    feed(agg, { values: [5, 5, 6], groups: [0, 0, 0], pred: [true, true, false] }, 0, 3);
    expect(agg.finish(1)[0].values).toEqual([[{ lower: 5, upper: 5, count: 2 }]]);
  });

  it('datetime bounds render as ISO strings', () => {
    const agg = createAggregator(call('histogram', [2]));
    const t0 = Date.UTC(2024, 0, 1);
    const col = (vs: unknown[]) => columnFromValues(vs, 'datetime');
    feed(agg, { values: [t0, t0 + 1000, t0 + 2000], groups: [0, 0, 0], column: col }, 0, 3);
    expect(agg.finish(1)[0].values[0]).toEqual([
      { lower: '2024-01-01T00:00:00Z', upper: '2024-01-01T00:00:01Z', count: 1 },
      { lower: '2024-01-01T00:00:01Z', upper: '2024-01-01T00:00:02Z', count: 2 },
    ]);
  });

  it('merges like a single pass (exact regime)', () => {
    const values = [5, 1, null, 7, 3, 3, 9, 2, 8, null, 4, 6, -2, 0.5];
    const groups = [0, 1, 0, 1, 0, 1, 2, 2, 0, 1, 2, 0, 2, 1];
    const { whole, merged } = onePassAndMerged(call('histogram', [4]), { values, groups });
    expect(merged.values).toEqual(whole.values);
  });

  it('beyond 4,096 distinct values: merges like a single pass and stays close to exact counts', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => ((i * 7919) % 50_000) / 10 - 1000);
    const groups = values.map(() => 0);
    const { whole, merged } = onePassAndMerged(call('histogram', [10]), { values, groups });
    expect(merged.values).toEqual(whole.values);
    const bins = merged.values[0] as { lower: number; upper: number; count: number }[];
    expect(bins).toHaveLength(10);
    expect(bins[0].lower).toBe(-1000);
    expect(bins[9].upper).toBeCloseTo(3999.9, 9);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(50_000);
    // Exactly 5,000 values per bin; bucket representatives sit within 0.5 % of their values.
    for (const b of bins) expect(Math.abs(b.count - 5000) / 5000).toBeLessThan(0.05);
  });
});

describe('rate', () => {
  it('sum per second of the period; merges', () => {
    const values = [60, 30, null, 30, 600];
    const groups = [0, 0, 0, 0, 1];
    const c = call('rate', [], 60_000);
    const { whole, merged } = onePassAndMerged(c, { values, groups }, 3);
    expect(whole.values).toEqual([2, 10]);
    expect(whole.kind).toBe('real');
    expect(merged.values).toEqual(whole.values);
  });

  it('a group without values has rate 0', () => {
    const agg = createAggregator(call('rate', [], 1000));
    expect(agg.finish(1)[0].values).toEqual([0]);
  });
});

describe('make_bag', () => {
  const bags = [{ a: 1, b: 2 }, null, 'text', [1, 2], { b: 3, c: { d: 4 } }, { a: 9, e: 5 }, { z: 1 }];
  const groups = [0, 0, 0, 0, 0, 0, 1];
  const dyn = (vs: unknown[]) => columnFromValues(vs, 'dynamic');

  it('merges bags; the first value of a key wins; non-bags skipped', () => {
    const agg = createAggregator(call('make_bag'));
    feed(agg, { values: bags, groups, column: dyn }, 0, bags.length);
    expect(agg.finish(3)[0].values).toEqual([{ a: 1, b: 2, c: { d: 4 }, e: 5 }, { z: 1 }, {}]);
  });

  it('max caps the number of keys', () => {
    const agg = createAggregator(call('make_bag', [3]));
    feed(agg, { values: bags, groups, column: dyn }, 0, bags.length);
    expect(agg.finish(1)[0].values).toEqual([{ a: 1, b: 2, c: { d: 4 } }]);
  });

  it('merges like a single pass (earlier partial state wins)', () => {
    for (const parts of [2, 3, 4]) {
      const { whole, merged } = onePassAndMerged(
        call('make_bag'),
        { values: bags, groups, column: dyn },
        parts,
      );
      expect(merged.values).toEqual(whole.values);
    }
  });
});
