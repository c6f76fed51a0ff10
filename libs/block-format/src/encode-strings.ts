import { isAscii } from 'node:buffer';
import {
  decodeUtf8,
  decodeUtf8Dict,
  type StringColumn,
  type Utf8Dict,
  utf8DictOf,
  utf8Entries,
} from '@quarry/contracts';
import { ByteWriter } from './bytes';
import type { EncodedColumn } from './encoded-column';
import { type HexValues, hexBytes, hexMinMax, writeHexValues } from './hex-values';
import { type IntSeqChoice, intStats, writeIntSeq } from './int-seq';
import { writeNulls } from './null-section';
import { writePlainUtf8 } from './plain-values';
import { identity, type Tokenized, tokenizeUtf8, tokenizedSize, writeTokenValues } from './token-values';

/**
 * `strings` chunk (docs/block-format.md): null section, u8 values mode, varint D, the D distinct values
 * (plain, hex, uuid or tokens), u8 codes mode, then the codes (identity: the j-th non-null row has value
 * j; sequence: an integer sequence of n codes, null rows holding any valid code).
 */
export const VALUES_PLAIN = 0;
export const VALUES_HEX = 1;
export const VALUES_UUID = 2;
export const VALUES_TOKENS = 3;
export const CODES_IDENTITY = 0;
export const CODES_SEQUENCE = 1;

/** Longest string kept as a min/max statistic; a longer one would bloat the footer. */
const MAX_STRING_STAT = 64;
/**
 * Value counts (`ColumnMeta.valueCounts`) only for columns with at most this many distinct values of at
 * most this many characters in all: they live in the footer, which every query over the block reads.
 */
export const VALUE_COUNTS_MAX_VALUES = 1024;
export const VALUE_COUNTS_MAX_CHARS = 16_384;
/** Token layout only for dictionaries this large, of values this long on average (free text). */
const MIN_TOKEN_DICT = 16;
const MIN_TOKEN_AVG_CHARS = 12;
/** ...and only when it is at most this fraction of the plain values (zstd shrinks plain text too). */
const TOKEN_GAIN = 0.5;

export interface EncodedStrings extends EncodedColumn {
  dictSize: number;
  /** The distinct non-null values, in code order, when stored plain (for the token filter); else empty. */
  values: string[];
  /** Their tokens, when stored as tokens. */
  tokenized: Tokenized | null;
  /** Their bytes, when stored as hex or uuid. */
  hex: HexValues | null;
}

export interface StringChoice extends IntSeqChoice {
  /** Try hex, uuid and token values (compact blocks); off: plain values only (the ingest log). */
  search?: boolean;
}

export function encodeStrings(column: StringColumn, n: number, choice: StringChoice): EncodedStrings {
  // Bytes from the ingest path go to the log as they are, never decoded (the log searches no layout).
  if (column.utf8 !== undefined && !choice.search)
    return encodeUtf8Strings(column.codes, column.utf8, n, choice);
  const dictSize = column.utf8 !== undefined ? column.utf8.ends.length : column.dict.length;
  const { used, seq, nulls, counts } = codesByFirstUse(column.codes, dictSize, n);
  // The values in use as UTF-8, which every layout reads: a column read from the ingest log has them
  // (its strings are then decoded only for what needs strings: plain values' token filter, statistics
  // and value counts); other columns' values are encoded once.
  let values: string[] | null = null;
  const stringsInUse = (): string[] => {
    if (values !== null) return values;
    // A block cut from a flush uses part of the flush's dictionary: decode only that part, unless it is
    // most of it (the whole dictionary's strings are then decoded once and shared by the flush's blocks).
    if (column.utf8 !== undefined && used.length * 2 < column.utf8.ends.length)
      return (values = decodeUtf8Dict(utf8Entries(column.utf8, used)));
    const { dict } = column;
    values = new Array<string>(used.length);
    for (let m = 0; m < used.length; m++) values[m] = dict[used[m]];
    return values;
  };
  /** One value in use (two suffice for hex statistics: no need to decode them all). */
  const valueAt = (m: number): string =>
    values !== null || column.utf8 === undefined
      ? stringsInUse()[m]
      : decodeUtf8(
          column.utf8.bytes,
          used[m] === 0 ? 0 : column.utf8.ends[used[m] - 1],
          column.utf8.ends[used[m]],
        );
  const utf8 =
    column.utf8 !== undefined
      ? { dict: column.utf8, used }
      : { dict: utf8DictOf(stringsInUse()), used: identity(used.length) };
  const w = new ByteWriter(64 + n);
  const nullCount = writeNulls(w, nulls, n);

  let valuesLayout = 'plain';
  let tokenized: Tokenized | null = null;
  const hex = choice.search ? hexBytes(utf8.dict, utf8.used) : null;
  if (hex !== null) {
    valuesLayout = hex.kind;
    w.u8(hex.kind === 'uuid' ? VALUES_UUID : VALUES_HEX);
    w.varint(used.length);
    writeHexValues(w, hex);
  } else {
    tokenized = choice.search ? worthTokenizing(utf8.dict, utf8.used) : null;
    w.u8(tokenized !== null ? VALUES_TOKENS : VALUES_PLAIN);
    w.varint(used.length);
    if (tokenized !== null) {
      valuesLayout = 'tokens';
      writeTokenValues(w, tokenized, used.length);
    } else writePlainUtf8(w, utf8.dict, utf8.used);
  }
  const codesLayout = writeCodes(w, seq, n, used.length === n - nullCount, choice);
  return {
    encoding: 'strings',
    payload: w.finish(),
    nullCount,
    dictSize: used.length,
    layout: `${valuesLayout}/${codesLayout}`,
    values: hex === null && tokenized === null ? stringsInUse() : [],
    tokenized,
    hex,
    // The log (no search) never prunes by its strings: min and max would cost a compare per value.
    // Free text (tokens) gets no min/max: every block of it spans nearly the whole range, so they would
    // prune nothing, and comparing a million ~100-char values costs ~0.1 µs a row at compaction.
    ...(choice.search && tokenized === null ? stringStats(used.length, stringsInUse, valueAt, hex) : {}),
    ...(choice.search ? valueCountsOf(used.length, stringsInUse, counts) : {}),
  };
}

/** The footer's value counts, when the column has few enough distinct values (`VALUE_COUNTS_MAX_*`). */
function valueCountsOf(
  count: number,
  strings: () => string[],
  counts: Uint32Array,
): { valueCounts?: [string, number][] } {
  if (count === 0 || count > VALUE_COUNTS_MAX_VALUES) return {};
  const values = strings();
  let chars = 0;
  for (const v of values) if ((chars += v.length) > VALUE_COUNTS_MAX_CHARS) return {};
  return { valueCounts: values.map((v, m) => [v, counts[m]]) };
}

/**
 * `encodeStrings` of a UTF-8 dictionary for the log (no search): the same chunk bytes and footer entry,
 * with the dictionary's bytes copied instead of strings encoded. `values` stays empty (no token filter is
 * built for the log).
 */
function encodeUtf8Strings(
  codes: Int32Array,
  dict: Utf8Dict,
  n: number,
  choice: StringChoice,
): EncodedStrings {
  const { used, seq, nulls } = codesByFirstUse(codes, dict.ends.length, n);
  // Sized for the usual chunk (value bytes, a few bytes per length and code), so it rarely grows.
  const w = new ByteWriter(64 + dict.bytes.length + 4 * (used.length + n));
  const nullCount = writeNulls(w, nulls, n);
  w.u8(VALUES_PLAIN);
  w.varint(used.length);
  writePlainUtf8(w, dict, used);
  const codesLayout = writeCodes(w, seq, n, used.length === n - nullCount, choice);
  return {
    encoding: 'strings',
    payload: w.finish(),
    nullCount,
    dictSize: used.length,
    layout: `plain/${codesLayout}`,
    values: [],
    tokenized: null,
    hex: null,
  };
}

/**
 * Keeps only the dictionary entries in use (a selected batch may share a larger dictionary), in order of
 * first use: `used[m]` is the dictionary code of new code m, `seq` the new code per row. Null rows repeat
 * the previous code so they do not break runs.
 */
function codesByFirstUse(
  codes: Int32Array,
  dictSize: number,
  n: number,
): { used: number[]; seq: Uint32Array; nulls: Uint8Array | null; counts: Uint32Array } {
  // The tables below cover the codes in use: a block cut from a large sorted batch (one time span of a
  // flush) shares the batch's dictionary, of which a unique column like an id uses a narrow range.
  let low = 0;
  let high = dictSize - 1;
  if (dictSize > 2 * n) {
    low = dictSize;
    high = -1;
    for (let i = 0; i < n; i++) {
      const c = codes[i];
      if (c < 0) continue;
      if (c < low) low = c;
      if (c > high) high = c;
    }
  }
  const range = Math.max(0, high - low + 1);
  const remap = new Int32Array(range).fill(-1);
  const used: number[] = [];
  // Rows per dictionary code (less `low`), re-indexed by new code at the end (`valueCounts`).
  const perCode = new Uint32Array(range);
  const seq = new Uint32Array(n);
  let nulls: Uint8Array | null = null;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    if (c < 0) {
      (nulls ??= new Uint8Array(n))[i] = 1;
      seq[i] = prev;
      continue;
    }
    const k = c - low;
    perCode[k]++;
    let m = remap[k];
    if (m === -1) {
      m = remap[k] = used.length;
      used.push(c);
    }
    seq[i] = prev = m;
  }
  const counts = new Uint32Array(used.length);
  for (let m = 0; m < used.length; m++) counts[m] = perCode[used[m] - low];
  return { used, seq, nulls, counts };
}

/** The codes section: identity when every non-null row has its own value, else a sequence. */
function writeCodes(
  w: ByteWriter,
  seq: Uint32Array,
  n: number,
  identity: boolean,
  choice: StringChoice,
): string {
  if (identity) {
    w.u8(CODES_IDENTITY);
    return 'identity';
  }
  w.u8(CODES_SEQUENCE);
  return writeIntSeq(w, seq, n, intStats(seq, n), choice);
}

/**
 * Tokens of the values (the entries `used` of a UTF-8 dictionary) when free text makes the token layout
 * clearly smaller than plain values. Sizes are in UTF-16 units, as the strings' lengths would give them.
 */
function worthTokenizing(dict: Utf8Dict, used: ArrayLike<number>): Tokenized | null {
  const count = used.length;
  if (count < MIN_TOKEN_DICT) return null;
  const { bytes, ends } = dict;
  const ascii = isAsciiDict(bytes);
  let chars = 0;
  let sampled = 0;
  let spaced = 0;
  for (let m = 0; m < count; m++) {
    const d = used[m];
    const start = d === 0 ? 0 : ends[d - 1];
    chars += ascii ? ends[d] - start : utf16Length(bytes, start, ends[d]);
    // A sample is enough to see whether values have spaces (a value without one is a single token).
    if (m % 16 === 0) {
      sampled++;
      if (hasSpace(bytes, start, ends[d])) spaced++;
    }
  }
  if (chars < count * MIN_TOKEN_AVG_CHARS || spaced * 2 < sampled) return null;
  // Words of free text average ~5 chars and a space: a code array this large rarely has to grow.
  const tokenized = tokenizeUtf8(dict, used, Math.ceil(chars / 5) + count);
  return tokenized !== null && tokenizedSize(tokenized, count) < chars * TOKEN_GAIN ? tokenized : null;
}

/** UTF-16 units of valid UTF-8 bytes: one per lead byte, two for a 4-byte sequence. */
function utf16Length(bytes: Uint8Array, start: number, end: number): number {
  let units = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

function hasSpace(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === SPACE) return true;
  return false;
}

const SPACE = 0x20;

/**
 * Whether a dictionary's bytes are all ASCII, remembered per dictionary: the blocks of one time span of a
 * flush share the flush's dictionary, which may hold a hundred MB of text.
 */
function isAsciiDict(bytes: Uint8Array): boolean {
  let ascii = ASCII_DICTS.get(bytes);
  if (ascii === undefined) ASCII_DICTS.set(bytes, (ascii = isAscii(bytes)));
  return ascii;
}
const ASCII_DICTS = new WeakMap<Uint8Array, boolean>();

function stringStats(
  count: number,
  strings: () => string[],
  valueAt: (m: number) => string,
  hex: HexValues | null,
): { min?: string; max?: string } {
  let min: string | undefined;
  let max: string | undefined;
  if (hex !== null && count > 0) {
    const [lo, hi] = hexMinMax(hex, count);
    min = valueAt(lo);
    max = valueAt(hi);
  } else {
    const values = strings();
    for (let d = 0; d < values.length; d++) {
      const s = values[d];
      if (min === undefined || s < min) min = s;
      if (max === undefined || s > max) max = s;
    }
  }
  const stats: { min?: string; max?: string } = {};
  if (min !== undefined && min.length <= MAX_STRING_STAT) stats.min = min;
  if (max !== undefined && max.length <= MAX_STRING_STAT) stats.max = max;
  return stats;
}
