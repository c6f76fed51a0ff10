import { inflateRawSync } from 'node:zlib';
import { internal } from '@quarry/common';
import * as zstd from 'zstd-napi/binding';
import type { ChunkCompression } from './format';

/**
 * Chunk compression: zstd (v2 writers, docs/adr/0004), raw deflate (v1 blocks, read only), or none. One
 * zstd context of each kind per process: creating one costs more than compressing a small chunk, and the
 * block codec is synchronous, so they are never used concurrently.
 */
let cctx: zstd.CCtx | null = null;
let dctx: zstd.DCtx | null = null;

/** zstd frame of `payload` at `level` (one frame with its content size, no checksum: chunks carry a CRC-32). */
export function zstdCompress(payload: Uint8Array, level: number): Uint8Array {
  cctx ??= new zstd.CCtx();
  const out = Buffer.allocUnsafe(zstd.compressBound(payload.length));
  const length = cctx.compress(out, payload, level);
  return out.subarray(0, length);
}

/**
 * The `rawLength` bytes a stored chunk holds. Any failure, including a frame that does not decompress to
 * exactly `rawLength` bytes, is a `block_corrupt` naming the column.
 */
export function decompress(
  stored: Uint8Array,
  compression: ChunkCompression,
  rawLength: number,
  column: string,
): Uint8Array {
  if (compression === 'none') return stored;
  const fail = (what: string) =>
    internal(`corrupt block: chunk of column "${column}" ${what}`, { code: 'block_corrupt' });
  if (compression === 'zstd') {
    dctx ??= new zstd.DCtx();
    const out = Buffer.allocUnsafe(rawLength);
    let length: number;
    try {
      length = dctx.decompress(out, stored);
    } catch {
      throw fail('does not decompress (zstd)');
    }
    if (length !== rawLength) throw fail(`decompresses to ${length} bytes, not ${rawLength}`);
    return out;
  }
  if (compression === 'deflate') {
    try {
      return inflateRawSync(stored, { maxOutputLength: Math.max(1, rawLength) });
    } catch {
      throw fail('does not inflate');
    }
  }
  throw fail(`has unknown compression "${String(compression)}"`);
}
