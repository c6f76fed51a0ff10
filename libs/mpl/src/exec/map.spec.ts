import { mapArithmetic, mapFunction } from './map';

const N = NaN;
const arr = (...v: number[]) => Float64Array.from(v);
const run = (name: string, values: number[], arg?: number, times?: number[]) =>
  Array.from(
    mapFunction(Float64Array.from(times ?? values.map((_, k) => k * 10)), arr(...values), name, arg),
  );

describe('MPL map functions', () => {
  it('applies arithmetic per sample and keeps gaps; non-finite results become gaps', () => {
    expect(Array.from(mapArithmetic(arr(1, N, 3), '*', -2))).toEqual([-2, N, -6]);
    expect(Array.from(mapArithmetic(arr(4, 2), '/', 0))).toEqual([N, N]);
    expect(Array.from(mapArithmetic(arr(4, 2), '-', 1))).toEqual([3, 1]);
  });

  it('clamps with min/max and takes abs', () => {
    expect(run('min', [1, 5, N], 3)).toEqual([1, 3, N]);
    expect(run('max', [1, 5], 3)).toEqual([3, 5]);
    expect(run('abs', [-1, 2, N])).toEqual([1, 2, N]);
  });

  it('rate divides by the time between samples, keeps negative differences and skips gaps', () => {
    expect(run('rate', [10, 20, N, 5], undefined, [0, 10, 20, 30])).toEqual([N, 1, N, -0.75]);
  });

  it('increase treats a drop as a counter reset', () => {
    expect(run('increase', [10, 15, 3, 7])).toEqual([N, 5, 3, 4]);
  });

  it('filter:: turns failing samples into gaps; is:: gives 1/0 and keeps gaps', () => {
    expect(run('filter::gt', [1, 5, N, 3], 2)).toEqual([N, 5, N, 3]);
    expect(run('filter::neq', [1, 2], 2)).toEqual([1, N]);
    expect(run('is::lte', [1, 5, N, 2], 2)).toEqual([1, 0, N, 1]);
    expect(run('is::eq', [2, 3], 2)).toEqual([1, 0]);
  });

  it('fills gaps: const everywhere, prev after the first value, linear between values by time', () => {
    expect(run('fill::const', [N, 1, N], 0)).toEqual([0, 1, 0]);
    expect(run('fill::prev', [N, 1, N, N, 4])).toEqual([N, 1, 1, 1, 4]);
    expect(run('interpolate::linear', [N, 0, N, N, 6, N], undefined, [0, 10, 20, 30, 40, 50])).toEqual([
      N,
      0,
      2,
      4,
      6,
      N,
    ]);
    expect(run('interpolate::linear', [0, N, 6], undefined, [0, 10, 60])).toEqual([0, 1, 6]); // time-weighted
  });
});
