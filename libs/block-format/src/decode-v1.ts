import type { Column, ColumnKind } from '@quarry/contracts';
import { type ByteReader, unpackBits } from './bytes';
import { utf8 } from './utf8';

/**
 * Decoders of the encodings only version-1 blocks use (docs/block-format.md, "Chunk encodings (v1)").
 * v2 writers never produce them, but v1 blocks stay readable forever.
 */

export function decodeDeltaVarintUs(
  r: ByteReader,
  kind: ColumnKind,
  n: number,
  nulls: Uint8Array | null,
): Column {
  const values = new Float64Array(n);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const z = r.varint();
    // Un-zigzag with float arithmetic (values stay below 2^53).
    const delta = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    prev += delta;
    values[i] = prev / 1000;
  }
  if (nulls) for (let i = 0; i < n; i++) if (nulls[i] !== 0) values[i] = 0;
  return { kind: kind as 'datetime', values, nulls };
}

export function decodeBitmap(r: ByteReader, n: number, nulls: Uint8Array | null): Column {
  return { kind: 'bool', values: unpackBits(r.bytes((n + 7) >>> 3), n), nulls };
}

/** Dictionary with u8/u16/u32 codes, 0 = null. */
export function decodeDict(r: ByteReader, n: number, payloadLength: number, name: string): Column {
  const size = r.varint();
  r.check(size <= payloadLength, `claims ${size} dictionary entries`);
  const dict: string[] = new Array(size);
  for (let d = 0; d < size; d++) dict[d] = utf8(r.bytes(r.varint()), name);
  const width = r.u8();
  r.check(width === 1 || width === 2 || width === 4, `has code width ${width}`);
  const raw = new Uint8Array(r.bytes(n * width)); // aligned copy for the u16/u32 views
  const packed =
    width === 1 ? raw : width === 2 ? new Uint16Array(raw.buffer, 0, n) : new Uint32Array(raw.buffer, 0, n);
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = packed[i] - 1;
    if (c >= size) r.fail(`row ${i} has code ${c} past its dictionary`);
    codes[i] = c;
  }
  return { kind: 'string', codes, dict };
}
