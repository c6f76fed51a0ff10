import { bitWidth, packedLength, readPacked, writePacked, writePackedOffsets } from './bit-pack';
import type { ByteReader, ByteWriter } from './bytes';

/**
 * Integer sequences (docs/block-format.md, "Integer sequences"), the building block of every v2 chunk:
 * numbers, dictionary codes, run lengths, token counts. A mode byte, then
 *
 *   0 for:   f64 base, u8 width w (0–53), the n values − base bit-packed (w > 32: low 32 bits, then high bits)
 *   1 delta: f64 first value, then a `for` body of the n − 1 differences from the previous value
 *   2 rle:   varint run count R, then the R run values and the R run lengths as sequences (for or delta)
 *
 * Every value is an integer with |v| ≤ 2^53 and the spread of the values packed stays below 2^53, so all
 * arithmetic is exact in float64 without BigInt.
 */
export type IntSeqMode = 'for' | 'delta' | 'rle';

const MODE_FOR = 0;
const MODE_DELTA = 1;
const MODE_RLE = 2;
const TWO_32 = 0x100000000;
const TWO_53 = 2 ** 53;

export type IntArray = Float64Array | Uint32Array | Int32Array;

/** What the mode choice needs, from one pass over the values. */
export interface IntStats {
  min: number;
  max: number;
  /** Runs of equal consecutive values, and the longest one. */
  runs: number;
  maxRun: number;
  /** Smallest and largest difference from the previous value (0 when n < 2). */
  dmin: number;
  dmax: number;
}

export function intStats(values: IntArray, n: number): IntStats {
  if (n === 0) return { min: 0, max: 0, runs: 0, maxRun: 0, dmin: 0, dmax: 0 };
  let prev = values[0];
  let min = prev;
  let max = prev;
  let runs = 1;
  let run = 1;
  let maxRun = 1;
  let dmin = Infinity;
  let dmax = -Infinity;
  for (let i = 1; i < n; i++) {
    const v = values[i];
    if (v < min) min = v;
    else if (v > max) max = v;
    const d = v - prev;
    if (d < dmin) dmin = d;
    if (d > dmax) dmax = d;
    if (d === 0) run++;
    else {
      if (run > maxRun) maxRun = run;
      run = 1;
      runs++;
    }
    prev = v;
  }
  if (run > maxRun) maxRun = run;
  if (n === 1) dmin = dmax = 0;
  return { min, max, runs, maxRun, dmin, dmax };
}

/** True when the values fit an integer sequence: the caller checked they are integers in ±2^53. */
export function packable(stats: IntStats): boolean {
  return stats.max - stats.min < TWO_53;
}

export interface IntSeqChoice {
  /** Allow `delta` and `rle` (cheap to decide; off for the fast preset). */
  search?: boolean;
  /**
   * Widen `for` widths of 3–7 bits to whole bytes, for symbols zstd compresses next: its entropy coder then
   * sees one symbol per byte. Measured on the bench events, it pays for token codes (24 words: 8.8 →
   * 8.2 B/row, and faster to decode) but not for low-cardinality dictionary codes, which pack tighter
   * than zstd gets whole bytes (e.g. 6 methods: 0.33 vs 0.39 B/row).
   */
  byteAligned?: boolean;
}

/** Estimated bits of each mode (headers included), from the stats alone. */
function costs(stats: IntStats, n: number): { for: number; delta: number; rle: number } {
  const forBits = 80 + n * bitWidth(stats.max - stats.min);
  const deltaOk = stats.dmin > -TWO_53 && stats.dmax < TWO_53 && stats.dmax - stats.dmin < TWO_53;
  const delta = deltaOk && n > 1 ? 152 + (n - 1) * bitWidth(stats.dmax - stats.dmin) : Infinity;
  const rle =
    n > 1 ? 200 + stats.runs * (bitWidth(stats.max - stats.min) + bitWidth(stats.maxRun - 1)) : Infinity;
  return { for: forBits, delta, rle };
}

/**
 * Writes `values[0..n)` (integers, `packable`) as the smallest mode by the stats' estimate; `for` wins
 * ties and near-ties because it decodes fastest. Returns the mode written.
 */
export function writeIntSeq(
  out: ByteWriter,
  values: IntArray,
  n: number,
  stats: IntStats = intStats(values, n),
  choice: IntSeqChoice = {},
  nested = false,
): IntSeqMode {
  let mode: IntSeqMode = 'for';
  if (choice.search !== false) {
    const c = costs(stats, n);
    const best = Math.min(c.delta, nested ? Infinity : c.rle);
    if (best < c.for * 0.9) mode = best === c.delta ? 'delta' : 'rle';
  }
  if (mode === 'for') {
    out.u8(MODE_FOR);
    writeFor(out, values, 0, n, stats.min, stats.max, choice.byteAligned === true);
  } else if (mode === 'delta') {
    out.u8(MODE_DELTA);
    out.f64(values[0]);
    const deltas = new Float64Array(n - 1);
    for (let i = 1; i < n; i++) deltas[i - 1] = values[i] - values[i - 1];
    writeFor(out, deltas, 0, n - 1, stats.dmin, stats.dmax);
  } else {
    out.u8(MODE_RLE);
    writeRuns(out, values, n, stats.runs, choice);
  }
  return mode;
}

function writeRuns(out: ByteWriter, values: IntArray, n: number, runs: number, choice: IntSeqChoice): void {
  const runValues = new Float64Array(runs);
  const runLengths = new Uint32Array(runs);
  let r = 0;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || values[i] !== values[i - 1]) {
      runValues[r] = values[start];
      runLengths[r] = i - start;
      r++;
      start = i;
    }
  }
  out.varint(runs);
  writeIntSeq(out, runValues, runs, intStats(runValues, runs), choice, true);
  writeIntSeq(out, runLengths, runs, intStats(runLengths, runs), choice, true);
}

/** The `for` body of `values[from..from+n)`: base, width, packed offsets from the base. */
function writeFor(
  out: ByteWriter,
  values: IntArray,
  from: number,
  n: number,
  min: number,
  max: number,
  byteAligned = false,
): void {
  const base = n === 0 ? 0 : min;
  let width = n === 0 ? 0 : bitWidth(max - min);
  if (byteAligned && width >= 3 && width < 8) width = 8;
  out.f64(base);
  out.u8(width);
  if (width <= 32) {
    writePackedOffsets(out, values, from, n, width, base);
    return;
  }
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const d = values[from + i] - base;
    const low = d % TWO_32;
    lo[i] = low;
    hi[i] = (d - low) / TWO_32;
  }
  writePacked(out, lo, n, 32);
  writePacked(out, hi, n, width - 32);
}

/** Reads a sequence of `n` integers written by `writeIntSeq`. */
export function readIntSeq(r: ByteReader, n: number, nested = false): Float64Array {
  const mode = r.u8();
  if (mode === MODE_FOR) return readFor(r, n);
  if (mode === MODE_DELTA) {
    r.check(n > 0, 'has a delta sequence of no values');
    const first = r.f64();
    r.check(Number.isInteger(first), 'has a non-integer delta start');
    const deltas = readFor(r, n - 1);
    const out = new Float64Array(n);
    let v = first;
    out[0] = v;
    for (let i = 1; i < n; i++) {
      v += deltas[i - 1];
      out[i] = v;
    }
    return out;
  }
  if (mode === MODE_RLE && !nested) {
    const runs = r.varint();
    r.check(runs <= n && (runs > 0 || n === 0), `has ${runs} runs for ${n} values`);
    const runValues = readIntSeq(r, runs, true);
    const runLengths = readIntSeq(r, runs, true);
    const out = new Float64Array(n);
    let o = 0;
    for (let k = 0; k < runs; k++) {
      const length = runLengths[k];
      if (!(length >= 1 && o + length <= n)) r.fail(`has a run of ${length} past ${n} values`);
      const v = runValues[k];
      for (let end = o + length; o < end; o++) out[o] = v;
    }
    r.check(o === n, `has runs covering ${o} of ${n} values`);
    return out;
  }
  r.fail(`has unknown integer sequence mode ${mode}`);
}

/**
 * A sequence of indexes, each in [0, limit) (dictionary and token codes, token counts), as int32s: the
 * common `for` body is unpacked and range-checked in one pass, without a float64 copy.
 */
export function readIndexSeq(r: ByteReader, n: number, limit: number): Int32Array {
  const start = r.pos;
  if (r.u8() === MODE_FOR) {
    const base = r.f64();
    const width = r.u8();
    if (width <= 31 && Number.isInteger(base) && base >= 0 && base < limit) {
      const packed = readPacked(r, n, width);
      const out = new Int32Array(packed.buffer, 0, n);
      for (let i = 0; i < n; i++) {
        const v = base + packed[i];
        if (v >= limit) r.fail(`has index ${v} of ${limit}`);
        out[i] = v;
      }
      return out;
    }
  }
  r.pos = start;
  const values = readIntSeq(r, n);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v >= 0 && v < limit)) r.fail(`has index ${v} of ${limit}`);
    out[i] = v;
  }
  return out;
}

function readFor(r: ByteReader, n: number): Float64Array {
  const base = r.f64();
  const width = r.u8();
  r.check(Number.isInteger(base) && Math.abs(base) <= TWO_53, 'has a bad sequence base');
  r.check(width <= 53, `has bit width ${width}`);
  const out = new Float64Array(n);
  if (width <= 32) {
    r.need(packedLength(n, width));
    const offsets = readPacked(r, n, width);
    for (let i = 0; i < n; i++) out[i] = base + offsets[i];
    return out;
  }
  const lo = readPacked(r, n, 32);
  const hi = readPacked(r, n, width - 32);
  for (let i = 0; i < n; i++) out[i] = base + (hi[i] * TWO_32 + lo[i]);
  return out;
}
