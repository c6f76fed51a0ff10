import type { Column } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import type { Aggregator } from './aggregator';
import { createAggregator } from './create-aggregator';

const N = 1_000_000;
const BATCH = 65_536;

function dcount(): Aggregator {
  const call: AggregateCall = {
    fn: 'dcount',
    args: [lit(null, 'string')],
    predicate: null,
    outputs: [{ name: 'dcount_x', type: 'long' }],
    params: [],
  };
  return createAggregator(call);
}

/** Feeds the distinct strings `u<i>` for i in [from, to) as string batches (every code distinct). */
function feed(agg: Aggregator, from: number, to: number): void {
  for (let start = from; start < to; start += BATCH) {
    const n = Math.min(BATCH, to - start);
    const dict = new Array<string>(n);
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      dict[i] = 'u' + (start + i);
      codes[i] = i;
    }
    const col: Column = { kind: 'string', codes, dict };
    agg.update(new Int32Array(n), n, [col], null);
  }
}

const relErr = (est: number) => Math.abs(est - N) / N;

describe('dcount accuracy at one million distinct values', () => {
  let onePass = 0;

  it('one pass is within 2%', () => {
    const agg = dcount();
    feed(agg, 0, N);
    onePass = agg.finish(1)[0].values[0] as number;
    expect(relErr(onePass)).toBeLessThan(0.02);
  });

  it('merging 4 partial states is within 2% and equals the one-pass estimate', () => {
    const parts = [0, 1, 2, 3].map((p) => {
      const a = dcount();
      feed(a, (p * N) / 4, ((p + 1) * N) / 4);
      return a;
    });
    for (const p of parts.slice(1)) parts[0].merge(p, [0]);
    const merged = parts[0].finish(1)[0].values[0] as number;
    expect(relErr(merged)).toBeLessThan(0.02);
    // HyperLogLog registers merge by max, so the merged sketch is the one-pass sketch.
    expect(merged).toBe(onePass);
  });

  it('one million distinct numbers (non-string path) are within 2%', () => {
    const agg = dcount();
    for (let start = 0; start < N; start += BATCH) {
      const n = Math.min(BATCH, N - start);
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = (start + i) * 7919;
      const col: Column = { kind: 'long', values, nulls: null };
      agg.update(new Int32Array(n), n, [col], null);
    }
    expect(relErr(agg.finish(1)[0].values[0] as number)).toBeLessThan(0.02);
  });
});

describe('dcount over a dictionary seen before', () => {
  /** One string batch over `dict`, every code once. */
  const column = (dict: string[]): Column => ({
    kind: 'string',
    codes: Int32Array.from(dict, (_, i) => i),
    dict,
  });
  const estimate = (dict: string[]) => {
    const agg = dcount();
    agg.update(new Int32Array(dict.length), dict.length, [column(dict)], null);
    return agg.finish(1)[0].values[0] as number;
  };

  it('answers as a fresh dictionary does, also after the dictionary grew', () => {
    // A cached block column reaches dcount as the same dictionary object query after query.
    const dict = Array.from({ length: 20_000 }, (_, i) => `id-${i}`);
    const first = estimate(dict);
    expect(estimate(dict)).toBe(first);
    expect(estimate([...dict])).toBe(first);
    // An append-only dictionary (a builder's) may grow after it was hashed: its new strings count.
    for (let i = 20_000; i < 60_000; i++) dict.push(`id-${i}`);
    const grown = estimate(dict);
    expect(grown).toBe(estimate([...dict]));
    expect(Math.abs(grown - 60_000) / 60_000).toBeLessThan(0.02);
  });
});
