import type { Utf8Dict } from '@quarry/contracts';
import type { ByteReader, ByteWriter } from './bytes';

/**
 * Dictionaries of hex strings stored as their bytes (docs/block-format.md, "strings"): trace and span
 * ids, hashes, request ids are half the size as bytes, and zstd cannot halve random hex text by itself.
 *
 *   hex:  u8 case (0 lower, 1 upper), varint L, then L bytes per value (each value is 2L hex digits)
 *   uuid: u8 case, then 16 bytes per value (each value is 8-4-4-4-12 hex digits with hyphens)
 */
export type HexKind = 'hex' | 'uuid';

/** Values as bytes: `width` bytes per value, from `hexBytes`. */
export interface HexValues {
  kind: HexKind;
  upper: boolean;
  bytes: Uint8Array;
  width: number;
}

const LOWER = 0;
const UPPER = 1;

/** Value of a hex digit char code, or -1. Indexed by char code; 'a'–'f' and 'A'–'F' both listed. */
const DIGIT = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) DIGIT[48 + c] = c;
for (let c = 0; c < 6; c++) DIGIT[97 + c] = DIGIT[65 + c] = 10 + c;

const UUID_DASHES = [8, 13, 18, 23];

/**
 * The bytes of every value (the entries `used` of a UTF-8 dictionary, in that order) when all are hex of
 * one case and one even length (or all canonical UUIDs of one case), else null. A value of digits only
 * fits either case. Hex text is ASCII, so its bytes are its characters.
 */
export function hexBytes(dict: Utf8Dict, used: ArrayLike<number>): HexValues | null {
  const count = used.length;
  if (count === 0) return null;
  const { bytes: text, ends } = dict;
  const startOf = (d: number) => (d === 0 ? 0 : ends[d - 1]);
  const len = ends[used[0]] - startOf(used[0]);
  const uuid = len === 36 && isUuidShape(text, startOf(used[0]));
  if (!uuid && (len === 0 || len % 2 !== 0)) return null;
  const width = uuid ? 16 : len / 2;
  const bytes = new Uint8Array(count * width);
  let sawLower = false;
  let sawUpper = false;
  let o = 0;
  for (let m = 0; m < count; m++) {
    const start = startOf(used[m]);
    if (ends[used[m]] - start !== len) return null;
    for (let i = 0; i < len;) {
      if (uuid && (i === 8 || i === 13 || i === 18 || i === 23)) {
        if (text[start + i] !== 45) return null; // '-'
        i++;
        continue;
      }
      const hi = text[start + i];
      const lo = text[start + i + 1];
      if (hi >= 128 || lo >= 128) return null;
      const a = DIGIT[hi];
      const b = DIGIT[lo];
      if (a < 0 || b < 0) return null;
      // Digits are below 65, 'A'–'F' below 97, 'a'–'f' from 97.
      if (hi >= 97 || lo >= 97) sawLower = true;
      if ((hi >= 65 && hi < 97) || (lo >= 65 && lo < 97)) sawUpper = true;
      bytes[o++] = (a << 4) | b;
      i += 2;
    }
  }
  if (sawLower && sawUpper) return null;
  return { kind: uuid ? 'uuid' : 'hex', upper: sawUpper, bytes, width };
}

function isUuidShape(text: Uint8Array, start: number): boolean {
  for (const i of UUID_DASHES) if (text[start + i] !== 45) return false;
  return true;
}

export function writeHexValues(out: ByteWriter, hex: HexValues): void {
  out.u8(hex.upper ? UPPER : LOWER);
  if (hex.kind === 'hex') out.varint(hex.width);
  out.bytes(hex.bytes);
}

/** Two hex chars per byte value, as the UTF-16 pair a Uint16Array holds on a little-endian host. */
function pairTable(upper: boolean): Uint16Array {
  const digits = upper ? '0123456789ABCDEF' : '0123456789abcdef';
  const table = new Uint16Array(256);
  for (let b = 0; b < 256; b++) table[b] = digits.charCodeAt(b >> 4) | (digits.charCodeAt(b & 15) << 8);
  return table;
}
const PAIRS = [pairTable(false), pairTable(true)];

export function readHexValues(r: ByteReader, count: number, kind: HexKind): string[] {
  const letterCase = r.u8();
  r.check(letterCase === LOWER || letterCase === UPPER, `has hex case ${letterCase}`);
  const width = kind === 'uuid' ? 16 : r.varint();
  r.check(width > 0 && count * width <= r.buf.length, `claims ${count} hex values of ${width} bytes`);
  const bytes = r.bytes(count * width);
  const chars = kind === 'uuid' ? 36 : width * 2;
  // All the values' text as ASCII bytes, then one string and a substring per value.
  const text = new Uint8Array(count * chars);
  const pairs = PAIRS[letterCase];
  let o = 0;
  let b = 0;
  for (let d = 0; d < count; d++) {
    for (let i = 0; i < width; i++) {
      if (kind === 'uuid' && (i === 4 || i === 6 || i === 8 || i === 10)) text[o++] = 45;
      const pair = pairs[bytes[b++]];
      text[o++] = pair & 0xff;
      text[o++] = pair >>> 8;
    }
  }
  const all = Buffer.from(text.buffer, 0, text.length).toString('latin1');
  const out: string[] = new Array(count);
  for (let d = 0; d < count; d++) out[d] = all.substring(d * chars, (d + 1) * chars);
  return out;
}

/**
 * Indexes of the smallest and largest value, compared as bytes: the same order as their text, since
 * '0'–'9' sort before 'A'–'F' and 'a'–'f' (and the hyphens of uuids are at fixed places).
 */
export function hexMinMax(hex: HexValues, count: number): [number, number] {
  const { bytes, width } = hex;
  let min = 0;
  let max = 0;
  for (let d = 1; d < count; d++) {
    const o = d * width;
    if (compareAt(bytes, o, min * width, width) < 0) min = d;
    else if (compareAt(bytes, o, max * width, width) > 0) max = d;
  }
  return [min, max];
}

function compareAt(bytes: Uint8Array, a: number, b: number, width: number): number {
  for (let i = 0; i < width; i++) {
    const diff = bytes[a + i] - bytes[b + i];
    if (diff !== 0) return diff;
  }
  return 0;
}
