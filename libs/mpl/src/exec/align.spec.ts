import fc from 'fast-check';
import { alignValues } from './align';
import { epochGrid, wholeRangeGrid } from './frame';

const N = NaN;
const f64 = (v: number[]) => Float64Array.from(v);

describe('MPL align', () => {
  const times = f64([0, 10, 20, 60, 70, 130]);
  const values = f64([1, 2, 3, 4, N, 6]);
  const grid = epochGrid({ start: 0, end: 180 }, 60);

  it.each([
    ['avg', [2, 4, 6]],
    ['sum', [6, 4, 6]],
    ['min', [1, 4, 6]],
    ['max', [3, 4, 6]],
    ['count', [3, 1, 1]],
    ['last', [3, 4, 6]],
  ] as const)('%s over epoch windows', (fn, expected) => {
    expect(Array.from(alignValues(times, values, grid, fn))).toEqual(expected);
  });

  it('leaves empty windows null, also for count', () => {
    const g = epochGrid({ start: 0, end: 240 }, 60);
    expect(Array.from(alignValues(times, values, g, 'count'))).toEqual([3, 1, 1, N]);
  });

  it('aligns windows to the epoch and covers every window intersecting the range', () => {
    const g = epochGrid({ start: 1000, end: 2000 }, 660);
    // windows [660,1320) [1320,1980) [1980,2640): the last one sticks out of the range
    expect(g).toEqual({ start: 660, resolution: 660, length: 3 });
    expect(Array.from(alignValues(f64([1000, 1319, 1320, 1999]), f64([1, 2, 3, 4]), g, 'sum'))).toEqual([
      3, 3, 4,
    ]);
  });

  it('prom::rate counts the pair straddling a window start and treats a drop as a reset', () => {
    const t = f64([50, 70, 110, 130]);
    const v = f64([10, 16, 4, 10]);
    // pairs ending in window [60,120): 16-10 = 6, reset → 4; window [120,180): 10-4 = 6
    expect(Array.from(alignValues(t, v, grid, 'prom::rate'))).toEqual([N, 10 / 60, 6 / 60]);
  });

  it('one window over the whole range without "to"', () => {
    const g = wholeRangeGrid({ start: 5, end: 125 });
    expect(g).toEqual({ start: 5, resolution: 120, length: 1 });
    expect(Array.from(alignValues(times, values, g, 'sum'))).toEqual([2 + 3 + 4]);
  });

  const series = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: -1000, max: 1000 })), {
      minLength: 1,
      maxLength: 60,
    })
    .map((steps) => {
      let t = 1000;
      return { times: f64(steps.map(([dt]) => (t += dt))), values: f64(steps.map(([, v]) => v)) };
    });

  it('sum over windows equals the total and count the number of samples (property)', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 1, max: 200 }), ({ times: t, values: v }, d) => {
        const g = epochGrid({ start: t[0], end: t[t.length - 1] + 1 }, d);
        const sums = alignValues(t, v, g, 'sum');
        const counts = alignValues(t, v, g, 'count');
        let total = 0;
        let n = 0;
        for (let k = 0; k < g.length; k++) {
          if (!Number.isNaN(sums[k])) total += sums[k];
          if (!Number.isNaN(counts[k])) n += counts[k];
        }
        expect(total).toBe(v.reduce((a, b) => a + b, 0));
        expect(n).toBe(v.length);
      }),
    );
  });

  it('prom::rate windows add up to the reset-aware total increase (property)', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 1, max: 200 }), ({ times: t, values: v }, d) => {
        const g = epochGrid({ start: t[0], end: t[t.length - 1] + 1 }, d);
        const rates = alignValues(t, v, g, 'prom::rate');
        let increase = 0;
        for (let k = 0; k < g.length; k++) if (!Number.isNaN(rates[k])) increase += rates[k] * d;
        let expected = 0;
        for (let j = 1; j < v.length; j++) expected += v[j] >= v[j - 1] ? v[j] - v[j - 1] : v[j];
        expect(increase).toBeCloseTo(expected, 6);
      }),
    );
  });
});
