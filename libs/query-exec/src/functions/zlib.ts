import { deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { str, type ScalarImpl } from './scalar-impl';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * zlib (RFC 1950, window 15) of the UTF-8 bytes of `text`, as base64. Kusto's page shows
 * `"1234567890qwertyuiop"` → `eAEBFADr/zEy…`: a stored (uncompressed) block, because deflating those 20
 * bytes would take more than 20. So: deflate, and when that does not make the data smaller keep it stored
 * (level 0), which reproduces the documented bytes and still compresses anything compressible.
 */
export function zlibCompressToBase64(text: string): string {
  const input = Buffer.from(text, 'utf8');
  const deflated = deflateSync(input);
  // 2 bytes of header and 4 of Adler-32 around the deflate body.
  const body = deflated.length - 6;
  const out = body < input.length ? deflated : deflateSync(input, { level: 0 });
  return out.toString('base64');
}

/** The text of a base64 zlib stream, or null when it is not base64, not zlib or not UTF-8. */
export function zlibDecompressFromBase64(encoded: string): string | null {
  const trimmed = encoded.trim();
  if (trimmed === '' || !BASE64.test(trimmed)) return null;
  try {
    return UTF8.decode(inflateSync(Buffer.from(trimmed, 'base64')));
  } catch {
    return null;
  }
}

/**
 * gzip (RFC 1952) of the UTF-8 bytes of `text`, as base64, with the header Kusto's page shows
 * (`H4sIAAAAAAAA/w…`: no name, no time, OS 255) and the same stored-when-not-smaller rule as zlib.
 */
export function gzipCompressToBase64(text: string): string {
  const input = Buffer.from(text, 'utf8');
  const compressed = gzipSync(input);
  // 10 bytes of header and 8 of CRC-32 and length around the deflate body.
  const out = compressed.length - 18 < input.length ? compressed : gzipSync(input, { level: 0 });
  out[8] = 0;
  out[9] = 0xff;
  return out.toString('base64');
}

/**
 * The text of a base64 gzip member, or null. As Kusto's page says, the header must be ID1 ID2 CM =
 * 1f 8b 08 with FLG zero (no optional fields); the CRC-32 and length must match and the text be UTF-8.
 */
export function gzipDecompressFromBase64(encoded: string): string | null {
  const trimmed = encoded.trim();
  if (trimmed === '' || !BASE64.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8 || bytes[3] !== 0)
    return null;
  try {
    return UTF8.decode(gunzipSync(bytes));
  } catch {
    return null;
  }
}

export const ZLIB_FUNCTIONS: Record<string, ScalarImpl> = {
  zlib_compress_to_base64_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : zlibCompressToBase64(s);
  },
  zlib_decompress_from_base64_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : zlibDecompressFromBase64(s);
  },
  gzip_compress_to_base64_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : gzipCompressToBase64(s);
  },
  gzip_decompress_from_base64_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : gzipDecompressFromBase64(s);
  },
};
