/**
 * Kusto's dcount accuracy levels (dcount page, "Estimation accuracy": 2^12, 2^14, 2^16, 2^17, 2^18
 * one-byte counters; 1.6, 0.8, 0.4, 0.28, 0.2 % standard error): each level's error, mergeability, the
 * folding of a finer level into a coarser one, the hll value encoding and the register accounting.
 */
import { columnFromValues, type Column } from '@quarry/contracts';
import { lit, type AggregateCall } from '@quarry/query-plan';
import fc from 'fast-check';
import type { Aggregator } from '../aggregates/aggregator';
import { createAggregator } from '../aggregates/create-aggregator';
import { decodeHll, encodeHll } from '../aggregates/hll-tdigest-aggregators';
import { packInstances, unpackInstances } from '../aggregates/state-transfer';
import { SKETCH_FUNCTIONS } from '../functions/sketch-functions';
import { DistinctCounter, foldRegisters, HLL_LEVEL_PRECISION, precisionOfLevel } from './hyperloglog';

/** The page's standard error (sigma) per level, as a fraction. */
const SIGMA = [0.016, 0.008, 0.004, 0.0028, 0.002];

/** A counter at `level` fed the distinct keys `u<i>` for i in [from, to). */
function counterOf(level: number, from: number, to: number): DistinctCounter {
  const c = new DistinctCounter(precisionOfLevel(level));
  for (let i = from; i < to; i++) c.add('u' + i);
  return c;
}

function aggCall(fn: string, params: unknown[]): AggregateCall {
  return {
    fn,
    args: [lit(null, 'string')],
    predicate: null,
    outputs: [{ name: 'x', type: fn === 'dcount' ? 'long' : 'dynamic' }],
    params,
  };
}

/** Register arrays compared as bytes (jest's toEqual walks 2^18 elements slowly). */
function expectSameRegisters(a: DistinctCounter, b: DistinctCounter): void {
  const ra = a.registerCopy();
  const rb = b.registerCopy();
  expect(ra).not.toBeNull();
  expect(rb).not.toBeNull();
  expect(Buffer.from(ra!).equals(Buffer.from(rb!))).toBe(true);
}

/** Feeds `values` (one group each, `groupOf(i)`) to `agg`. */
function feed(agg: Aggregator, values: unknown[], groupOf: (i: number) => number = () => 0): void {
  const groups = Int32Array.from(values, (_, i) => groupOf(i));
  agg.update(groups, values.length, [columnFromValues(values) as Column], null);
}

describe('dcount accuracy levels', () => {
  it('maps levels 0-4 to the page table: 2^12, 2^14, 2^16, 2^17, 2^18 registers', () => {
    expect(HLL_LEVEL_PRECISION).toEqual([12, 14, 16, 17, 18]);
    for (let level = 0; level <= 4; level++) {
      const c = counterOf(level, 0, 20_000);
      expect(c.isExact).toBe(false);
      expect(c.registerBytes).toBe(2 ** HLL_LEVEL_PRECISION[level]);
      // 1.04/sqrt(m) is the page's error to two significant digits.
      expect(1.04 / Math.sqrt(c.registerBytes)).toBeCloseTo(SIGMA[level], 3);
    }
  });

  for (const n of [100_000, 1_000_000]) {
    it(`every level is within 3 sigma of ${n.toLocaleString('en')} distinct values`, () => {
      for (let level = 0; level <= 4; level++) {
        const est = counterOf(level, 0, n).estimate();
        expect(Math.abs(est - n) / n).toBeLessThan(3 * SIGMA[level]);
      }
    });
  }

  it('is exact up to the per-level exact limit (1,024 / 4,096 / 8,192)', () => {
    const limits = [1024, 4096, 8192, 8192, 8192];
    for (let level = 0; level <= 4; level++) {
      const c = counterOf(level, 0, limits[level]);
      expect(c.isExact).toBe(true);
      expect(c.estimate()).toBe(limits[level]);
      expect(c.registerBytes).toBe(0);
      c.add('one more');
      expect(c.isExact).toBe(false);
    }
  });

  it('merging 4 partial states equals one pass, register for register, at every level', () => {
    const n = 120_000;
    for (let level = 0; level <= 4; level++) {
      const onePass = counterOf(level, 0, n);
      const parts = [0, 1, 2, 3].map((p) => counterOf(level, (p * n) / 4, ((p + 1) * n) / 4));
      for (const p of parts.slice(1)) parts[0].merge(p);
      expect(parts[0].precision).toBe(precisionOfLevel(level));
      expectSameRegisters(parts[0], onePass);
      expect(parts[0].estimate()).toBe(onePass.estimate());
    }
  });

  it('folding a finer level into a coarser one equals a pass at the coarser level (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 9_000, max: 40_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (coarse, finerBy, n, offset) => {
          const fine = Math.min(4, coarse + finerBy);
          if (fine === coarse) return;
          const a = counterOf(fine, offset, offset + n);
          const b = counterOf(coarse, offset, offset + n);
          const folded = foldRegisters(a.registerCopy()!, a.precision, b.precision);
          expect(Buffer.from(folded).equals(Buffer.from(b.registerCopy()!))).toBe(true);
        },
      ),
      { numRuns: 12, seed: 27 },
    );
  });

  it('level 4 merged into level 1 (either way round) is a level-1 pass', () => {
    const n = 50_000;
    const level1 = counterOf(1, 0, n);
    const into1 = counterOf(1, 0, n / 2);
    into1.merge(counterOf(4, n / 2, n));
    expect(into1.precision).toBe(14);
    expectSameRegisters(into1, level1);
    const into4 = counterOf(4, 0, n / 2);
    into4.merge(counterOf(1, n / 2, n));
    expect(into4.precision).toBe(14);
    expect(into4.registerBytes).toBe(1 << 14);
    expectSameRegisters(into4, level1);
    // An exact level-4 counter (8,000 keys) folds into a level-1 one past its 4,096 exact keys.
    const exact4 = counterOf(4, 0, 8000);
    expect(exact4.isExact).toBe(true);
    exact4.reducePrecision(14);
    expectSameRegisters(exact4, counterOf(1, 0, 8000));
  });
});

describe('hll values and levels', () => {
  it('level 1 keeps the version-1 form; other levels carry their precision', () => {
    expect(encodeHll(counterOf(1, 0, 3))).toEqual(['hll', 1, ['u0', 'u1', 'u2']]);
    expect(encodeHll(counterOf(0, 0, 2))).toEqual(['hll', 2, 12, ['u0', 'u1']]);
    expect(encodeHll(undefined, 18)).toEqual(['hll', 2, 18, []]);
    for (let level = 0; level <= 4; level++) {
      const c = counterOf(level, 0, 30_000);
      const back = decodeHll(JSON.parse(JSON.stringify(encodeHll(c))))!;
      expect(back.precision).toBe(precisionOfLevel(level));
      expectSameRegisters(back, c);
      expect(back.estimate()).toBe(c.estimate());
    }
  });

  it('reads a version-1 value as precision 14 (values stored before levels existed)', () => {
    const regs = counterOf(1, 0, 10_000).registerCopy()!;
    const old = ['hll', 1, Buffer.from(regs).toString('base64')];
    const back = decodeHll(old)!;
    expect(back.precision).toBe(14);
    expect(back.estimate()).toBe(counterOf(1, 0, 10_000).estimate());
    expect(decodeHll(['hll', 1, ['sa', 'sb']])!.estimate()).toBe(2);
  });

  it('rejects a precision that is no level, and registers of the wrong size', () => {
    expect(decodeHll(['hll', 2, 13, []])).toBeNull();
    expect(decodeHll(['hll', 2, '16', []])).toBeNull();
    expect(decodeHll(['hll', 1, 14, []])).toBeNull();
    const regs14 = Buffer.from(new Uint8Array(1 << 14)).toString('base64');
    expect(decodeHll(['hll', 2, 16, regs14])).toBeNull();
    expect(decodeHll(['hll', 2, 14, regs14])!.estimate()).toBe(0);
  });

  it('the scalar hll_merge folds to the coarsest value; dcount_hll reads any level', () => {
    const h0 = encodeHll(counterOf(0, 0, 30_000));
    const h4 = encodeHll(counterOf(4, 10_000, 40_000));
    const merged = SKETCH_FUNCTIONS.hll_merge([h4, h0], ['dynamic', 'dynamic']) as unknown[];
    expect(merged.slice(0, 3)).toEqual(['hll', 2, 12]);
    const expected = counterOf(0, 0, 40_000).estimate();
    expect(SKETCH_FUNCTIONS.dcount_hll([merged], ['dynamic'])).toBe(expected);
  });
});

describe('dcount / hll aggregators at a level', () => {
  const values = Array.from({ length: 30_000 }, (_, i) => 'v' + (i % 20_000));
  const numbers = Array.from({ length: 30_000 }, (_, i) => i % 20_000);

  it('dcount(x, level) equals dcount_hll(hll(x, level)) and a counter at that level', () => {
    for (let level = 0; level <= 4; level++) {
      for (const input of [values, numbers]) {
        const d = createAggregator(aggCall('dcount', [level]));
        const h = createAggregator(aggCall('hll', [level]));
        feed(d, input);
        feed(h, input);
        const dv = d.finish(1)[0].values[0] as number;
        const hv = decodeHll(h.finish(1)[0].values[0])!;
        expect(hv.precision).toBe(precisionOfLevel(level));
        expect(hv.estimate()).toBe(dv);
        expect(Math.abs(dv - 20_000) / 20_000).toBeLessThan(3 * SIGMA[level]);
      }
    }
    // Without an accuracy argument: level 1.
    const plain = createAggregator(aggCall('hll', []));
    feed(plain, values);
    expect((plain.finish(1)[0].values[0] as unknown[])[1]).toBe(1);
  });

  it('partial aggregates merged (and sent between threads) equal one pass at level 4', () => {
    const one = createAggregator(aggCall('dcount', [4]));
    feed(one, numbers);
    const parts = [0, 1, 2, 3].map((p) => {
      const a = createAggregator(aggCall('dcount', [4]));
      feed(a, numbers.slice(p * 7500, (p + 1) * 7500));
      return unpackInstances(structuredClone(packInstances(a))) as Aggregator;
    });
    for (const p of parts.slice(1)) parts[0].merge(p, [0]);
    expect(parts[0].finish(1)[0].values).toEqual(one.finish(1)[0].values);
  });

  it('hll_merge merges levels at the coarsest; an explicit accuracy caps it', () => {
    const h4 = encodeHll(counterOf(4, 0, 30_000));
    const h2 = encodeHll(counterOf(2, 20_000, 50_000));
    const run = (params: unknown[]) => {
      const agg = createAggregator(aggCall('hll_merge', params));
      feed(agg, [h4, h2]);
      return agg.finish(1)[0].values[0] as unknown[];
    };
    expect(run([]).slice(0, 3)).toEqual(['hll', 2, 16]);
    expectSameRegisters(decodeHll(run([]))!, counterOf(2, 0, 50_000));
    const capped = run([1]);
    expect(capped[1]).toBe(1);
    expectSameRegisters(decodeHll(capped)!, counterOf(1, 0, 50_000));
    // Only level-4 values, no accuracy: they stay level 4.
    const only4 = createAggregator(aggCall('hll_merge', []));
    feed(only4, [h4, h4]);
    expect((only4.finish(1)[0].values[0] as unknown[]).slice(0, 3)).toEqual(['hll', 2, 18]);
    // A group with no hll value: the level-1 empty value, as before levels.
    const none = createAggregator(aggCall('hll_merge', []));
    feed(none, ['not an hll']);
    expect(none.finish(1)[0].values[0]).toEqual(['hll', 1, []]);
  });

  it('accounts for register memory only once a group leaves its exact set', () => {
    const agg = createAggregator(aggCall('dcount', [4]));
    const held = () => (agg as unknown as { registerBytes: number }).registerBytes;
    // Group 0: 9,000 distinct values (past level 4's 8,192: registers); groups 1-3: 100 each (exact).
    const input = [
      ...Array.from({ length: 9000 }, (_, i) => 'a' + i),
      ...Array.from({ length: 300 }, (_, i) => 'b' + i),
    ];
    feed(agg, input, (i) => (i < 9000 ? 0 : 1 + (i % 3)));
    expect(held()).toBe(1 << 18);
    const other = createAggregator(aggCall('dcount', [4]));
    feed(
      other,
      Array.from({ length: 9000 }, (_, i) => 'c' + i),
      () => 0,
    );
    agg.merge(other, [2]);
    expect(held()).toBe(2 << 18);
    expect(agg.finish(4)[0].values.map((v) => (v as number) > 8192)).toEqual([true, false, true, false]);
  });
});
