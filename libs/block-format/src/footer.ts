import { crc32 } from 'node:zlib';
import { internal } from '@quarry/common';
import { type BlockFooter, FOOTER_TRAILER_BYTES, MAGIC, SUPPORTED_VERSIONS } from './format';

const corrupt = (message: string) => internal(`corrupt block: ${message}`, { code: 'block_corrupt' });

function checkTrailer(tail: Uint8Array): number {
  if (tail.length < FOOTER_TRAILER_BYTES) {
    throw corrupt(`${tail.length} bytes is shorter than the ${FOOTER_TRAILER_BYTES}-byte trailer`);
  }
  const end = tail.length;
  for (let i = 0; i < MAGIC.length; i++) {
    if (tail[end - MAGIC.length + i] !== MAGIC[i])
      throw corrupt('trailer magic "QBLK" missing (truncated or not a block)');
  }
  return new DataView(tail.buffer, tail.byteOffset, tail.byteLength).getUint32(
    end - FOOTER_TRAILER_BYTES,
    true,
  );
}

/**
 * How many bytes from the end of the file `readFooter` needs, given at least the last
 * `FOOTER_TRAILER_BYTES`: fetch the trailer first, then this many bytes.
 */
export function footerFetchLength(trailer: Uint8Array): number {
  return checkTrailer(trailer) + FOOTER_TRAILER_BYTES;
}

/** Reads the footer from the last bytes of a block (or the whole block). */
export function readFooter(tail: Uint8Array): BlockFooter {
  const length = checkTrailer(tail);
  const start = tail.length - FOOTER_TRAILER_BYTES - length;
  if (start < 0) {
    throw corrupt(
      `footer is ${length} bytes but only ${tail.length - FOOTER_TRAILER_BYTES} precede the trailer`,
    );
  }
  const bytes = tail.subarray(start, start + length);
  const expectedCrc = new DataView(tail.buffer, tail.byteOffset, tail.byteLength).getUint32(
    tail.length - 8,
    true,
  );
  if (crc32(bytes) !== expectedCrc) throw corrupt('footer checksum mismatch');
  let footer: BlockFooter;
  try {
    footer = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as BlockFooter;
  } catch {
    throw corrupt('footer is not valid JSON');
  }
  if (typeof footer !== 'object' || footer === null || !Array.isArray(footer.columns))
    throw corrupt('footer has no column list');
  if (!SUPPORTED_VERSIONS.includes(footer.version)) {
    throw internal(
      `unsupported block version ${footer.version}; this reader knows ${SUPPORTED_VERSIONS.join(', ')}`,
      {
        code: 'block_unsupported_version',
      },
    );
  }
  if (!Number.isInteger(footer.rowCount) || footer.rowCount < 0)
    throw corrupt(`bad row count ${footer.rowCount}`);
  return footer;
}
