import { QuarryError } from '@quarry/common';

/** Key limits. 1024 bytes is S3's; 255 bytes per segment is the common file-name limit. */
export const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
/** Infix of the temporary files `FsObjectStore.put` writes; keys may not contain it so they never collide. */
export const TEMP_MARKER = '.quarry-tmp-';

/**
 * Checks a key and returns its segments. Keys are validated strictly, by fake and adapter alike, because
 * the file-system adapter maps them to paths: `..`, absolute paths, empty segments or backslashes would
 * let a key escape the root or alias another key.
 */
export function validateKey(key: string): string[] {
  const fail = (why: string) =>
    new QuarryError('invalid', `invalid object key ${JSON.stringify(key)}: ${why}`, {
      code: 'objstore_bad_key',
    });
  if (typeof key !== 'string' || key.length === 0) throw fail('empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw fail(`longer than ${MAX_KEY_BYTES} bytes`);
  if (key.includes('\\')) throw fail('backslash');
  if (key.includes('\0')) throw fail('NUL byte');
  if (key.startsWith('/')) throw fail('absolute');
  if (key.includes(TEMP_MARKER)) throw fail(`contains the reserved ${TEMP_MARKER}`);
  const segments = key.split('/');
  for (const s of segments) {
    if (s.length === 0) throw fail('empty segment');
    if (s === '.' || s === '..') throw fail(`"${s}" segment`);
    if (Buffer.byteLength(s) > MAX_SEGMENT_BYTES)
      throw fail(`segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  return segments;
}

/** A list prefix may end mid-segment or with `/`, but may not escape the root either. */
export function validatePrefix(prefix: string): void {
  if (prefix === '') return;
  const fail = (why: string) =>
    new QuarryError('invalid', `invalid object key prefix ${JSON.stringify(prefix)}: ${why}`, {
      code: 'objstore_bad_key',
    });
  if (prefix.includes('\\')) throw fail('backslash');
  if (prefix.includes('\0')) throw fail('NUL byte');
  if (prefix.startsWith('/')) throw fail('absolute');
  const segments = prefix.split('/');
  // The last piece is a partial name; every complete segment must be a valid one.
  for (const s of segments.slice(0, -1)) {
    if (s.length === 0) throw fail('empty segment');
    if (s === '.' || s === '..') throw fail(`"${s}" segment`);
  }
}

export function checkRange(key: string, offset: number, length: number, size: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new QuarryError('invalid', `invalid range ${offset}+${length} for ${key}`, {
      code: 'objstore_bad_range',
    });
  }
  if (offset > size) {
    throw new QuarryError('invalid', `range start ${offset} is past the end of ${key} (${size} bytes)`, {
      code: 'objstore_bad_range',
    });
  }
}

export function notFound(key: string, cause?: unknown): QuarryError {
  return new QuarryError('not_found', `object ${key} not found`, { code: 'objstore_not_found', cause });
}
