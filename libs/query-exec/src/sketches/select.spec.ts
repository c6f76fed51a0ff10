import fc from 'fast-check';
import { radixSelect, radixSelectInt32, select } from './select';

/** The k-th value of the typed-array sort (its order: -0 before +0, NaN last). */
const sortedAt = (values: Float64Array, k: number) => values.slice().sort()[k];

describe('radixSelect', () => {
  // Enough values to take the radix path (more than 4096), drawn so that many share leading bits.
  const shapes = {
    doubles: fc.double({ noDefaultInfinity: false }),
    'few distinct': fc.integer({ min: -3, max: 3 }),
    'bench durations': fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([a, b]) => Math.round(a * b * 2000 * 1000) / 1000),
    'one narrow range': fc.integer({ min: 0, max: 1000 }).map((v) => 1024 + v / 1e9),
    'signed zeros and extremes': fc.constantFrom(-0, 0, -Infinity, Infinity, Number.MIN_VALUE, -1e300, NaN),
  };
  for (const [name, value] of Object.entries(shapes)) {
    it(`finds the k-th value the typed-array sort puts at k, without reordering its input: ${name}`, () => {
      fc.assert(
        fc.property(
          fc.array(value, { minLength: 4097, maxLength: 12_000 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
          (xs, qs) => {
            const values = Float64Array.from(xs);
            const before = values.slice();
            for (const q of qs) {
              const k = Math.min(values.length - 1, Math.floor(q * values.length));
              expect(radixSelect(values, k)).toBe(sortedAt(before, k));
            }
            expect(values).toEqual(before);
          },
        ),
        { numRuns: 15 },
      );
    });
  }

  it('answers small inputs by quickselect on a copy', () => {
    const values = Float64Array.from([5, 1, 4, 2, 3]);
    expect([0, 1, 2, 3, 4].map((k) => radixSelect(values, k))).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(values)).toEqual([5, 1, 4, 2, 3]);
  });

  it('answers a value shared by more than 4096 candidates in all 64 bits', () => {
    const values = Float64Array.from({ length: 10_000 }, (_, i) =>
      i < 20 ? -(i + 1) : i >= 9_990 ? 1e9 + i : 42.5,
    );
    expect(radixSelect(values, 19)).toBe(-1);
    expect(radixSelect(values, 20)).toBe(42.5);
    expect(radixSelect(values, 9_989)).toBe(42.5);
    expect(radixSelect(values, 9_990)).toBe(1e9 + 9_990);
  });

  it('agrees with quickselect on a million bench-shaped values at every percentile', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const values = Float64Array.from({ length: 1_000_000 }, () => Math.round(rnd() * rnd() * 2e6) / 1000);
    for (let p = 0; p <= 100; p += 5) {
      const k = Math.min(values.length - 1, Math.floor((p / 100) * values.length));
      expect(radixSelect(values, k)).toBe(select(values.slice(), k));
    }
  });
});

describe('radixSelectInt32', () => {
  it('finds the k-th smallest 32-bit integer like a sort, without reordering its input', () => {
    const int = fc.oneof(
      fc.integer(),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: 0, max: 2_000_000 }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(int, { minLength: 1, maxLength: 50 }),
          fc.array(int, { minLength: 4097, maxLength: 12_000 }),
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (xs, qs) => {
          const values = Int32Array.from(xs);
          const sorted = values.slice().sort();
          for (const q of qs) {
            const k = Math.min(values.length - 1, Math.floor(q * values.length));
            expect(radixSelectInt32(values, k)).toBe(sorted[k]);
          }
          expect(Array.from(values)).toEqual(xs);
        },
      ),
      { numRuns: 40 },
    );
  });
});
