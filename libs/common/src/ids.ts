import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A random UUID (v4). */
export function newId(): string {
  return randomUUID();
}

/** A short random id with a prefix, e.g. `ann_3f9c2a1b7d4e`. */
export function prefixedId(prefix: string, bytes = 8): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

/** SHA-256 of a UTF-8 string, as lower-case hex. Token secrets are stored only in this form. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
