import type { BoolColumn, NumericColumn } from '@quarry/contracts';
import { ByteWriter, f64Bytes } from './bytes';
import type { EncodedColumn } from './encoded-column';
import { type IntSeqChoice, intStats, packable, writeIntSeq } from './int-seq';
import { writeNulls } from './null-section';

/** Powers of ten that are exact doubles, so k / 10^e is one correctly rounded division. */
export const POW10 = [
  1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
];
/** Largest decimal exponent a writer tries (12.345678 → 12345678 / 10^6). */
const MAX_EXPONENT = 6;
const TWO_53 = 2 ** 53;

/**
 * Numbers (long, real, datetime, timespan): when every non-null value is k / 10^e for an integer k with
 * |k| ≤ 2^53 and e ≤ 6 (integers, decimals with few digits, times in whole ms or µs), the k are stored as
 * an integer sequence (`ints`); anything else (NaN, ±Infinity, -0, binary fractions) as `plain-f64`.
 */
export function encodeNumeric(column: NumericColumn, n: number, choice: IntSeqChoice): EncodedColumn {
  const { values, nulls } = column;
  const stats = numericStats(values, nulls, n);
  const scaled = scaledIntegers(values, nulls, n);
  if (scaled !== null) {
    const seqStats = intStats(scaled.ks, n);
    if (packable(seqStats)) {
      const w = new ByteWriter(16 + ((n + 7) >>> 3) + n);
      const nullCount = writeNulls(w, nulls, n);
      w.u8(scaled.exponent);
      const mode = writeIntSeq(w, scaled.ks, n, seqStats, choice);
      const layout = scaled.exponent === 0 ? mode : `${mode}/e${scaled.exponent}`;
      return { encoding: 'ints', payload: w.finish(), nullCount, layout, ...stats };
    }
  }
  return encodePlain(column, n, stats);
}

/** Booleans as an integer sequence of 0/1 with exponent 0: bit-packed (a bitmap) or runs. */
export function encodeBool(column: BoolColumn, n: number, choice: IntSeqChoice): EncodedColumn {
  const { values, nulls } = column;
  const w = new ByteWriter(16 + ((n + 7) >>> 3) * 2);
  const nullCount = writeNulls(w, nulls, n);
  w.u8(0);
  const seq = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    // Null rows repeat the previous value, so they neither widen the packing nor break runs.
    seq[i] = nulls !== null && nulls[i] !== 0 ? (i === 0 ? 0 : seq[i - 1]) : values[i] !== 0 ? 1 : 0;
  }
  const layout = writeIntSeq(w, seq, n, intStats(seq, n), choice);
  return { encoding: 'ints', payload: w.finish(), nullCount, layout };
}

function encodePlain(column: NumericColumn, n: number, stats: { min?: number; max?: number }): EncodedColumn {
  const w = new ByteWriter(1 + ((n + 7) >>> 3) + n * 8);
  const nullCount = writeNulls(w, column.nulls, n);
  let values = column.values;
  if (nullCount > 0) {
    // Null rows are stored as 0 so their (meaningless) values compress well.
    values = values.slice(0, n);
    for (let i = 0; i < n; i++) if (column.nulls![i] !== 0) values[i] = 0;
  }
  w.bytes(f64Bytes(values, n));
  return { encoding: 'plain-f64', payload: w.finish(), nullCount, ...stats };
}

/**
 * The k with v = k / 10^e for every non-null v, at the smallest e that works for all of them, or null.
 * Null rows get the previous row's k (the first non-null k before that), so they do not widen the range
 * nor break runs or deltas.
 */
export function scaledIntegers(
  values: Float64Array,
  nulls: Uint8Array | null,
  n: number,
): { ks: Float64Array; exponent: number } | null {
  let e = 0;
  let first = 0;
  let seen = false;
  for (let i = 0; i < n; i++) {
    if (nulls !== null && nulls[i] !== 0) continue;
    const v = values[i];
    if (!seen) {
      seen = true;
      first = i;
    }
    const p = POW10[e];
    const k = Math.round(v * p);
    if (k / p === v) continue;
    // Needs a larger exponent (or none works: NaN, ±Infinity, binary fractions).
    let f = e + 1;
    while (f <= MAX_EXPONENT && Math.round(v * POW10[f]) / POW10[f] !== v) f++;
    if (f > MAX_EXPONENT) return null;
    e = f;
  }
  // Second pass at the final exponent: a value that passed at a smaller one must still round-trip.
  const p = POW10[e];
  const ks = new Float64Array(n);
  let prev = seen ? Math.round(values[first] * p) : 0;
  for (let i = 0; i < n; i++) {
    if (nulls !== null && nulls[i] !== 0) {
      ks[i] = prev;
      continue;
    }
    const v = values[i];
    const k = Math.round(v * p);
    // -0 passes k / p === v but would come back as 0.
    if (k / p !== v || !(k <= TWO_53 && k >= -TWO_53) || (v === 0 && 1 / v < 0)) return null;
    ks[i] = k;
    prev = k;
  }
  return { ks, exponent: e };
}

/**
 * Smallest and largest non-null value, when finite (a footer is JSON, which has no NaN or Infinity;
 * an absent bound means unknown).
 */
function numericStats(
  values: Float64Array,
  nulls: Uint8Array | null,
  n: number,
): { min?: number; max?: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    if (nulls !== null && nulls[i] !== 0) continue;
    const v = values[i];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const stats: { min?: number; max?: number } = {};
  if (Number.isFinite(min)) stats.min = min;
  if (Number.isFinite(max)) stats.max = max;
  return stats;
}
