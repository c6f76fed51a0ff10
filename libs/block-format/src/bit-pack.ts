import type { ByteReader, ByteWriter } from './bytes';

/**
 * Fixed-width bit packing (docs/block-format.md, "Bit packing"): value i occupies bits [i·w, (i+1)·w) of
 * a little-endian bit stream (stream bit j is bit j mod 8 of byte ⌊j/8⌋), ⌈n·w/8⌉ bytes. Packing works on
 * 32-bit words, which on a little-endian host are that same stream.
 */

/** Bits needed for an unsigned integer below 2^53 (0 for 0). */
export function bitWidth(v: number): number {
  if (v < 0x100000000) return 32 - Math.clz32(v);
  return 32 + (32 - Math.clz32(Math.floor(v / 0x100000000)));
}

export function packedLength(n: number, width: number): number {
  return Math.ceil((n * width) / 8);
}

/** Packs `values[0..n)`, each below 2^width (width 0–32), onto `out`. */
export function writePacked(out: ByteWriter, values: Uint32Array, n: number, width: number): void {
  writePackedOffsets(out, values, 0, n, width, 0);
}

/**
 * Packs `values[from + i] − base` for i in [0, n), each below 2^width (width 0–32), onto `out`: the
 * offsets are computed on the fly, without an array of them.
 */
export function writePackedOffsets(
  out: ByteWriter,
  values: Float64Array | Uint32Array | Int32Array,
  from: number,
  n: number,
  width: number,
  base: number,
): void {
  const length = packedLength(n, width);
  if (width === 0 || n === 0) return;
  const target = out.reserve(length);
  if (width === 8) {
    for (let i = 0; i < n; i++) target[i] = values[from + i] - base;
    return;
  }
  // Whole 32-bit words (one spare for the last partial word), copied to the unaligned target at the end.
  const words = new Uint32Array(Math.ceil(length / 4));
  if (width === 32 || width === 16) {
    const lanes = width === 32 ? words : new Uint16Array(words.buffer, 0, n);
    for (let i = 0; i < n; i++) lanes[i] = values[from + i] - base;
  } else {
    let word = 0;
    let used = 0; // bits of `word` filled
    let o = 0;
    for (let i = 0; i < n; i++) {
      const v = values[from + i] - base;
      word |= v << used;
      used += width;
      if (used >= 32) {
        words[o++] = word;
        used -= 32;
        // The bits of v that did not fit (none when it ended exactly at the word boundary).
        word = used === 0 ? 0 : v >>> (width - used);
      }
    }
    if (used > 0) words[o] = word;
  }
  target.set(new Uint8Array(words.buffer, 0, length));
}

/** Reads `n` values of `width` bits (0–32) packed by `writePacked`. */
export function readPacked(r: ByteReader, n: number, width: number): Uint32Array {
  r.check(width >= 0 && width <= 32, `has bit width ${width}`);
  const length = packedLength(n, width);
  const bytes = r.bytes(length);
  const out = new Uint32Array(n);
  if (width === 0 || n === 0) return out;
  if (width === 8) {
    for (let i = 0; i < n; i++) out[i] = bytes[i];
    return out;
  }
  // An aligned copy with one spare word, so a value straddling the last word reads zeros past the end.
  const words = new Uint32Array(Math.ceil(length / 4) + 1);
  new Uint8Array(words.buffer).set(bytes);
  if (width === 32) {
    out.set(words.subarray(0, n));
    return out;
  }
  if (width === 16) {
    const halves = new Uint16Array(words.buffer, 0, n);
    out.set(halves);
    return out;
  }
  const mask = (1 << width) - 1;
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const w = pos >>> 5;
    const shift = pos & 31;
    let v = words[w] >>> shift;
    if (shift + width > 32) v |= words[w + 1] << (32 - shift);
    out[i] = v & mask;
    pos += width;
  }
  return out;
}
