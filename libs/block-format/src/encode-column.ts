import type { Column, NumericColumn, StringColumn } from '@quarry/contracts';
import { ByteWriter, f64Bytes, packBits } from './bytes';
import { type ChunkEncoding, FLAG_HAS_NULLS } from './format';

export interface EncodedColumn {
  encoding: ChunkEncoding;
  payload: Uint8Array;
  nullCount: number;
  min?: number | string;
  max?: number | string;
  dictSize?: number;
}

/** Longest string kept as a min/max statistic; a longer one would bloat the footer. */
const MAX_STRING_STAT = 64;
/** Zigzag values must stay exact in float64 arithmetic. */
const MAX_SAFE_ZIGZAG = 2 ** 53;

export function encodeColumn(column: Column, n: number): EncodedColumn {
  switch (column.kind) {
    case 'string':
      return encodeDict(column, n);
    case 'dynamic':
      return encodeJson(column.values, n);
    case 'bool': {
      const w = new ByteWriter(2 + ((n + 7) >>> 3) * 2);
      const nullCount = writeNulls(w, column.nulls, n);
      w.bytes(packBits(column.values, n));
      return { encoding: 'bitmap', payload: w.finish(), nullCount };
    }
    case 'datetime':
      return encodeDatetime(column, n) ?? encodePlain(column, n);
    default:
      return encodePlain(column, n);
  }
}

function writeNulls(w: ByteWriter, nulls: Uint8Array | null, n: number): number {
  let count = 0;
  if (nulls) for (let i = 0; i < n; i++) count += nulls[i] === 0 ? 0 : 1;
  if (count === 0) {
    w.u8(0);
    return 0;
  }
  w.u8(FLAG_HAS_NULLS);
  w.bytes(packBits(nulls!, n));
  return count;
}

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
  return min <= max ? { min, max } : {};
}

function encodePlain(column: NumericColumn, n: number): EncodedColumn {
  const w = new ByteWriter(1 + ((n + 7) >>> 3) + n * 8);
  const nullCount = writeNulls(w, column.nulls, n);
  let values = column.values;
  if (nullCount > 0) {
    // Null rows are stored as 0 so their (meaningless) values compress well.
    values = values.slice(0, n);
    for (let i = 0; i < n; i++) if (column.nulls![i] !== 0) values[i] = 0;
  }
  w.bytes(f64Bytes(values, n));
  return {
    encoding: 'plain-f64',
    payload: w.finish(),
    nullCount,
    ...numericStats(column.values, column.nulls, n),
  };
}

/**
 * Datetimes are ms with µs precision, so whole µs are exact integers; consecutive times in a block are
 * close, so their deltas are small varints. Returns null (caller falls back to plain) when a value is not
 * a whole µs or a zigzag value would pass 2^53.
 */
function encodeDatetime(column: NumericColumn, n: number): EncodedColumn | null {
  const { values, nulls } = column;
  const w = new ByteWriter(1 + ((n + 7) >>> 3) + n * 2);
  const nullCount = writeNulls(w, nulls, n);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    let us = prev;
    if (nulls === null || nulls[i] === 0) {
      const v = values[i];
      us = Math.round(v * 1000);
      if (us / 1000 !== v) return null;
    }
    const delta = us - prev;
    const zigzag = delta >= 0 ? delta * 2 : -delta * 2 - 1;
    if (!(zigzag < MAX_SAFE_ZIGZAG)) return null;
    w.varint(zigzag);
    prev = us;
  }
  return { encoding: 'delta-varint-us', payload: w.finish(), nullCount, ...numericStats(values, nulls, n) };
}

function encodeDict(column: StringColumn, n: number): EncodedColumn {
  const { codes, dict } = column;
  // Keep only the dictionary entries in use (a selected batch may share a larger dictionary).
  const remap = new Int32Array(dict.length).fill(-1);
  const used: string[] = [];
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    if (c < 0) {
      nullCount++;
      continue;
    }
    if (remap[c] === -1) {
      remap[c] = used.length;
      used.push(dict[c]);
    }
  }
  const w = new ByteWriter(16 + n);
  w.u8(0);
  w.varint(used.length);
  let min: string | undefined;
  let max: string | undefined;
  for (let d = 0; d < used.length; d++) {
    const s = used[d];
    w.lengthPrefixedUtf8(s);
    if (min === undefined || s < min) min = s;
    if (max === undefined || s > max) max = s;
  }
  // Code width by dictionary size: 0 is null, so codes go up to used.length.
  const width = used.length < 0xff ? 1 : used.length < 0xffff ? 2 : 4;
  w.u8(width);
  const packed = width === 1 ? new Uint8Array(n) : width === 2 ? new Uint16Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    packed[i] = c < 0 ? 0 : remap[c] + 1;
  }
  w.bytes(new Uint8Array(packed.buffer, 0, n * width));
  const stats: { min?: string; max?: string } = {};
  if (min !== undefined && min.length <= MAX_STRING_STAT) stats.min = min;
  if (max !== undefined && max.length <= MAX_STRING_STAT) stats.max = max;
  return { encoding: 'dict', payload: w.finish(), nullCount, dictSize: used.length, ...stats };
}

function encodeJson(values: readonly unknown[], n: number): EncodedColumn {
  const w = new ByteWriter(16 + n * 8);
  w.u8(0);
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      nullCount++;
      w.varint(0);
      continue;
    }
    w.lengthPrefixedUtf8(JSON.stringify(v));
  }
  return { encoding: 'json', payload: w.finish(), nullCount };
}
