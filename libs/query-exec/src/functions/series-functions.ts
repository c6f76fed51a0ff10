/**
 * `series_*` functions (apl.md §9.9): arithmetic on dynamic arrays of numbers, usually from `make-series`.
 * A non-numeric or null element is null in element-wise results and skipped by reductions.
 */
import { isLongArray, markLongArray } from '@quarry/common';
import type { ScalarImpl } from './scalar-impl';
import { lnCorrect } from './correctly-rounded-log';

type Series = (number | null)[];

function asSeries(v: unknown): Series | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : null));
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** Element-wise `f` over one series. */
function unary(f: (x: number) => number): ScalarImpl {
  return ([a]) => {
    const s = asSeries(a);
    return s === null ? null : s.map((x) => (x === null ? null : finite(f(x))));
  };
}

/**
 * Element-wise `f` over two operands, each a series or a number (broadcast). The result is as long as the
 * longest series; a missing element is null.
 */
function binary<T>(f: (x: number, y: number) => T): ScalarImpl {
  return ([a, b]) => {
    const sa = typeof a === 'number' ? null : asSeries(a);
    const sb = typeof b === 'number' ? null : asSeries(b);
    if ((sa === null && typeof a !== 'number') || (sb === null && typeof b !== 'number')) return null;
    if (sa === null && sb === null) return null;
    const n = Math.max(sa?.length ?? 0, sb?.length ?? 0);
    const out = new Array<T | null>(n);
    for (let i = 0; i < n; i++) {
      const x = sa === null ? (a as number) : (sa[i] ?? null);
      const y = sb === null ? (b as number) : (sb[i] ?? null);
      if (x === null || y === null) out[i] = null;
      else {
        const r = f(x, y);
        out[i] = typeof r === 'number' ? (finite(r) as T | null) : r;
      }
    }
    return out;
  };
}

function values(a: unknown): number[] | null {
  const s = asSeries(a);
  return s === null ? null : s.filter((x): x is number => x !== null);
}

function pairs(a: unknown, b: unknown): [number, number][] | null {
  const sa = asSeries(a);
  const sb = asSeries(b);
  if (sa === null || sb === null) return null;
  const out: [number, number][] = [];
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x !== null && y !== null) out.push([x, y]);
  }
  return out;
}

/** min, min_idx, max, max_idx, avg, variance (sample), stdev of the numeric elements. */
export function seriesStats(a: unknown): Record<string, number | null> | null {
  const s = asSeries(a);
  if (s === null) return null;
  let min: number | null = null;
  let max: number | null = null;
  let minIdx: number | null = null;
  let maxIdx: number | null = null;
  let sum = 0;
  let n = 0;
  s.forEach((x, i) => {
    if (x === null) return;
    if (min === null || x < min) [min, minIdx] = [x, i];
    if (max === null || x > max) [max, maxIdx] = [x, i];
    sum += x;
    n++;
  });
  const avg = n === 0 ? null : sum / n;
  let sumSq = 0;
  let dev = 0;
  let integral = true;
  for (const x of s) {
    if (x === null || avg === null) continue;
    sumSq += x * x;
    dev += (x - avg) ** 2;
    if (!Number.isInteger(x)) integral = false;
  }
  // Integer series: (n·Σx² − (Σx)²) / (n(n−1)) is exact while it fits 2^53, and gives Kusto's digits
  // (812.4571428571429 on its page); otherwise the two-pass sum of squared deviations (no cancellation).
  const exact = integral && n * sumSq <= Number.MAX_SAFE_INTEGER;
  const variance =
    n < 2 ? (n === 0 ? null : 0) : exact ? (n * sumSq - sum * sum) / (n * (n - 1)) : dev / (n - 1);
  return {
    min,
    min_idx: minIdx,
    max,
    max_idx: maxIdx,
    avg,
    // Kusto's key order (series_stats_dynamic page): stdev before variance, then sum and len.
    stdev: variance === null ? null : Math.sqrt(variance),
    variance,
    sum: n === 0 ? null : sum,
    len: s.length,
  };
}

/**
 * `series_stats_dynamic(x, ignore_nonfinite)`: with the flag `false`, a series holding a non-finite element
 * (null, NaN, ±inf or a non-number) has null statistics (Kusto's page); `len` stays the array's length.
 * With the flag omitted non-finite elements are skipped (Quarry's choice: Kusto's null would turn every
 * series of `make-series … default=null` into null statistics; docs/apl.md, "Kusto fidelity decisions").
 */
function seriesStatsFlagged(a: unknown, ignoreNonfinite: unknown): Record<string, number | null> | null {
  const stats = seriesStats(a);
  if (stats === null || ignoreNonfinite !== false) return stats;
  const allFinite = (a as unknown[]).every((x) => typeof x === 'number' && Number.isFinite(x));
  if (allFinite) return stats;
  const nulls: Record<string, number | null> = {};
  for (const key of Object.keys(stats)) nulls[key] = key === 'len' ? stats.len : null;
  return nulls;
}

function fillForward(s: Series): Series {
  const out = [...s];
  for (let i = 1; i < out.length; i++) if (out[i] === null) out[i] = out[i - 1];
  return out;
}

/**
 * Linear interpolation between known neighbours; edges take the nearest known value when `edges`. A long
 * series (`isLongArray`) gets whole values: Kusto's page says the interpolation of an `int` or `long`
 * series is "rounded", and its example shows it truncated (`111` and `36` fill `73`; `41` and `16` fill
 * `32` and `24`).
 */
function fillLinear(s: Series, edges: boolean, longs: boolean): Series {
  const out = [...s];
  const known = out.flatMap((x, i) => (x === null ? [] : [i]));
  if (known.length === 0) return out;
  for (let k = 0; k + 1 < known.length; k++) {
    const [i, j] = [known[k], known[k + 1]];
    const [x, y] = [out[i] as number, out[j] as number];
    for (let t = i + 1; t < j; t++) {
      const value = x + ((y - x) * (t - i)) / (j - i);
      out[t] = longs ? Math.trunc(value) : value;
    }
  }
  if (edges) {
    for (let t = 0; t < known[0]; t++) out[t] = out[known[0]];
    for (let t = known[known.length - 1] + 1; t < out.length; t++) out[t] = out[known[known.length - 1]];
  }
  return out;
}

/** `out` marked as a long series when `input` is one: the fill functions keep the elements' type. */
function sameType<T extends unknown[]>(input: unknown, out: T): T {
  return isLongArray(input) ? markLongArray(out) : out;
}

/** Replaces the `missing` placeholder (default: null) by null before filling. */
function withMissing(a: unknown, missing: unknown): Series | null {
  if (!Array.isArray(a)) return null;
  return a.map((x) =>
    missing !== undefined && missing !== null && x === missing ? null : typeof x === 'number' ? x : null,
  );
}

/**
 * `series_fir(x, filter [, normalize [, center]])`: y[i] = Σ filter[j]·x[i−j] (elements before the start
 * and nulls count as 0); `normalize` (default true, false when a coefficient is negative) divides by the
 * filter's sum; `center` aligns the
 * window's middle on i.
 */
function fir([a, filter, normalize, center]: unknown[]): unknown {
  const s = asSeries(a);
  const f = asSeries(filter);
  if (s === null || f === null || f.some((x) => x === null) || f.length === 0) return null;
  let coef = f as number[];
  const total = coef.reduce((x, y) => x + y, 0);
  // Kusto's series_fir page: with a negative coefficient `normalize` defaults to false, and an explicit
  // `true` gives null.
  const negative = coef.some((c) => c < 0);
  if (negative && normalize === true) return null;
  const normalized = typeof normalize === 'boolean' ? normalize : !negative;
  if (normalized && total !== 0) coef = coef.map((c) => c / total);
  const shift = center === true ? Math.floor((coef.length - 1) / 2) : 0;
  return s.map((_, i) => {
    let y = 0;
    for (let j = 0; j < coef.length; j++) {
      const x = s[i - j + shift];
      if (x !== null && x !== undefined) y += coef[j] * x;
    }
    return finite(y);
  });
}

/** `series_iir(x, b, a)`: y[n] = (Σ b[k]·x[n−k] − Σ_{k≥1} a[k]·y[n−k]) / a[0]. */
function iir([x, num, den]: unknown[]): unknown {
  const s = asSeries(x);
  const b = asSeries(num);
  const a = asSeries(den);
  if (s === null || b === null || a === null || a.length === 0 || !a[0]) return null;
  if (b.some((v) => v === null) || a.some((v) => v === null)) return null;
  const y: number[] = [];
  for (let n = 0; n < s.length; n++) {
    let acc = 0;
    for (let k = 0; k < b.length; k++) acc += (b[k] as number) * (n - k >= 0 ? (s[n - k] ?? 0) : 0);
    for (let k = 1; k < a.length; k++) acc -= (a[k] as number) * (n - k >= 0 ? y[n - k] : 0);
    y.push(acc / (a[0] as number));
  }
  return y.map(finite);
}

const sign = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0);

export const SERIES_FUNCTIONS: Record<string, ScalarImpl> = {
  series_abs: unary(Math.abs),
  series_acos: unary(Math.acos),
  series_asin: unary(Math.asin),
  series_atan: unary(Math.atan),
  series_ceiling: unary(Math.ceil),
  series_cos: unary(Math.cos),
  series_exp: unary(Math.exp),
  series_floor: unary(Math.floor),
  // Correctly rounded (Kusto's series_log page: ln 3 = 1.0986122886681098; V8's Math.log gives …096).
  series_log: unary((x) => (x > 0 ? lnCorrect(x) : NaN)),
  series_sign: unary(sign),
  series_sin: unary(Math.sin),
  series_tan: unary(Math.tan),
  series_pow: binary((x, y) => Math.pow(x, y)),
  series_add: binary((x, y) => x + y),
  series_subtract: binary((x, y) => x - y),
  series_multiply: binary((x, y) => x * y),
  series_divide: binary((x, y) => x / y),
  series_equals: binary((x, y) => x === y),
  series_not_equals: binary((x, y) => x !== y),
  series_greater: binary((x, y) => x > y),
  series_greater_equals: binary((x, y) => x >= y),
  series_less: binary((x, y) => x < y),
  series_less_equals: binary((x, y) => x <= y),
  series_max: ([a]) => {
    const v = values(a);
    return v === null || v.length === 0 ? null : Math.max(...v);
  },
  series_min: ([a]) => {
    const v = values(a);
    return v === null || v.length === 0 ? null : Math.min(...v);
  },
  series_sum: ([a]) => {
    const v = values(a);
    return v === null ? null : v.reduce((x, y) => x + y, 0);
  },
  series_magnitude: ([a]) => {
    const v = values(a);
    return v === null ? null : Math.sqrt(v.reduce((x, y) => x + y * y, 0));
  },
  // Kusto's series_dot_product page: a numeric scalar on either side is broadcast to the other series'
  // length; an empty series gives null; non-numeric elements are skipped.
  series_dot_product: ([a, b]) => {
    const sa = typeof a === 'number' && Array.isArray(b) ? b.map(() => a) : a;
    const sb = typeof b === 'number' && Array.isArray(a) ? a.map(() => b) : b;
    if (!Array.isArray(sa) || !Array.isArray(sb) || sa.length === 0 || sb.length === 0) return null;
    const p = pairs(sa, sb);
    return p === null ? null : p.reduce((acc, [x, y]) => acc + x * y, 0);
  },
  series_cosine_similarity: ([a, b]) => {
    const p = pairs(a, b);
    if (p === null) return null;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const [x, y] of p) {
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return na === 0 || nb === 0 ? null : dot / Math.sqrt(na * nb);
  },
  series_pearson_correlation: ([a, b]) => {
    const p = pairs(a, b);
    if (p === null || p.length < 2) return null;
    const mx = p.reduce((s, [x]) => s + x, 0) / p.length;
    const my = p.reduce((s, [, y]) => s + y, 0) / p.length;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (const [x, y] of p) {
      sxy += (x - mx) * (y - my);
      sxx += (x - mx) ** 2;
      syy += (y - my) ** 2;
    }
    return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
  },
  series_stats_dynamic: ([a, ignoreNonfinite]) => seriesStatsFlagged(a, ignoreNonfinite),
  series_stats: ([a, ignoreNonfinite]) => seriesStatsFlagged(a, ignoreNonfinite),
  series_fill_const: ([a, v, missing]) => {
    const s = withMissing(a, missing);
    if (s === null) return null;
    const out = s.map((x) => (x === null ? (v ?? null) : x));
    return v === null || v === undefined || Number.isInteger(v) ? sameType(a, out) : out;
  },
  series_fill_forward: ([a, missing]) => {
    const s = withMissing(a, missing);
    return s === null ? null : sameType(a, fillForward(s));
  },
  series_fill_backward: ([a, missing]) => {
    const s = withMissing(a, missing);
    return s === null ? null : sameType(a, fillForward([...s].reverse()).reverse());
  },
  series_fill_linear: (args) => {
    const [a, missing, edges] = args;
    const s = withMissing(a, missing);
    if (s === null) return null;
    const longs = isLongArray(a);
    // A series of missing values only is filled with constant_value (default 0; null keeps the nulls),
    // whatever fill_edges says (Kusto's series_fill_linear page, its third example row); a long series
    // takes the constant as a long.
    if (s.length > 0 && s.every((x) => x === null)) {
      const constant = args.length > 3 ? args[3] : 0;
      const fill = typeof constant === 'number' && Number.isFinite(constant) ? constant : null;
      return sameType(
        a,
        s.map(() => (longs && fill !== null ? Math.trunc(fill) : fill)),
      );
    }
    return sameType(a, fillLinear(s, edges !== false, longs));
  },
  series_fir: fir,
  series_iir: iir,
};
