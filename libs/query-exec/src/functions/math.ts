import type { ColumnKind } from '@quarry/contracts';
import { lnCorrect, log10Correct, log2Correct } from './correctly-rounded-log';
import { num, type ScalarImpl } from './scalar-impl';

/** Round half away from zero to `digits` decimals. */
export function roundHalfAway(x: number, digits: number): number {
  const f = Math.pow(10, digits);
  const scaled = Math.abs(x) * f;
  // Nudge by a relative epsilon so 2.675 (stored as 2.67499999...) rounds like its decimal text.
  const r = Math.round(scaled * (1 + Number.EPSILON)) / f;
  return x < 0 ? -r : r;
}

export function binValue(x: number, size: number): number | null {
  if (!(size > 0)) return null;
  const q = Math.floor(x / size);
  const r = q * size;
  // Reduce float noise for fractional sizes (bin(4.7, 0.5) = 4.5, not 4.499999).
  return Number.isInteger(size) ? r : Number(r.toPrecision(15));
}

function unary(f: (x: number) => number | null): ScalarImpl {
  return ([v], [k]) => {
    const x = num(v, k);
    if (x === null) return null;
    const r = f(x);
    return r === null || Number.isNaN(r) ? null : r;
  };
}

function pickExtreme(args: unknown[], kinds: ColumnKind[], wantMax: boolean): unknown {
  let best: unknown = null;
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) continue;
    if (best === null) best = v;
    else if (wantMax ? (v as number) > (best as number) : (v as number) < (best as number)) best = v;
  }
  void kinds;
  return best;
}

export const MATH_FUNCTIONS: Record<string, ScalarImpl> = {
  round: ([v, d], [k]) => {
    const x = num(v, k);
    if (x === null) return null;
    return roundHalfAway(x, typeof d === 'number' ? Math.trunc(d) : 0);
  },
  floor: ([v, size], [k]) => {
    const x = num(v, k);
    if (x === null) return null;
    if (typeof size === 'number') return binValue(x, size);
    return Math.floor(x);
  },
  ceiling: unary(Math.ceil),
  bin: ([v, size], [k]) => {
    const x = num(v, k);
    if (x === null || typeof size !== 'number') return null;
    return binValue(x, size);
  },
  abs: unary(Math.abs),
  sign: unary(Math.sign),
  sqrt: unary((x) => (x < 0 ? null : Math.sqrt(x))),
  exp: unary(Math.exp),
  exp2: unary((x) => Math.pow(2, x)),
  exp10: unary((x) => Math.pow(10, x)),
  // Correctly rounded (Kusto's log page: log(3) = 1.0986122886681098; V8's Math.log gives …096).
  log: unary((x) => (x <= 0 ? null : lnCorrect(x))),
  log10: unary((x) => (x <= 0 ? null : log10Correct(x))),
  log2: unary((x) => (x <= 0 ? null : log2Correct(x))),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary((x) => (x < -1 || x > 1 ? null : Math.asin(x))),
  acos: unary((x) => (x < -1 || x > 1 ? null : Math.acos(x))),
  atan: unary(Math.atan),
  degrees: unary((x) => (x * 180) / Math.PI),
  radians: unary((x) => (x * Math.PI) / 180),
  gamma: unary((x) => gamma(x)),
  loggamma: unary((x) => logGamma(x)),
  pow: ([b, e], kinds) => {
    const x = num(b, kinds[0]);
    const y = num(e, kinds[1]);
    if (x === null || y === null) return null;
    const r = Math.pow(x, y);
    return Number.isNaN(r) ? null : r;
  },
  atan2: ([y, x], kinds) => {
    const a = num(y, kinds[0]);
    const b = num(x, kinds[1]);
    return a === null || b === null ? null : Math.atan2(a, b);
  },
  pi: () => Math.PI,
  rand: ([n]) => (typeof n === 'number' ? Math.floor(Math.random() * n) : Math.random()),
  min_of: (args, kinds) => pickExtreme(args, kinds, false),
  max_of: (args, kinds) => pickExtreme(args, kinds, true),
  // Kusto's bitwise functions on 64-bit two's complement longs (Quarry extensions).
  binary_and: bitwise2((a, b) => a & b),
  binary_or: bitwise2((a, b) => a | b),
  binary_xor: bitwise2((a, b) => a ^ b),
  binary_not: ([v], [k]) => {
    const a = long64(v, k);
    return a === null ? null : Number(BigInt.asIntN(64, ~a));
  },
  // value << (shift % 64) and value >> (shift % 64) (arithmetic); a negative shift is null (Kusto's pages).
  binary_shift_left: shift((a, n) => a << n),
  binary_shift_right: shift((a, n) => a >> n),
  bitset_count_ones: ([v], [k]) => {
    const a = long64(v, k);
    if (a === null) return null;
    let bits = BigInt.asUintN(64, a);
    let count = 0;
    while (bits) {
      count += Number(bits & 1n);
      bits >>= 1n;
    }
    return count;
  },
};

/** A number as a 64-bit integer (a real is truncated toward zero); null for null or a non-finite value. */
function long64(v: unknown, k: ColumnKind): bigint | null {
  const x = num(v, k);
  return x === null || !Number.isFinite(x) ? null : BigInt.asIntN(64, BigInt(Math.trunc(x)));
}

function bitwise2(op: (a: bigint, b: bigint) => bigint): ScalarImpl {
  return ([x, y], kinds) => {
    const a = long64(x, kinds[0]);
    const b = long64(y, kinds[1]);
    return a === null || b === null ? null : Number(BigInt.asIntN(64, op(a, b)));
  };
}

function shift(op: (a: bigint, n: bigint) => bigint): ScalarImpl {
  return ([x, y], kinds) => {
    const a = long64(x, kinds[0]);
    const n = long64(y, kinds[1]);
    if (a === null || n === null || n < 0n) return null;
    return Number(BigInt.asIntN(64, op(a, n % 64n)));
  };
}

// Lanczos approximation (g = 7, n = 9; about 15 significant digits).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** The Lanczos sum and t for x ≥ 0.5: Γ(x) = √(2π) · t^(x−0.5) · e^(−t) · sum. */
function lanczos(x: number): { t: number; sum: number } {
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (z + i);
  return { t: z + 7.5, sum };
}

/** (n − 1)! for a whole n in 1..171, multiplied in order: Kusto's `gamma(5)` is exactly 24 (Lanczos gives 23.999999999999996). */
function factorialGamma(n: number): number | null {
  if (!Number.isInteger(n) || n < 1 || n > 171) return null;
  let r = 1;
  for (let i = 2; i < n; i++) r *= i;
  return r;
}

function gamma(x: number): number {
  if (x <= 0 && Number.isInteger(x)) return NaN; // a pole
  const exact = factorialGamma(x);
  if (exact !== null) return exact;
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const { t, sum } = lanczos(x);
  // t^(x−0.5) in two halves around e^(−t): in one piece it overflows from x ≈ 141, long before Γ does (x ≈ 171.6).
  const half = Math.pow(t, (x - 0.5) / 2);
  return Math.sqrt(2 * Math.PI) * half * Math.exp(-t) * half * sum;
}

/** ln|Γ(x)| computed in logs, so it stays finite where Γ itself overflows (x > 171). */
function logGamma(x: number): number {
  if (x <= 0 && Number.isInteger(x)) return NaN; // a pole
  const exact = factorialGamma(x);
  if (exact !== null) return Math.log(exact); // loggamma(5) = ln 24 = 3.1780538303479458, Kusto's digits
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const { t, sum } = lanczos(x);
  return 0.5 * Math.log(2 * Math.PI) + (x - 0.5) * Math.log(t) - t + Math.log(sum);
}
