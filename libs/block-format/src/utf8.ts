import { internal } from '@quarry/common';

/** `ignoreBOM`: a value may start with U+FEFF, which a default decoder would drop. */
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 bytes as a string; invalid UTF-8 is a corrupt chunk of column `name`. */
export function utf8(bytes: Uint8Array, name: string): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    throw internal(`corrupt block: column "${name}" has invalid UTF-8`, { code: 'block_corrupt' });
  }
}
