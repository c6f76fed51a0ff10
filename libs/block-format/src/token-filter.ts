import { crc32 } from 'node:zlib';
import { QuarryError, internal } from '@quarry/common';
import { ByteReader } from './bytes';
import { termHashes, trigramHashes } from './filter-keys';
import type { BlockFooter, ColumnMeta } from './format';
import { BLOCK_BYTES, bloomHas } from './split-bloom';
import { FILTER_TERMS, FILTER_TRIGRAMS } from './token-filter-build';

/**
 * What a string column's token filter can tell about a block without decoding the column. Both answers
 * are "maybe" (true) or "certainly not" (false): never a false negative, about 1% false positives.
 * Matching is case-insensitive, so they hold for the case-sensitive operators too (a case-sensitive match
 * is also a case-insensitive one). Null rows match nothing.
 */
export interface TokenFilter {
  /**
   * False when no value has every term of `term` (terms are the maximal runs of letters and digits, as
   * `has` splits them). Prunes `has`, `has_cs`, `!has` never (a negation needs the rows). `term` may hold
   * several terms ("connection reset"); one with no term at all answers true.
   */
  mayContainTerm(term: string): boolean;
  /**
   * False when no value contains `needle` (case-insensitively). Prunes `contains`, `contains_cs`,
   * `startswith`, `endswith`, `==` and their `_cs` forms, `hasprefix`, `hassuffix`. A needle shorter than
   * 3 UTF-16 units, or with characters outside the BMP, answers true.
   */
  mayContainSubstring(needle: string): boolean;
}

/** A filter that rules nothing out: for columns without one (v1 blocks, non-string columns). */
export const NO_TOKEN_FILTER: TokenFilter = {
  mayContainTerm: () => true,
  mayContainSubstring: () => true,
};

/** Where a column's filter bytes are in the block file, or null when it has none (fetch them by range). */
export function tokenFilterRange(meta: ColumnMeta): { offset: number; length: number } | null {
  if (meta.filterOffset === undefined || meta.filterLength === undefined) return null;
  return { offset: meta.filterOffset, length: meta.filterLength };
}

/**
 * Parses a filter's bytes (exactly `tokenFilterRange(meta)` of the file). With `meta`, the length and
 * CRC-32 are checked first; any damage is a `block_corrupt` naming the column.
 */
export function readTokenFilter(bytes: Uint8Array, meta?: ColumnMeta): TokenFilter {
  const column = meta?.name ?? '?';
  try {
    if (meta !== undefined && (bytes.length !== meta.filterLength || crc32(bytes) !== meta.filterCrc32)) {
      throw internal(`corrupt block: checksum mismatch in the token filter of column "${column}"`, {
        code: 'block_corrupt',
      });
    }
    const r = new ByteReader(bytes, `token filter of column "${column}"`);
    const flags = r.u8();
    r.check(flags < 4, `has flags ${flags}`);
    const terms = flags & FILTER_TERMS ? readBloom(r) : null;
    const trigrams = flags & FILTER_TRIGRAMS ? readBloom(r) : null;
    r.check(r.pos === bytes.length, 'has trailing bytes');
    return {
      mayContainTerm(term) {
        if (terms === null) return true;
        const hashes = termHashes(term);
        return hashes.length === 0 || hashes.every((h) => bloomHas(terms.words, terms.blocks, h));
      },
      mayContainSubstring(needle) {
        if (trigrams === null) return true;
        const hashes = trigramHashes(needle);
        return hashes.length === 0 || hashes.every((h) => bloomHas(trigrams.words, trigrams.blocks, h));
      },
    };
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw internal(`corrupt block: token filter of column "${column}": ${(err as Error).message}`, {
      code: 'block_corrupt',
    });
  }
}

function readBloom(r: ByteReader): { words: Uint32Array; blocks: number } {
  const blocks = r.varint();
  r.check(blocks * BLOCK_BYTES <= r.buf.length, `claims ${blocks} filter blocks`);
  const words = new Uint32Array((blocks * BLOCK_BYTES) / 4);
  new Uint8Array(words.buffer).set(r.bytes(blocks * BLOCK_BYTES));
  return { words, blocks };
}

/**
 * The token filter of column `name` fetched by byte range, `NO_TOKEN_FILTER` when the block has none
 * for it (v1 block, not a string column), or null when the block has no such column (null in every row:
 * it matches nothing).
 */
export async function fetchTokenFilter(
  footer: BlockFooter,
  name: string,
  fetchChunk: (offset: number, length: number) => Promise<Uint8Array>,
): Promise<TokenFilter | null> {
  const meta = footer.columns.find((c) => c.name === name);
  if (meta === undefined) return null;
  const range = tokenFilterRange(meta);
  if (range === null) return NO_TOKEN_FILTER;
  return readTokenFilter(await fetchChunk(range.offset, range.length), meta);
}
