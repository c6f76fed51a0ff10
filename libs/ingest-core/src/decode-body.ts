import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { Decompress } from 'fzstd';
import { QuarryError, invalid, tooLarge } from '@quarry/common';
import { type IngestLimits, resolveLimits } from './limits';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

/** Input slice pushed into the zstd decoder at a time, so a bomb is caught within one slice of output. */
const ZSTD_INPUT_SLICE = 16 * 1024;

const SUPPORTED = 'identity, gzip, zstd, deflate, br';

/**
 * Decodes a request body according to its `Content-Encoding`. Absent or empty means identity (the JS client
 * sends `Content-Encoding: ` with no value). Output is capped while decoding, so a decompression bomb costs
 * at most the cap in memory: `too_large` (413). Corrupt data is `invalid` (400); an unknown encoding is
 * `unsupported_media_type` (415).
 */
export async function decodeBody(
  body: Buffer,
  contentEncoding: string | undefined,
  limits?: Partial<IngestLimits>,
): Promise<Buffer> {
  const lim = resolveLimits(limits);
  if (body.length > lim.maxCompressedBytes) {
    throw tooLarge(`request body is ${body.length} bytes; the limit is ${lim.maxCompressedBytes} bytes`, {
      code: 'ingest_body_too_large',
    });
  }
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') {
    if (body.length > lim.maxDecompressedBytes) throw bodyTooLarge(lim.maxDecompressedBytes);
    return body;
  }
  const cap = outputCap(body.length, lim);
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlibDecode(() => gunzip(body, { maxOutputLength: cap }), 'gzip', cap, lim);
    case 'deflate':
      // RFC 9110 says zlib-wrapped, but some clients send raw deflate; accept both.
      try {
        return await zlibDecode(() => inflate(body, { maxOutputLength: cap }), 'deflate', cap, lim);
      } catch (err) {
        if (err instanceof QuarryError && err.kind === 'too_large') throw err;
        return zlibDecode(() => inflateRaw(body, { maxOutputLength: cap }), 'deflate', cap, lim);
      }
    case 'br':
      return zlibDecode(() => brotli(body, { maxOutputLength: cap }), 'br', cap, lim);
    case 'zstd':
      return zstdDecode(body, cap, lim);
    default:
      throw new QuarryError(
        'unsupported_media_type',
        `unsupported Content-Encoding "${truncate(encoding, 40)}"; supported: ${SUPPORTED}`,
        { code: 'ingest_unsupported_encoding' },
      );
  }
}

/** The output budget for a compressed body: the absolute cap, tightened by the ratio cap for small inputs. */
function outputCap(compressedBytes: number, lim: IngestLimits): number {
  if (lim.maxDecompressionRatio <= 0) return lim.maxDecompressedBytes;
  const byRatio = Math.max(lim.ratioFreeBytes, compressedBytes * lim.maxDecompressionRatio);
  return Math.min(lim.maxDecompressedBytes, byRatio);
}

async function zlibDecode(
  run: () => Promise<Buffer>,
  name: string,
  cap: number,
  lim: IngestLimits,
): Promise<Buffer> {
  try {
    return await run();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw capExceeded(cap, lim);
    throw invalid(`corrupt ${name} body: ${(err as Error).message}`, {
      code: 'ingest_body_corrupt',
      cause: err,
    });
  }
}

function zstdDecode(body: Buffer, cap: number, lim: IngestLimits): Buffer {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let finished = false;
  let over = false;
  const decoder = new Decompress((data, final) => {
    total += data.length;
    if (total > cap) {
      over = true;
      // Throwing from the handler unwinds push(): decoding stops at the first block past the cap.
      throw capExceeded(cap, lim);
    }
    // fzstd may hand out views into its window buffer, which it reuses: copy.
    chunks.push(data.slice());
    if (final) finished = true;
  });
  try {
    for (let off = 0; off < body.length; off += ZSTD_INPUT_SLICE) {
      const end = Math.min(body.length, off + ZSTD_INPUT_SLICE);
      decoder.push(body.subarray(off, end), end === body.length);
    }
    if (body.length === 0) decoder.push(new Uint8Array(0), true);
  } catch (err) {
    if (over || (err instanceof QuarryError && err.kind === 'too_large')) throw capExceeded(cap, lim);
    throw invalid(`corrupt zstd body: ${(err as Error).message ?? String(err)}`, {
      code: 'ingest_body_corrupt',
      cause: err,
    });
  }
  if (!finished && body.length > 0 && total === 0) {
    throw invalid('corrupt zstd body: no complete frame', { code: 'ingest_body_corrupt' });
  }
  return Buffer.concat(chunks, total);
}

function capExceeded(cap: number, lim: IngestLimits): QuarryError {
  if (cap < lim.maxDecompressedBytes) {
    return tooLarge(
      `decompressed body exceeds ${cap} bytes, more than ${lim.maxDecompressionRatio} times its compressed size`,
      { code: 'ingest_body_too_large' },
    );
  }
  return bodyTooLarge(cap);
}

function bodyTooLarge(cap: number): QuarryError {
  return tooLarge(`decompressed body exceeds the limit of ${cap} bytes`, { code: 'ingest_body_too_large' });
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
