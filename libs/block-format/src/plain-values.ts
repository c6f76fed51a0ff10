import { isAscii, isUtf8 } from 'node:buffer';
import type { Utf8Dict } from '@quarry/contracts';
import type { ByteReader, ByteWriter } from './bytes';
import { intStats, readIntSeq, writeIntSeq } from './int-seq';

/**
 * Plain dictionary values (docs/block-format.md, "strings"): the UTF-8 byte length of each value as an
 * integer sequence, then all the values' bytes back to back. Used for string dictionaries and for the
 * token dictionary of `tokens` values.
 *
 * These are the entries `used` of a UTF-8 dictionary, in that order. When `used` is the whole dictionary
 * in order (what a fresh ingest batch has), one copy of the blob.
 */
export function writePlainUtf8(out: ByteWriter, dict: Utf8Dict, used: readonly number[]): void {
  const { bytes, ends } = dict;
  const count = used.length;
  const lengths = new Uint32Array(count);
  let inOrder = count === ends.length;
  for (let m = 0; m < count; m++) {
    const d = used[m];
    if (d !== m) inOrder = false;
    lengths[m] = ends[d] - (d === 0 ? 0 : ends[d - 1]);
  }
  writeIntSeq(out, lengths, count, intStats(lengths, count));
  if (inOrder) {
    out.bytes(bytes.subarray(0, count === 0 ? 0 : ends[count - 1]));
    return;
  }
  for (let m = 0; m < count; m++) {
    const d = used[m];
    out.bytes(bytes.subarray(d === 0 ? 0 : ends[d - 1], ends[d]));
  }
}

export function readPlainValues(r: ByteReader, count: number): string[] {
  const { lengths, blob } = readPlainBlob(r, count);
  return decodeUtf8Values(blob, lengths, count, r);
}

/**
 * `count` plain values as a UTF-8 dictionary, not decoded: checked as `readPlainValues` checks them (valid
 * UTF-8, no value starting inside a character), so their strings decode without error later.
 */
export function readPlainUtf8(r: ByteReader, count: number): Utf8Dict {
  const { lengths, blob } = readPlainBlob(r, count);
  const ends = new Int32Array(count);
  for (let d = 0, end = 0; d < count; d++) ends[d] = end += lengths[d];
  const buffer = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (!isAscii(buffer)) {
    if (!isUtf8(buffer)) r.fail('has invalid UTF-8');
    for (let d = 0; d < count; d++) {
      const start = d === 0 ? 0 : ends[d - 1];
      if (start !== ends[d] && (blob[start] & 0xc0) === 0x80)
        r.fail('has a value split inside a UTF-8 character');
    }
  }
  return { bytes: blob, ends };
}

/** The byte lengths and the bytes of `count` plain values, not decoded. */
export function readPlainBlob(r: ByteReader, count: number): { lengths: Float64Array; blob: Uint8Array } {
  const lengths = readIntSeq(r, count);
  let total = 0;
  for (let d = 0; d < count; d++) {
    if (!(lengths[d] >= 0)) r.fail(`has a value of ${lengths[d]} bytes`);
    total += lengths[d];
  }
  r.check(total <= r.buf.length, `claims ${total} bytes of values`);
  return { lengths, blob: r.bytes(total) };
}

/** Text joined or decoded in one piece (chars or bytes), well below V8's longest string (2^29 − 24 chars). */
export const TEXT_BATCH_CHARS = 1 << 24;

/**
 * Splits `blob`, the UTF-8 bytes of `count` strings back to back with the given byte lengths, into
 * strings. One decode per batch of values, then substrings (V8 makes longer ones slices of the decoded
 * text, which the values keep alive together): much faster than a decode per value.
 */
export function decodeUtf8Values(
  blob: Uint8Array,
  lengths: ArrayLike<number>,
  count: number,
  r: ByteReader,
): string[] {
  const out: string[] = new Array(count);
  decodeUtf8Into(blob, lengths, count, out, 0, r);
  return out;
}

/** `decodeUtf8Values` into `out[at..at+count)`. */
export function decodeUtf8Into(
  blob: Uint8Array,
  lengths: ArrayLike<number>,
  count: number,
  out: string[],
  at: number,
  r: ByteReader,
): void {
  let byte = 0;
  for (let first = 0; first < count;) {
    const start = byte;
    let end = first;
    while (end < count && (end === first || byte - start + lengths[end] <= TEXT_BATCH_CHARS))
      byte += lengths[end++];
    decodeBatch(blob.subarray(start, byte), lengths, first, end, out, at, r);
    first = end;
  }
}

function decodeBatch(
  blob: Uint8Array,
  lengths: ArrayLike<number>,
  first: number,
  end: number,
  out: string[],
  at: number,
  r: ByteReader,
): void {
  const buffer = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (isAscii(buffer)) {
    // ASCII (most dictionaries): latin1 is a plain copy, and character offsets are byte offsets.
    const text = buffer.toString('latin1');
    let o = 0;
    for (let d = first; d < end; d++) {
      const next = o + lengths[d];
      out[at + d] = text.substring(o, next);
      o = next;
    }
    return;
  }
  if (!isUtf8(buffer)) r.fail('has invalid UTF-8');
  const text = buffer.toString('utf8');
  // UTF-16 length of each value from its bytes: one unit per lead byte, two for a 4-byte sequence. Each
  // value must start on a lead byte, or the blob's valid UTF-8 would not make valid values.
  let byte = 0;
  let char = 0;
  for (let d = first; d < end; d++) {
    const stop = byte + lengths[d];
    if (byte !== stop && (blob[byte] & 0xc0) === 0x80) r.fail('has a value split inside a UTF-8 character');
    let units = 0;
    for (; byte < stop; byte++) {
      const b = blob[byte];
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    out[at + d] = text.substring(char, char + units);
    char += units;
  }
}
