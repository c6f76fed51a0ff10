import { deflateRawSync, crc32 } from 'node:zlib';
import { internal } from '@quarry/common';
import { type ColumnBatch, TIME_FIELD } from '@quarry/contracts';
import { ByteWriter } from './bytes';
import { encodeColumn } from './encode-column';
import { BLOCK_FORMAT_VERSION, type BlockFooter, type ColumnMeta, HEADER_BYTES, MAGIC } from './format';

export interface EncodeOptions {
  /** deflate level for chunks (1–9); 0 stores every chunk uncompressed. Level 3 is near level 6's ratio at twice the speed. */
  deflateLevel?: number;
}

/** Chunks shorter than this are stored raw: deflate cannot win enough on them to pay its header. */
const MIN_COMPRESS_BYTES = 64;

/**
 * Encodes the rows of one dataset as a version-1 block (layout in format.ts and docs/block-format.md).
 * Columns are written in name order so the same batch always gives the same bytes.
 */
export function encodeBlock(batch: ColumnBatch, options: EncodeOptions = {}): Uint8Array {
  const level = options.deflateLevel ?? 3;
  const n = batch.length;
  const out = new ByteWriter(HEADER_BYTES + 1024);
  out.bytes(MAGIC);
  out.u8(BLOCK_FORMAT_VERSION);
  out.bytes(new Uint8Array(HEADER_BYTES - MAGIC.length - 1));

  const names = [...batch.columns.keys()].sort();
  const columns: ColumnMeta[] = [];
  for (const name of names) {
    const column = batch.columns.get(name)!;
    const encoded = encodeColumn(column, n);
    let stored = encoded.payload;
    let compression: ColumnMeta['compression'] = 'none';
    if (level > 0 && stored.length >= MIN_COMPRESS_BYTES) {
      const deflated = deflateRawSync(stored, { level });
      if (deflated.length < stored.length) {
        stored = deflated;
        compression = 'deflate';
      }
    }
    const meta: ColumnMeta = {
      name,
      kind: column.kind,
      offset: out.length,
      length: stored.length,
      rawLength: encoded.payload.length,
      encoding: encoded.encoding,
      compression,
      crc32: crc32(stored),
      nullCount: encoded.nullCount,
    };
    if (encoded.min !== undefined) meta.min = encoded.min;
    if (encoded.max !== undefined) meta.max = encoded.max;
    if (encoded.dictSize !== undefined) meta.dictSize = encoded.dictSize;
    columns.push(meta);
    out.bytes(stored);
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
