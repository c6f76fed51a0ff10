import fc from 'fast-check';
import { FFT_FUNCTIONS, naiveDft } from './fft';

type Parts = { real: number[]; imag: number[] };
const fft = (re: unknown, im?: unknown) =>
  FFT_FUNCTIONS.series_fft([re, im], ['dynamic', 'dynamic']) as Parts;
const ifft = (re: unknown, im?: unknown) =>
  FFT_FUNCTIONS.series_ifft([re, im], ['dynamic', 'dynamic']) as Parts;

describe('series_fft / series_ifft', () => {
  it('agree with the naive DFT for every length (radix-2 and Bluestein), and invert each other', () => {
    const series = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), {
      minLength: 1,
      maxLength: 70,
    });
    fc.assert(
      fc.property(series, series, (re, imRaw) => {
        const im = re.map((_, i) => imRaw[i] ?? 0);
        const fast = fft(re, im);
        const slow = naiveDft(re, im, false);
        const peak = Math.max(1, ...slow.re.map(Math.abs), ...slow.im.map(Math.abs));
        for (let k = 0; k < re.length; k++) {
          expect(Math.abs(fast.real[k] - slow.re[k])).toBeLessThan(peak * 1e-9);
          expect(Math.abs(fast.imag[k] - slow.im[k])).toBeLessThan(peak * 1e-9);
        }
        const back = ifft(fast.real, fast.imag);
        const scale = Math.max(1, ...re.map(Math.abs), ...im.map(Math.abs));
        for (let k = 0; k < re.length; k++) {
          expect(Math.abs(back.real[k] - re[k])).toBeLessThan(scale * 1e-9);
          expect(Math.abs(back.imag[k] - im[k])).toBeLessThan(scale * 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps subnormal inputs finite (the snapping step must not underflow to 0)', () => {
    expect(fft([0], [-5e-324])).toEqual({ real: [0], imag: [-5e-324] });
    const tiny = fft([1e-310, -1e-310], [0, 0]);
    expect(tiny.real.every(Number.isFinite)).toBe(true);
    expect(tiny.real[1]).toBeCloseTo(2e-310, 320);
  });

  it('is null for a non-array and empty for an empty series', () => {
    expect(fft(5)).toBeNull();
    expect(fft([])).toEqual({ real: [], imag: [] });
  });
});
