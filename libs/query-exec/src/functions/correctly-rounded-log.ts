/**
 * Fast correctly rounded ln, log10 and log2 (APL's `log`, `log10`, `log2`, `series_log`). V8's `Math.log`
 * is not correctly rounded (`Math.log(3)` is 1.0986122886681096, one ulp below the nearest double to ln 3,
 * 1.0986122886681098, which Kusto prints); `lnExact` (series-math.ts) is, but costs about 3.5 µs a call.
 *
 * Method (Tang's table method, then Ziv's rounding test):
 *
 * 1. x = 2^k·m with m in [1, 2), read from the bits (subnormals scaled by 2^54 first). i = the top 8
 *    fraction bits of m, rounded (0..256), c = 1 + i/256, so |m − c| ≤ 2^-9·(1 + 2^-11) (the rounding
 *    reads only the upper 20 fraction bits). For c ≥ √2 (i ≥ 107) the table holds ln(c/2) and k grows by
 *    one, so ln m is reduced around [√½, √2): near x = 1 (from above, i = 0, or from below, i = 256 with
 *    c/2 = 1) the table term is exactly 0 and nothing cancels.
 * 2. r = (m − c)/c as a double-double rh + rl. d = m − c is exact (built from the fraction bits: at most
 *    44 significant bits). rh = fl(d·fl(1/c)), within 2^-51.9 of d/c; rh·c = p + e exactly (Dekker's
 *    product; c has ≤ 9 bits, so its split is (c, 0)); d − p is exact (Sterbenz), and so is the remainder
 *    ρ = (d − p) − e = d − rh·c: a multiple of ulp(rh)/256 below 2^12 of them. rl = fl(ρ·fl(1/c)), off by
 *    2^-51.9·|rl| ≤ 2^-103·|r|. |r| ≤ R = 2^-9·(1 + 2^-11).
 * 3. ln(1 + r) = r − r²/2 + r³/3 − … : rh and −rh²/2 (rh² = sh + sl exactly, Dekker's square) in
 *    double-double; the corrections rl − rh·rl + rh²·rl − sl/2 and the tail rh³·(1/3 − rh/4 + … + rh⁶/9)
 *    in doubles.
 * 4. ln x = k·ln 2 + ln c (or ln(c/2)) + ln(1 + r): k·LN2_HI is exact (LN2_HI has 42 bits, |k| ≤ 1075),
 *    the table is double-double, summed with two-sum steps into hi + lo (|lo| ≤ ulp(hi)/2).
 *
 * Error bound, relative to y = ln x (the sources, each at most):
 * - the tail's rounding: rh³ (2 roundings), the Horner sum (1/3 itself 2^-54 off, inner terms ≤ 2^-11 of
 *   it) and the product: ≤ 4.6·2^-53 relative of a tail ≤ R²/3·1.01·|r|, so ≤ 2^-70.4·|r|;
 * - adding the tail to the other low terms: ≤ 2^-53·2^-19.5·|r| = 2^-72.5·|r|;
 * - the omitted terms: rh¹⁰/10, rl·rh³ and rl², each ≤ 2^-79·|r|; rl's own error 2^-103·|r|;
 * - the table (lnDD, about 2^-104 relative; the spec checks it below 2^-100 with a 200-bit reference) and
 *   k·LN2_LO (LN2_LO 2^-97 off, times |k| ≤ 1075, against |y| ≥ 0.34·|k| when k ≠ 0): ≤ 2^-85·|y|;
 * - the other low terms' roundings (each ≤ 2^-53 of a sum ≤ 2^-49·|y|): ≤ 2^-100·|y|.
 * When the reduced k is 0, |r| ≤ 1.01·|y| (near 1, y ≈ r; otherwise m is at least 2^-9 from c = 1 or
 * c/2 = 1, and |ln m| ≥ 0.99·|r|); when k ≠ 0, |y| ≥ ln 2 − ln √2 > 0.34 and the r-terms are absolute
 * errors ≤ 2^-79. So |hi + lo − y| < ε·|y| with ε = 2^-69.6 (the spec measures 2^-71.4 at worst, at the
 * table's subinterval edges, and checks the bound there and on 63,108 other inputs).
 *
 * Ziv's test: with err = ERR·|hi| (ERR = 2^-67), if fl(hi + fl(lo − err)) and fl(hi + fl(lo + err)) are
 * both hi, then hi is the correctly rounded y: y − hi lies between fl(lo − err) and fl(lo + err) (err
 * exceeds ε·|y| by far more than those two roundings, ≤ 2^-105·|hi|), and rounding to nearest is monotonic,
 * so y rounds to hi as well. When the test fails (about 1 random input in 11,000), the result comes from the
 * double-double `lnDD` (about 2^-104 relative), rounded once. Both sides are tested, without branching on
 * the signs of hi and lo: random signs would mispredict, which doubled the time of a call.
 *
 * log10 and log2 multiply hi + lo by a double-double 1/ln 10 or 1/ln 2 (Dekker's product, dropping only
 * terms ≤ 2^-100 relative: ε stays below 2^-69.5), the same test, and fall back to lnDD(x) / ln 10 (or
 * ln 2) in double-double. Exact powers stay exact (log10(1000) = 3, log2(2^k) = k): the bound puts the
 * result within 2^-69 of the integer, which the test then returns.
 */
import { div, LN2, lnDD, lnExact, type DD } from './series-math';

const SPLITTER = 134217729; // 2^27 + 1, Dekker's split
const ERR = 2 ** -67;

// x's bits: the high 32-bit word holds the sign, the exponent and the top 20 fraction bits.
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HW = LITTLE_ENDIAN ? 1 : 0;
const LW = LITTLE_ENDIAN ? 0 : 1;

/** The table's first index whose c = 1 + i/256 is ≥ √2 (1 + 107/256 = 1.41796875). */
const HALVE_FROM = 107;
const T_HI = new Float64Array(257);
const T_LO = new Float64Array(257);
const INV_C = new Float64Array(257);
for (let i = 0; i <= 256; i++) {
  const c = 1 + i / 256;
  const [hi, lo] = i === 0 ? [0, 0] : lnDD(i >= HALVE_FROM ? c / 2 : c); // ln 1 = 0 at i = 0 and 256
  T_HI[i] = hi;
  T_LO[i] = lo;
  INV_C[i] = 1 / c;
}

/** ln 2 = LN2_HI + LN2_LO: LN2_HI is ln 2 to 42 bits (so k·LN2_HI is exact), LN2_LO the rest. */
const LN2_HI = Math.round(LN2[0] * 2 ** 42) / 2 ** 42;
const LN2_LO = LN2[0] - LN2_HI + LN2[1];

const LN10: DD = lnDD(10);
const INV_LN10: DD = div([1, 0], LN10);
const INV_LN2: DD = div([1, 0], LN2);

let fallbacks = 0;

/** How many calls took the slow exact path since the module loaded (tests and measurements read it). */
export function correctlyRoundedLogFallbacks(): number {
  return fallbacks;
}

/** lnParts' result: ln x ≈ OUT[0] + OUT[1] (|OUT[1]| ≤ ulp(OUT[0])/2, error < 2^-69.6·|ln x|). */
const OUT = new Float64Array(2);

/** ln x into OUT, for finite x > 0. */
function lnParts(x: number): void {
  F64[0] = x;
  let hw = U32[HW];
  let k = -1023;
  if (hw < 0x00100000) {
    // subnormal: scale into the normal range
    F64[0] = x * 2 ** 54;
    hw = U32[HW];
    k -= 54;
  }
  k += hw >>> 20;
  const frac = hw & 0xfffff;
  const i = (frac + 0x800) >>> 12;
  k += (i + 256 - HALVE_FROM) >> 8; // +1 from HALVE_FROM on, without a branch
  const c = 1 + i * 0.00390625;
  const ic = INV_C[i];

  // r = (m − c)/c = rh + rl
  const d = (frac - (i << 12) + U32[LW] * 2 ** -32) * 2 ** -20;
  const rh = d * ic;
  let t = SPLITTER * rh;
  const rhH = t - (t - rh);
  const rhL = rh - rhH;
  const p = rh * c;
  const e = rhH * c - p + rhL * c;
  const rl = (d - p - e) * ic;

  // rh² = sh + sl exactly
  const sh = rh * rh;
  const sl = rhH * rhH - sh + 2 * rhH * rhL + rhL * rhL;
  const tail =
    rh *
    sh *
    (1 / 3 + rh * (-1 / 4 + rh * (1 / 5 + rh * (-1 / 6 + rh * (1 / 7 + rh * (-1 / 8 + rh * (1 / 9)))))));

  // high part: k·LN2_HI + T_HI + rh − sh/2, with two-sum errors e1..e3
  const kh = k * LN2_HI;
  const th = T_HI[i];
  const s1 = kh + th;
  t = s1 - kh;
  const e1 = kh - (s1 - t) + (th - t);
  const s2 = s1 + rh;
  t = s2 - s1;
  const e2 = s1 - (s2 - t) + (rh - t);
  const a = -0.5 * sh;
  const s3 = s2 + a;
  t = s3 - s2;
  const e3 = s2 - (s3 - t) + (a - t);

  const low = T_LO[i] + k * LN2_LO + (e1 + e2 + e3) + (rl - rh * rl + sh * rl - 0.5 * sl) + tail;
  const hi = s3 + low;
  OUT[0] = hi;
  OUT[1] = low - (hi - s3);
}

/** The fast path's ln x as an unevaluated double-double [hi, lo], before the rounding test (for tests). */
export function lnFastParts(x: number): [number, number] {
  lnParts(x);
  return [OUT[0], OUT[1]];
}

/** Ziv's test: whether every value within ERR·|hi| of hi + lo rounds to hi. */
function settled(hi: number, lo: number): boolean {
  const err = ERR * Math.abs(hi);
  return hi + (lo + err) === hi && hi + (lo - err) === hi;
}

function lnSlow(x: number): number {
  fallbacks++;
  return lnExact(x);
}

/** ln x correctly rounded; 0 → -Infinity, x < 0 or NaN → NaN, +Infinity → +Infinity, 1 → 0 (as Math.log). */
export function lnCorrect(x: number): number {
  if (!(x > 0 && x < Infinity)) return Math.log(x);
  lnParts(x);
  const hi = OUT[0];
  return settled(hi, OUT[1]) ? hi : lnSlow(x);
}

/** (OUT[0] + OUT[1])·(cHi + cLo) correctly rounded when Ziv's test settles it, else NaN. */
function scaledLn(cHi: number, cLo: number): number {
  const h = OUT[0];
  const p = h * cHi;
  let t = SPLITTER * h;
  const hH = t - (t - h);
  const hL = h - hH;
  t = SPLITTER * cHi;
  const cH = t - (t - cHi);
  const cL = cHi - cH;
  const e = hH * cH - p + hH * cL + hL * cH + hL * cL;
  const low = e + (h * cLo + OUT[1] * cHi);
  const hi = p + low;
  return settled(hi, low - (hi - p)) ? hi : NaN;
}

function scaledSlow(x: number, lnBase: DD): number {
  fallbacks++;
  const [hi, lo] = div(lnDD(x), lnBase);
  return hi + lo;
}

/** log10 x correctly rounded (special values as Math.log10); exact at powers of ten: log10(1000) = 3. */
export function log10Correct(x: number): number {
  if (!(x > 0 && x < Infinity)) return Math.log10(x);
  lnParts(x);
  const y = scaledLn(INV_LN10[0], INV_LN10[1]);
  return Number.isNaN(y) ? scaledSlow(x, LN10) : y;
}

/** log2 x correctly rounded (special values as Math.log2); exact at powers of two: log2(1024) = 10. */
export function log2Correct(x: number): number {
  if (!(x > 0 && x < Infinity)) return Math.log2(x);
  lnParts(x);
  const y = scaledLn(INV_LN2[0], INV_LN2[1]);
  return Number.isNaN(y) ? scaledSlow(x, LN2) : y;
}
