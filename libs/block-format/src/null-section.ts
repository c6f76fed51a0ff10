import { type ByteReader, type ByteWriter, packBits, unpackBits } from './bytes';
import { FLAG_HAS_NULLS } from './format';

/** Writes a chunk's null section (flags byte, then the null bitmap when there are nulls); returns the null count. */
export function writeNulls(w: ByteWriter, nulls: Uint8Array | null, n: number): number {
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

/** Reads a null section: one byte per row (1 = null), or null when the chunk has no nulls. */
export function readNulls(r: ByteReader, n: number): Uint8Array | null {
  const flags = r.u8();
  return flags & FLAG_HAS_NULLS ? unpackBits(r.bytes((n + 7) >>> 3), n) : null;
}
