import fc from 'fast-check';
import { DistinctCounter } from './hyperloglog';
import { ExactBudget, QuantileSketch, select } from './quantile-sketch';

describe('DistinctCounter', () => {
  it('is exact for small sets', () => {
    const c = new DistinctCounter();
    for (let i = 0; i < 1000; i++) c.add('k' + (i % 300));
    expect(c.estimate()).toBe(300);
  });

  it('estimates large sets within 3% and merges', () => {
    const a = new DistinctCounter();
    const b = new DistinctCounter();
    for (let i = 0; i < 60_000; i++) a.add('x' + i);
    for (let i = 30_000; i < 100_000; i++) b.add('x' + i);
    expect(Math.abs(a.estimate() - 60_000) / 60_000).toBeLessThan(0.03);
    a.merge(b);
    expect(Math.abs(a.estimate() - 100_000) / 100_000).toBeLessThan(0.03);
  });
});

describe('QuantileSketch', () => {
  it('answers every nearest-rank percentile exactly, in any order, before and after more values arrive', () => {
    const nearestRank = (values: number[], p: number) => {
      const sorted = [...values].sort((x, y) => x - y);
      return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
    };
    const values = fc.array(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => v + 0), // -0 → 0: equal values, toBe tells them apart
      {
        minLength: 1,
        maxLength: 300,
      },
    );
    const ranks = fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(values, values, ranks, (first, more, ps) => {
        const sketch = new QuantileSketch();
        first.forEach((v) => sketch.add(v));
        for (const p of ps) expect(sketch.quantile(p)).toBe(nearestRank(first, p));
        const other = new QuantileSketch();
        more.forEach((v) => other.add(v));
        sketch.merge(other);
        for (const p of ps) expect(sketch.quantile(p)).toBe(nearestRank([...first, ...more], p));
      }),
      { numRuns: 200 },
    );
  });

  it('answers nearest-rank while exact', () => {
    const s = new QuantileSketch();
    for (const v of [5, 1, 4, 2, 3]) s.add(v);
    expect(s.quantile(50)).toBe(3);
    expect(s.quantile(100)).toBe(5);
    expect(s.quantile(0)).toBe(1);
    expect(new QuantileSketch().quantile(50)).toBeNull();
  });

  it('stays within 2% after compression, and merges', () => {
    const a = new QuantileSketch();
    const b = new QuantileSketch();
    for (let i = 1; i <= 30_000; i++) (i % 2 ? a : b).add(i);
    a.merge(b);
    for (const p of [10, 50, 90, 99]) {
      const expected = (p / 100) * 30_000;
      expect(Math.abs(a.quantile(p)! - expected) / expected).toBeLessThan(0.02);
    }
  });
});

describe('select (quickselect)', () => {
  it('finds the k-th smallest like a sort does, duplicates and sorted runs included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true })), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.nat(),
        fc.constantFrom('shuffled', 'ascending', 'descending'),
        (xs, k0, order) => {
          const values = order === 'ascending' ? [...xs].sort((a, b) => a - b) : xs;
          if (order === 'descending') values.sort((a, b) => b - a);
          const k = k0 % values.length;
          const sorted = [...values].sort((a, b) => a - b);
          // `==` rather than toBe: 0 and -0 are the same rank.
          expect(select(Float64Array.from(values), k) === sorted[k]).toBe(true);
        },
      ),
    );
  });
});

describe('QuantileSketch with a shared exact budget', () => {
  it('keeps small groups exact while the group that exhausts the budget compresses', () => {
    const budget = new ExactBudget(1_000);
    const small = new QuantileSketch(budget);
    const big = new QuantileSketch(budget);
    for (let i = 1; i <= 300; i++) small.add(i);
    for (let i = 1; i <= 5_000; i++) big.add(i);
    // Nearest rank exactly for the small group; within 2% for the big one.
    expect(small.quantile(95)).toBe(285);
    expect(Math.abs(big.quantile(95)! - 4_750) / 4_750).toBeLessThan(0.02);
    expect(budget.remaining).toBe(700);
  });
});

describe('QuantileSketch sent between threads', () => {
  /** Parts built separately (as on workers), optionally prepared for transfer, then merged in order. */
  function mergedParts(parts: number[][], budget: number, prepare: boolean): QuantileSketch {
    const into = new QuantileSketch(new ExactBudget(budget));
    for (const values of parts) {
      const part = new QuantileSketch(new ExactBudget(budget));
      for (const v of values) part.add(v);
      if (prepare) part.prepareForTransfer();
      into.merge(part);
    }
    return into;
  }

  it('answers exactly as if never prepared for transfer', () => {
    const value = fc.integer({ min: -1000, max: 1000 }).map((v) => v / 8);
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 300 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.constantFrom(0, 1, 25, 50, 95, 99.9, 100),
        (parts, budget, p) => {
          expect(mergedParts(parts, budget, true).quantile(p)).toBe(
            mergedParts(parts, budget, false).quantile(p),
          );
        },
      ),
    );
  });

  it('stays nearest-rank exact when the merged values fit the budget', () => {
    const parts = [
      [9, 1, 7],
      [4, 4, 2, 8],
      [3, 6, 5],
    ];
    const all = parts.flat().sort((a, b) => a - b);
    const merged = mergedParts(parts, 100, true);
    for (const p of [10, 50, 90, 100]) {
      expect(merged.quantile(p)).toBe(all[Math.max(1, Math.ceil((p / 100) * all.length)) - 1]);
    }
  });
});
