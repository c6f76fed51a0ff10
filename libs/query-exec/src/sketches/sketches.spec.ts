import fc from 'fast-check';
import { DistinctCounter } from './hyperloglog';
import { ExactBudget, QuantileSketch, select } from './quantile-sketch';
import { PercentileAggregator } from '../aggregates/sketch-aggregators';
import { packInstances, unpackInstances } from '../aggregates/state-transfer';

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

describe('QuantileSketch.absorb', () => {
  /** Parts as a worker builds them, sent across a thread, then absorbed (or merged) in order. */
  function combined(parts: number[][], budget: number, how: 'absorb' | 'merge'): QuantileSketch {
    const into = new QuantileSketch(new ExactBudget(budget));
    for (const values of parts) {
      const part = new QuantileSketch(new ExactBudget(budget));
      for (const v of values) part.add(v);
      part.prepareForTransfer();
      // structuredClone drops the class: give it back as state-transfer does.
      into[how](Object.setPrototypeOf(structuredClone(part), QuantileSketch.prototype) as QuantileSketch);
    }
    return into;
  }

  it('answers what merge answers, exact or not, and sorted-reference nearest rank while exact', () => {
    const value = fc.integer({ min: -1000, max: 1000 }).map((v) => v / 8);
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 400 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom(0, 1, 25, 50, 95, 99.9, 100),
        (parts, budget, p) => {
          const absorbed = combined(parts, budget, 'absorb');
          expect(absorbed.quantile(p)).toBe(combined(parts, budget, 'merge').quantile(p));
          const all = parts.flat().sort((x, y) => x - y);
          if (all.length > 0 && all.length <= budget) {
            expect(absorbed.quantile(p)).toBe(
              all[Math.min(all.length, Math.max(1, Math.ceil((p / 100) * all.length))) - 1],
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('spends the absorbing sketch budget, compressing when that budget is exceeded', () => {
    const budget = new ExactBudget(1_000);
    const part = new QuantileSketch(new ExactBudget(10_000));
    for (let i = 1; i <= 600; i++) part.add(i);
    const into = new QuantileSketch(budget);
    into.absorb(part);
    expect(budget.remaining).toBe(400);
    expect(into.quantile(50)).toBe(300);
    const big = new QuantileSketch(new ExactBudget(10_000));
    for (let i = 1; i <= 5_000; i++) big.add(i);
    const other = new QuantileSketch(budget);
    other.absorb(big);
    expect(budget.remaining).toBe(400);
    expect(Math.abs(other.quantile(50)! - 2_500) / 2_500).toBeLessThan(0.02);
    for (let i = 1; i <= 100; i++) other.add(10_000 + i);
    expect(other.quantile(100)).toBe(10_100);
  });
});

describe('PercentileAggregator across worker threads', () => {
  it('answers sorted-reference nearest rank per group from partials sent across threads and merged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.constantFrom(0, 5, 50, 95, 99.9, 100), { minLength: 1, maxLength: 3 }),
        fc.integer(),
        (workers, groupCount, ranks, seed) => {
          let state = seed >>> 0;
          const rnd = () => (state = (state * 1103515245 + 12345) >>> 0) / 4294967296;
          // Enough values per group (up to ~12k) that answers come from radix selection, not quickselect.
          const n = 6_000 + Math.floor(rnd() * 30_000);
          const values = Float64Array.from({ length: n }, () => Math.round(rnd() * rnd() * 2e6) / 1000);
          const groups = Int32Array.from({ length: n }, () => Math.floor(rnd() * groupCount));
          const main = new PercentileAggregator(ranks, 'columns');
          const identity = Array.from({ length: groupCount }, (_, g) => g);
          for (let w = 0; w < workers; w++) {
            const from = Math.floor((w * n) / workers);
            const to = Math.floor(((w + 1) * n) / workers);
            const part = new PercentileAggregator(ranks, 'columns');
            const column = { kind: 'real' as const, values: values.subarray(from, to), nulls: null };
            part.update(groups.subarray(from, to), to - from, [column], null);
            part.prepareForTransfer();
            const [received] = unpackInstances(
              structuredClone(packInstances([part])),
            ) as PercentileAggregator[];
            main.merge(received, identity);
          }
          const out = main.finish(groupCount);
          for (let g = 0; g < groupCount; g++) {
            const mine = values.filter((_, i) => groups[i] === g).sort();
            ranks.forEach((p, j) => {
              const rank = Math.min(mine.length, Math.max(1, Math.ceil((p / 100) * mine.length)));
              expect(out[j].values[g]).toBe(mine.length ? mine[rank - 1] : null);
            });
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('QuantileSketch compact exact values', () => {
  const nearestRank = (values: number[], p: number) => {
    const sorted = Float64Array.from(values).sort();
    return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
  };
  // Whole thousandths (held as integers) mixed with values that are not: widening happens mid-stream.
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: -2_147_483_647, max: 2_147_483_647 }).map((k) => k / 1000) },
    { weight: 2, arbitrary: fc.integer({ min: -50, max: 50 }) },
    { weight: 1, arbitrary: fc.double({ noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(-0, 0, 0.0005, 2_147_483.648, -2_147_483.648, 1e12, -Infinity) },
    // Integers beyond what thousandths hold: a sketch of integers only goes on at scale 1.
    { weight: 2, arbitrary: fc.integer({ min: -2_147_483_647, max: 2_147_483_647 }) },
    { weight: 1, arbitrary: fc.constantFrom(2_147_484, -2_147_484, 2_147_483_647, 2_147_483_648) },
  );

  it('answers sorted-reference nearest rank through adds, merges, absorbs and transfers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 200 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('merge', 'absorb', 'addAll'),
        fc.constantFrom(0, 1, 25, 50, 95, 99.9, 100),
        (parts, how, p) => {
          const into = new QuantileSketch(new ExactBudget(100_000));
          for (const values of parts) {
            if (how === 'addAll') {
              into.addAll(Float64Array.from(values));
              continue;
            }
            const part = new QuantileSketch(new ExactBudget(100_000));
            for (const v of values) part.add(v);
            part.prepareForTransfer();
            const sent = Object.setPrototypeOf(
              structuredClone(part),
              QuantileSketch.prototype,
            ) as QuantileSketch;
            into[how](sent);
          }
          const all = parts.flat();
          // `===` rather than toBe: quickselect (small inputs) ranks 0 and -0 alike.
          expect(into.quantile(p) === (all.length ? nearestRank(all, p) : null)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('holds whole thousandths at half the budget, and pays the other half when a float arrives', () => {
    const budget = new ExactBudget(1_000);
    const s = new QuantileSketch(budget);
    for (let i = 1; i <= 600; i++) s.add(i / 1000);
    expect(budget.remaining).toBe(400);
    expect(s.quantile(50)).toBe(0.3);
    s.add(Math.PI);
    // 601 float64s would cost 1,202 words: the sketch compresses and hands its words back.
    expect(budget.remaining).toBe(1_000);
    expect(Math.abs(s.quantile(50)! - 0.3) / 0.3).toBeLessThan(0.02);
    expect(s.quantile(100)).toBe(Math.PI);
  });
});

describe('QuantileSketch compact integers', () => {
  it('keeps integers too large for thousandths at half the budget, exact, merged across scales', () => {
    const budget = new ExactBudget(20_000);
    const big = new QuantileSketch(budget);
    for (let i = 1; i <= 3_000; i++) big.add(i);
    big.add(3_000_000_000 / 2); // 1.5e9: an integer SCALE cannot hold
    for (let i = 1; i <= 999; i++) big.add(1_000_000_000 + i);
    expect(budget.remaining).toBe(20_000 - 4_000);
    expect(big.quantile(0)).toBe(1);
    expect(big.quantile(75)).toBe(3_000);
    expect(big.quantile(100)).toBe(1_500_000_000);
    const thousandths = new QuantileSketch(budget);
    for (let i = 1; i <= 1_000; i++) thousandths.add(i / 1000);
    // Scales differ: the integers join the thousandths' sketch, which must widen to float64s.
    thousandths.merge(big);
    expect(budget.remaining).toBe(20_000 - 4_000 - 2 * 5_000);
    expect(thousandths.quantile(0)).toBe(0.001);
    expect(thousandths.quantile(80)).toBe(3_000);
    expect(thousandths.quantile(100)).toBe(1_500_000_000);
  });
});
