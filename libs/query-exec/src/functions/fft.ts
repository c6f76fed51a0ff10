/**
 * `series_fft(x_real [, x_imaginary])` and `series_ifft(…)` (apl.md §9.9, Kusto): the discrete Fourier
 * transform of a complex series and its inverse,
 *   X[k] = Σₙ x[n]·e^(−2πikn/N)        x[n] = (1/N)·Σₖ X[k]·e^(2πikn/N),
 * for any length N (radix-2 for powers of two, Bluestein's chirp-z otherwise, so O(N log N) either way).
 * Each returns a bag `{real, imag}`; `extend`/`project` spread it into two columns. A null or non-numeric
 * element counts as 0; a missing imaginary part is 0; a non-array is null.
 */
import type { ScalarImpl } from './scalar-impl';

interface Complex {
  re: Float64Array;
  im: Float64Array;
}

function radix2(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    for (let start = 0; start < n; start += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(angle * k);
        const wi = Math.sin(angle * k);
        const a = start + k;
        const b = a + len / 2;
        const tr = re[b] * wr - im[b] * wi;
        const ti = re[b] * wi + im[b] * wr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
    }
  }
}

/** The unnormalized transform (sign −1 forward, +1 inverse) of any length, in place. */
function transform(x: Complex, inverse: boolean): void {
  const n = x.re.length;
  if (n <= 1) return;
  if ((n & (n - 1)) === 0) return radix2(x.re, x.im, inverse);
  // Bluestein: jk = (j² + k² − (k−j)²)/2 turns the sum into a convolution, X[k] = w[k]·Σ (x[j]·w[j])·conj(w[k−j])
  // with w[j] = e^(∓iπj²/N), done with power-of-two transforms of length m ≥ 2N − 1.
  const sign = inverse ? 1 : -1;
  let m = 1;
  while (m < 2 * n - 1) m <<= 1;
  const wr = new Float64Array(n);
  const wi = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    // j² mod 2N keeps the angle exact for long series.
    const a = (sign * Math.PI * ((j * j) % (2 * n))) / n;
    wr[j] = Math.cos(a);
    wi[j] = Math.sin(a);
  }
  const ar = new Float64Array(m);
  const ai = new Float64Array(m);
  for (let j = 0; j < n; j++) {
    ar[j] = x.re[j] * wr[j] - x.im[j] * wi[j];
    ai[j] = x.re[j] * wi[j] + x.im[j] * wr[j];
  }
  const br = new Float64Array(m);
  const bi = new Float64Array(m);
  br[0] = wr[0];
  bi[0] = -wi[0];
  for (let j = 1; j < n; j++) {
    br[j] = br[m - j] = wr[j];
    bi[j] = bi[m - j] = -wi[j];
  }
  radix2(ar, ai, false);
  radix2(br, bi, false);
  for (let j = 0; j < m; j++) {
    const r = ar[j] * br[j] - ai[j] * bi[j];
    ai[j] = ar[j] * bi[j] + ai[j] * br[j];
    ar[j] = r;
  }
  radix2(ar, ai, true);
  for (let k = 0; k < n; k++) {
    const r = ar[k] / m;
    const i = ai[k] / m;
    x.re[k] = r * wr[k] - i * wi[k];
    x.im[k] = r * wi[k] + i * wr[k];
  }
}

function parts(v: unknown, n: number): Float64Array {
  const out = new Float64Array(n);
  if (Array.isArray(v)) v.forEach((x, i) => (out[i] = typeof x === 'number' && Number.isFinite(x) ? x : 0));
  return out;
}

/**
 * Snaps each value to a multiple of 2^-44 of the largest magnitude: this drops the rounding noise of the
 * transform (about 1e-15 relative) so that exact inputs give exact outputs (`[1, 2, 3, 4]` → `10, -2, …`,
 * not `-1.9999999999999998`), at a cost of about 1e-13 relative precision.
 */
function snap(values: Float64Array, peak: number): number[] {
  if (peak === 0) return Array.from(values);
  // Never below the smallest subnormal step (2^-1074): a smaller q underflows to 0 and v/q is NaN.
  const q = 2 ** Math.max(Math.floor(Math.log2(peak)) - 44, -1074);
  return Array.from(values, (v) => Math.round(v / q) * q + 0);
}

function fftOf(inverse: boolean): ScalarImpl {
  return ([real, imag]) => {
    if (!Array.isArray(real)) return null;
    const n = real.length;
    const x: Complex = { re: parts(real, n), im: parts(imag, n) };
    transform(x, inverse);
    if (inverse) {
      for (let k = 0; k < n; k++) {
        x.re[k] /= n;
        x.im[k] /= n;
      }
    }
    let peak = 0;
    for (let k = 0; k < n; k++) peak = Math.max(peak, Math.abs(x.re[k]), Math.abs(x.im[k]));
    return { real: snap(x.re, peak), imag: snap(x.im, peak) };
  };
}

export const FFT_FUNCTIONS: Record<string, ScalarImpl> = {
  series_fft: fftOf(false),
  series_ifft: fftOf(true),
};

/** The naive O(N²) transform, for tests. */
export function naiveDft(re: number[], im: number[], inverse: boolean): { re: number[]; im: number[] } {
  const n = re.length;
  const outRe: number[] = [];
  const outIm: number[] = [];
  for (let k = 0; k < n; k++) {
    let sr = 0;
    let si = 0;
    for (let j = 0; j < n; j++) {
      const a = ((inverse ? 2 : -2) * Math.PI * ((k * j) % n)) / n;
      sr += re[j] * Math.cos(a) - im[j] * Math.sin(a);
      si += re[j] * Math.sin(a) + im[j] * Math.cos(a);
    }
    outRe.push(inverse ? sr / n : sr);
    outIm.push(inverse ? si / n : si);
  }
  return { re: outRe, im: outIm };
}
