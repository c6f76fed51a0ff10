import { crc32 } from 'node:zlib';
import { internal } from '@quarry/common';
import { type ColumnBatch, TIME_FIELD } from '@quarry/contracts';
import { ByteWriter } from './bytes';
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
  const out = new ByteWriter(HEADER_BYTES + 1024);
  out.bytes(MAGIC);
  out.u8(BLOCK_FORMAT_VERSION);
  out.bytes(new Uint8Array(HEADER_BYTES - MAGIC.length - 1));

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
      offset: out.length,
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
    out.bytes(stored);
    if (filters && column.kind === 'string') {
      const filter = buildTokenFilter(encoded as EncodedStrings, n);
      meta.filterOffset = out.length;
      meta.filterLength = filter.length;
      meta.filterCrc32 = crc32(filter);
      out.bytes(filter);
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
  out.bytes(footerBytes);
  out.u32(footerBytes.length);
  out.u32(crc32(footerBytes));
  out.bytes(MAGIC);
  return out.finish();
}
