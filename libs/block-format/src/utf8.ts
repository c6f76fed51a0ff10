import { internal } from '@quarry/common';
import { decodeUtf8, type Utf8Dict } from '@quarry/contracts';

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes as a string; invalid UTF-8 is a corrupt chunk of column `name`. */
export function utf8(bytes: Uint8Array, name: string): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    throw internal(`corrupt block: column "${name}" has invalid UTF-8`, { code: 'block_corrupt' });
  }
}

/**
 * The smallest and largest of the used values of a UTF-8 dictionary, as strings (undefined when none is
 * used), found by comparing bytes; null when some value has a character beyond U+FFFF, where byte order
 * and JS string order (UTF-16 code units) disagree, so the caller compares strings instead.
 */
export function utf8MinMax(
  dict: Utf8Dict,
  used: readonly number[],
): [string | undefined, string | undefined] | null {
  const { bytes, ends } = dict;
  if (used.length === 0) return [undefined, undefined];
  // Lead bytes 0xF0-0xF4 start the 4-byte sequences of U+10000 and above.
  const size = ends.length === 0 ? 0 : ends[ends.length - 1];
  for (let i = 0; i < size; i++) if (bytes[i] >= 0xf0) return null;
  let min = used[0];
  let max = used[0];
  for (let m = 1; m < used.length; m++) {
    const d = used[m];
    if (compareEntries(dict, d, min) < 0) min = d;
    else if (compareEntries(dict, d, max) > 0) max = d;
  }
  return [entry(dict, min), entry(dict, max)];
}

function compareEntries({ bytes, ends }: Utf8Dict, a: number, b: number): number {
  const aStart = a === 0 ? 0 : ends[a - 1];
  const bStart = b === 0 ? 0 : ends[b - 1];
  const aLength = ends[a] - aStart;
  const bLength = ends[b] - bStart;
  const common = Math.min(aLength, bLength);
  for (let k = 0; k < common; k++) {
    const diff = bytes[aStart + k] - bytes[bStart + k];
    if (diff !== 0) return diff;
  }
  return aLength - bLength;
}

function entry({ bytes, ends }: Utf8Dict, d: number): string {
  return decodeUtf8(bytes, d === 0 ? 0 : ends[d - 1], ends[d]);
}
