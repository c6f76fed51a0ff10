/**
 * Natural logarithm in double-double arithmetic. V8's `Math.log` can be one unit in the last place off
 * (`Math.log(3)` is 1.0986122886681096; the nearest double to ln 3, and Kusto's series_log page, is
 * 1.0986122886681098). `lnDD` evaluates ln to about 104 bits and `lnExact` rounds that once. Both are slow
 * (about 3.5 µs a call): they are the reference and the rare fallback of the fast correctly rounded
 * logarithms in `correctly-rounded-log.ts`, which also build their ln table with `lnDD`.
 */

/** A double-double: the unevaluated sum hi + lo with |lo| ≤ ulp(hi) / 2. */
export type DD = [number, number];

const SPLITTER = 134217729; // 2^27 + 1, Dekker's split

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

function split(a: number): DD {
  const c = SPLITTER * a;
  const hi = c - (c - a);
  return [hi, a - hi];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  return quickTwoSum(s, e + a[1] + b[1]);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return quickTwoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

function neg(a: DD): DD {
  return [-a[0], -a[1]];
}

export function div(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  let r = add(a, neg(mul(b, [q1, 0])));
  const q2 = r[0] / b[0];
  r = add(r, neg(mul(b, [q2, 0])));
  const q3 = r[0] / b[0];
  return add(quickTwoSum(q1, q2), [q3, 0]);
}

/** ln 2 as a double-double. */
export const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];

/** ln(x) rounded to the nearest double (x ≤ 0, NaN and +Infinity as `Math.log`). */
export function lnExact(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return Math.log(x);
  const [hi, lo] = lnDD(x);
  return hi + lo;
}

/**
 * ln(x) as a double-double, for finite x > 0. x = m·2^k with m in [√½, √2); ln m = 2·atanh(s),
 * s = (m−1)/(m+1), summed as s + s³/3 + s⁵/5 + … (|s| ≤ 0.172, so about 20 terms reach 2^-106).
 */
export function lnDD(x: number): DD {
  let k = 0;
  let m = x;
  if (m < 2 ** -1000) {
    m *= 2 ** 100;
    k -= 100;
  }
  const e = Math.min(1023, Math.floor(Math.log2(m))); // 2^1024 would be infinite
  m /= 2 ** e;
  k += e;
  // Math.log2 may land one off near a power of two; bring m into [1, 2), then into [√½, √2).
  while (m >= 2) {
    m /= 2;
    k++;
  }
  while (m < 1) {
    m *= 2;
    k--;
  }
  if (m > Math.SQRT2) {
    m /= 2;
    k++;
  }
  if (m === 1) return k === 0 ? [0, 0] : mul(LN2, [k, 0]);
  const s = div([m - 1, 0], twoSum(m, 1)); // m − 1 is exact for m in [½, 2]
  const s2 = mul(s, s);
  let term = s;
  let sum = s;
  for (let n = 3; n < 200; n += 2) {
    term = mul(term, s2);
    const t = div(term, [n, 0]);
    sum = add(sum, t);
    if (Math.abs(t[0]) < Math.abs(sum[0]) * 2 ** -110) break;
  }
  const lnM: DD = [2 * sum[0], 2 * sum[1]];
  return k === 0 ? lnM : add(mul(LN2, [k, 0]), lnM);
}
