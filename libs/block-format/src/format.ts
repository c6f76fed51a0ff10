import type { ColumnKind } from '@quarry/contracts';

/**
 * Block file layout, versions 1 and 2 (docs/block-format.md is the normative description):
 *
 *   [0,4)   magic "QBLK"
 *   [4]     version (u8)
 *   [5,8)   reserved, zero
 *   ...     column chunks, back to back, each possibly compressed (v1: deflate; v2: zstd), in v2 each
 *           string column's token filter right after its chunk
 *   ...     footer: UTF-8 JSON (`BlockFooter`)
 *   last 12 bytes (the trailer): footer length u32 LE, footer CRC-32 u32 LE, magic "QBLK"
 *
 * A reader fetches the trailer, then the footer, then only the chunks of the columns it needs.
 */
export const MAGIC = new Uint8Array([0x51, 0x42, 0x4c, 0x4b]); // "QBLK"
export const HEADER_BYTES = 8;
export const FOOTER_TRAILER_BYTES = 12;
/** The version this code writes. Readers keep decoding every older version. */
export const BLOCK_FORMAT_VERSION = 2;
export const SUPPORTED_VERSIONS: readonly number[] = [1, 2];

/** How a chunk's (uncompressed) payload is laid out. */
export type ChunkEncoding =
  /** float64 LE per row (null rows hold 0). v1 and v2. */
  | 'plain-f64'
  /** v1 only. Datetime: µs as zigzag varints, first absolute, then deltas from the previous row. */
  | 'delta-varint-us'
  /** v1 only. 1 bit per row, LSB first. */
  | 'bitmap'
  /** v1 only. Dictionary of length-prefixed UTF-8 strings + per-row codes (u8/u16/u32, 0 = null, else code + 1). */
  | 'dict'
  /** Per row: varint byte length of the JSON text, then the text; length 0 = null. v1 and v2. */
  | 'json'
  /** v2. Numbers and booleans: a decimal exponent, then an integer sequence (for, delta or rle). */
  | 'ints'
  /** v2. Strings: a dictionary (plain, hex, uuid or tokens), then codes (identity or an integer sequence). */
  | 'strings';

/** `deflate` is read only (v1 blocks); v2 writers use `zstd` or `none`. */
export type ChunkCompression = 'none' | 'deflate' | 'zstd';

export interface ColumnMeta {
  name: string;
  kind: ColumnKind;
  /** Byte offset of the chunk from the start of the file, and its stored (possibly compressed) length. */
  offset: number;
  length: number;
  /** Payload length after decompression. */
  rawLength: number;
  encoding: ChunkEncoding;
  compression: ChunkCompression;
  /** CRC-32 of the stored chunk bytes. */
  crc32: number;
  nullCount: number;
  /** Smallest and largest non-null value: numbers for numeric kinds, strings (≤ 64 chars) for strings. */
  min?: number | string;
  max?: number | string;
  /** Distinct values, for `dict` and `strings` chunks. */
  dictSize?: number;
  /**
   * Rows per distinct non-null value of a string column with few distinct values (compact blocks; at most
   * `VALUE_COUNTS_MAX_VALUES` values of `VALUE_COUNTS_MAX_CHARS` characters in all): `summarize count() by
   * status` and `where status == "500" | count` are answered from these without decoding the column.
   * Optional: older blocks, and columns with more distinct values, have none.
   */
  valueCounts?: [string, number][];
  /**
   * v2, informational (the payload describes itself): how an `ints` chunk's sequence is laid out
   * (`for`, `delta`, `rle`, with `/e3` for a decimal exponent of 3), or a `strings` chunk's dictionary and
   * codes (`plain/for`, `hex/identity`, `tokens/identity`, ...).
   */
  layout?: string;
  /** v2: where this column's token filter is stored (string columns; see `readTokenFilter`). */
  filterOffset?: number;
  filterLength?: number;
  /** CRC-32 of the filter bytes. */
  filterCrc32?: number;
}

export interface BlockFooter {
  version: number;
  rowCount: number;
  /** `_time` range of the rows (epoch ms), or null when the block has no `_time` column or no rows. */
  minTime: number | null;
  maxTime: number | null;
  columns: ColumnMeta[];
}

/**
 * Chunk payloads of every encoding start with a null section: one flags byte (bit 0: a null bitmap
 * follows), then the bitmap (1 = null) of ceil(rows / 8) bytes. `dict` and `json` encode nulls in their
 * values instead and always write flags 0.
 */
export const FLAG_HAS_NULLS = 1;
