import { crc32 } from 'node:zlib';
import { QuarryError, internal } from '@quarry/common';
import type { Column, ColumnBatch } from '@quarry/contracts';
import { decompress } from './compression';
import { decodeColumn, type DecodeOptions } from './decode-column';
import { type BlockFooter, type ColumnMeta, HEADER_BYTES, MAGIC, SUPPORTED_VERSIONS } from './format';
import { readFooter } from './footer';
import { NO_TOKEN_FILTER, readTokenFilter, type TokenFilter, tokenFilterRange } from './token-filter';

/**
 * Decodes a whole block held in memory. With `columns`, only those are decoded; names the block does not
 * have are simply absent (a column absent from a batch is null in every row).
 */
export function decodeBlock(
  bytes: Uint8Array,
  columns?: readonly string[] | null,
  options: DecodeOptions = {},
): ColumnBatch {
  return guard(() => {
    checkHeader(bytes);
    const footer = readFooter(bytes);
    const out = new Map<string, Column>();
    for (const meta of selectColumns(footer, columns)) {
      if (meta.offset < 0 || meta.offset + meta.length > bytes.length) {
        throw internal(`corrupt block: chunk of column "${meta.name}" lies outside the file`, {
          code: 'block_corrupt',
        });
      }
      out.set(
        meta.name,
        decodeChunk(bytes.subarray(meta.offset, meta.offset + meta.length), meta, footer.rowCount, options),
      );
    }
    return { length: footer.rowCount, columns: out };
  });
}

/** A block held in memory whose header and footer have been checked once; columns decode on demand. */
export interface OpenedBlock {
  readonly footer: BlockFooter;
  /** Decodes one column (`undefined` when the block has no such column). */
  column(name: string): Column | undefined;
  /**
   * The token filter of a string column: `null` when the block has no such column (null in every row),
   * `NO_TOKEN_FILTER` (always "maybe") when the column has no filter (v1 blocks, other kinds).
   */
  tokenFilter(name: string): TokenFilter | null;
}

/**
 * Checks the header and parses the footer once, so a reader that decodes columns one at a time (late
 * materialization) does not re-parse the footer per column.
 */
export function openBlock(bytes: Uint8Array): OpenedBlock {
  const footer = guard(() => {
    checkHeader(bytes);
    return readFooter(bytes);
  });
  const byName = new Map(footer.columns.map((meta) => [meta.name, meta]));
  return {
    footer,
    column(name) {
      const meta = byName.get(name);
      if (meta === undefined) return undefined;
      return guard(() => {
        if (meta.offset < 0 || meta.offset + meta.length > bytes.length) {
          throw internal(`corrupt block: chunk of column "${meta.name}" lies outside the file`, {
            code: 'block_corrupt',
          });
        }
        return decodeChunk(bytes.subarray(meta.offset, meta.offset + meta.length), meta, footer.rowCount);
      });
    },
    tokenFilter(name) {
      const meta = byName.get(name);
      if (meta === undefined) return null;
      const range = tokenFilterRange(meta);
      if (range === null) return NO_TOKEN_FILTER;
      if (range.offset < 0 || range.offset + range.length > bytes.length) {
        throw internal(`corrupt block: token filter of column "${name}" lies outside the file`, {
          code: 'block_corrupt',
        });
      }
      return readTokenFilter(bytes.subarray(range.offset, range.offset + range.length), meta);
    },
  };
}

/**
 * Decodes the requested columns by fetching only their chunks (byte-range reads from an object store).
 * `fetchChunk(offset, length)` must return exactly those bytes of the file.
 */
export async function decodeColumns(
  footer: BlockFooter,
  fetchChunk: (offset: number, length: number) => Promise<Uint8Array>,
  columns?: readonly string[] | null,
): Promise<ColumnBatch> {
  const metas = selectColumns(footer, columns);
  const chunks = await Promise.all(metas.map((m) => fetchChunk(m.offset, m.length)));
  return guard(() => {
    const out = new Map<string, Column>();
    for (let i = 0; i < metas.length; i++)
      out.set(metas[i].name, decodeChunk(chunks[i], metas[i], footer.rowCount));
    return { length: footer.rowCount, columns: out };
  });
}

function selectColumns(footer: BlockFooter, columns: readonly string[] | null | undefined): ColumnMeta[] {
  if (!columns) return footer.columns;
  const wanted = new Set(columns);
  return footer.columns.filter((c) => wanted.has(c.name));
}

function checkHeader(bytes: Uint8Array): void {
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i])
      throw internal('corrupt block: header magic "QBLK" missing', { code: 'block_corrupt' });
  }
  if (bytes.length < HEADER_BYTES || !SUPPORTED_VERSIONS.includes(bytes[4])) {
    throw internal(
      `unsupported block version ${bytes[4]}; this reader knows ${SUPPORTED_VERSIONS.join(', ')}`,
      {
        code: 'block_unsupported_version',
      },
    );
  }
}

function decodeChunk(
  stored: Uint8Array,
  meta: ColumnMeta,
  rows: number,
  options: DecodeOptions = {},
): Column {
  if (stored.length !== meta.length || crc32(stored) !== meta.crc32) {
    throw internal(`corrupt block: checksum mismatch in the chunk of column "${meta.name}"`, {
      code: 'block_corrupt',
    });
  }
  const payload = decompress(stored, meta.compression, meta.rawLength, meta.name);
  return decodeColumn(payload, meta.encoding, meta.kind, rows, meta.name, options);
}

/** Whatever goes wrong inside a decode is reported as a corrupt block, never as a stray TypeError. */
function guard<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof QuarryError) throw err;
    throw internal(`corrupt block: ${(err as Error)?.message ?? String(err)}`, {
      code: 'block_corrupt',
      cause: err,
    });
  }
}
