import fc from 'fast-check';
import { ZIP_FUNCTIONS } from './array-zip';
import { BINNING_FUNCTIONS, binAt } from './binning';

describe('bin_at', () => {
  it('puts the value in the bin of the given size that a bin starting at the fixed point lines up with', () => {
    const int = fc.integer({ min: -1e9, max: 1e9 });
    fc.assert(
      fc.property(int, fc.integer({ min: 1, max: 1e6 }), int, (value, size, fixed) => {
        const start = binAt(value, size, fixed)!;
        expect(start).toBeLessThanOrEqual(value);
        expect(value).toBeLessThan(start + size);
        expect(Math.abs((start - fixed) % size)).toBe(0);
      }),
    );
  });

  it('is null for a size that is not positive, and for mixed datetime/timespan arguments', () => {
    const f = BINNING_FUNCTIONS.bin_at;
    expect(f([5, 0, 1], ['long', 'long', 'long'])).toBeNull();
    expect(f([5, -2, 1], ['long', 'long', 'long'])).toBeNull();
    expect(f([5, 2, null], ['long', 'long', 'long'])).toBeNull();
    expect(f([86_400_000, 3_600_000, 0], ['datetime', 'long', 'datetime'])).toBeNull();
    expect(f([86_400_000, 3_600_000, 0], ['datetime', 'timespan', 'timespan'])).toBeNull();
    expect(f([90_000_000, 86_400_000, 3_600_000], ['datetime', 'timespan', 'datetime'])).toBe(90_000_000);
    expect(f([7, 2, 1], ['real', 'real', 'real'])).toBe(7);
  });
});

describe('zip', () => {
  it('pairs elements by index, as long as the longest array, padding with null', () => {
    const arr = fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(arr, { minLength: 2, maxLength: 16 }), (arrays) => {
        const out = ZIP_FUNCTIONS.zip(
          arrays,
          arrays.map(() => 'dynamic'),
        ) as unknown[][];
        expect(out).toHaveLength(Math.max(...arrays.map((a) => a.length)));
        out.forEach((row, i) => expect(row).toEqual(arrays.map((a) => (i < a.length ? a[i] : null))));
      }),
    );
    expect(ZIP_FUNCTIONS.zip([[1], 'x'], ['dynamic', 'string'])).toBeNull();
  });
});
