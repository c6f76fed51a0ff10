import fc from 'fast-check';
import { sortFloat64 } from './radix-sort';

describe('sortFloat64', () => {
  const special = fc.constantFrom(0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MAX_VALUE, 1e-300);
  const value = fc.oneof(fc.double({ noNaN: true }), special, fc.integer({ min: -5, max: 5 }));

  it('orders like the typed-array sort (signs, zeros, infinities, duplicates), small and large', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 0, maxLength: 3000 }), (list) => {
        const ours = Float64Array.from(list);
        sortFloat64(ours);
        const expected = Float64Array.from(list).sort();
        expect(Array.from(ours).map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual(
          Array.from(expected).map((v) => (Object.is(v, -0) ? '-0' : v)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('sorts a view in place without touching the rest of its buffer', () => {
    const all = Float64Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    const view = all.subarray(100, 900);
    const expected = view.slice().sort();
    sortFloat64(view);
    expect(Array.from(view)).toEqual(Array.from(expected));
    expect(all[0]).toBe(0);
    expect(all[999]).toBe((999 * 7919) % 1000);
  });
});
