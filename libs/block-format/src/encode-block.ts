import { crc32 } from 'node:zlib';
import { internal } from '@quarry/common';
import { type ColumnBatch, TIME_FIELD } from '@quarry/contracts';
import { zstdCompress } from './compression';
import { encodeColumn } from './encode-column';
import type { EncodedStrings } from './encode-strings';
import { BLOCK_FORMAT_VERSION, type BlockFooter, type ColumnMeta, HEADER_BYTES, MAGIC } from './format';
import { buildTokenFilter } from './token-filter-build';

/**
 * How to encode. Two presets:
 * - `compact` (the default, for blocks): the smallest layout per chunk (delta/rle sequences, hex/uuid and
 *   token strings), zstd, a token filter per string column.
 * - `fast` (the ingest log): plain dictionaries and frame-of-reference integers, no compression, no
 *   filters, no string min/max: about as cheap to write as raw columns, still a fraction of the JSON.
 * The other options override the preset's choice.
 */
export interface EncodeOptions {
  preset?: 'compact' | 'fast';
  /** Chunk compression: `zstd` (compact) or `none` (fast). */
  compression?: 'zstd' | 'none';
  /** zstd level (1–19; default 1: after bit packing higher levels find nothing more, docs/adr/0004). */
  zstdLevel?: number;
  /** Token filters of string columns for `has`/`contains` pruning (compact: on). */
  tokenFilters?: boolean;
  /**
   * Bytes left free before the block for the caller's own header (the ingest log record's): the result is
   * those bytes, then the block, so the block is not copied once more into a larger buffer.
   */
  headroom?: number;
  /** The result in a SharedArrayBuffer (the ingest log record, read by several threads). */
  shared?: boolean;
}

export const DEFAULT_ZSTD_LEVEL = 1;

/** Chunks shorter than this are stored raw: compression cannot win enough on them to pay its header. */
const MIN_COMPRESS_BYTES = 64;

/**
 * Encodes the rows of one dataset as a version-2 block (layout in format.ts and docs/block-format.md).
 * Columns are written in name order so the same batch always gives the same bytes.
 */
export function encodeBlock(batch: ColumnBatch, options: EncodeOptions = {}): Uint8Array {
  const compact = (options.preset ?? 'compact') === 'compact';
  const compression = options.compression ?? (compact ? 'zstd' : 'none');
  const level = options.zstdLevel ?? DEFAULT_ZSTD_LEVEL;
  const filters = options.tokenFilters ?? compact;
  const n = batch.length;
  // Chunks and filters are encoded first and copied once into a buffer of the block's exact size (a
  // growing writer copied the whole block about once more, and a caller with a header once again).
  const parts: Uint8Array[] = [];
  let offset = HEADER_BYTES;
  const names = [...batch.columns.keys()].sort();
  const columns: ColumnMeta[] = [];
  for (const name of names) {
    const column = batch.columns.get(name)!;
    const encoded = encodeColumn(column, n, { search: compact });
    let stored = encoded.payload;
    let storedCompression: ColumnMeta['compression'] = 'none';
    if (compression === 'zstd' && stored.length >= MIN_COMPRESS_BYTES) {
      const compressed = zstdCompress(stored, level);
      if (compressed.length < stored.length) {
        stored = compressed;
        storedCompression = 'zstd';
      }
    }
    const meta: ColumnMeta = {
      name,
      kind: column.kind,
      offset,
      length: stored.length,
      rawLength: encoded.payload.length,
      encoding: encoded.encoding,
      compression: storedCompression,
      crc32: crc32(stored),
      nullCount: encoded.nullCount,
    };
    if (encoded.min !== undefined) meta.min = encoded.min;
    if (encoded.max !== undefined) meta.max = encoded.max;
    if (encoded.dictSize !== undefined) meta.dictSize = encoded.dictSize;
    if (encoded.valueCounts !== undefined) meta.valueCounts = encoded.valueCounts;
    if (encoded.layout !== undefined) meta.layout = encoded.layout;
    parts.push(stored);
    offset += stored.length;
    if (filters && column.kind === 'string') {
      const filter = buildTokenFilter(encoded as EncodedStrings, n);
      meta.filterOffset = offset;
      meta.filterLength = filter.length;
      meta.filterCrc32 = crc32(filter);
      parts.push(filter);
      offset += filter.length;
    }
    columns.push(meta);
  }

  const time = columns.find((c) => c.name === TIME_FIELD && c.kind === 'datetime');
  const footer: BlockFooter = {
    version: BLOCK_FORMAT_VERSION,
    rowCount: n,
    minTime: typeof time?.min === 'number' ? time.min : null,
    maxTime: typeof time?.max === 'number' ? time.max : null,
    columns,
  };
  const footerBytes = new TextEncoder().encode(JSON.stringify(footer));
  if (footerBytes.length > 0xffffffff) throw internal('block footer too large');

  const headroom = options.headroom ?? 0;
  const size = headroom + offset + footerBytes.length + TRAILER_BYTES;
  const bytes = new Uint8Array(options.shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, headroom);
  bytes[headroom + MAGIC.length] = BLOCK_FORMAT_VERSION; // then zeros up to HEADER_BYTES
  let at = headroom + HEADER_BYTES;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  bytes.set(footerBytes, at);
  at += footerBytes.length;
  view.setUint32(at, footerBytes.length, true);
  view.setUint32(at + 4, crc32(footerBytes), true);
  bytes.set(MAGIC, at + 8);
  return bytes;
}

/** After the footer: its length (u32 LE), its CRC-32 (u32 LE), the magic again. */
const TRAILER_BYTES = 8 + MAGIC.length;
