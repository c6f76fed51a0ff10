import {
  decodeColumns,
  FOOTER_TRAILER_BYTES,
  footerFetchLength,
  openBlock,
  readFooter,
  readTokenFilter,
  tokenDictBytes,
  tokenFilterRange,
  type BlockFooter,
  type ColumnMeta,
  type OpenedBlock,
  type TokenFilter,
} from '@quarry/block-format';
import type { BlockSummary, Column, ColumnSummary } from '@quarry/contracts';
import type { ObjectStore } from '@quarry/objstore';
import { ByteLru } from '@quarry/common';

/** A block as a scan sees it: its footer, and columns decoded once then served from memory. */
export interface ReadableBlock {
  readonly footer: BlockFooter;
  column(name: string): Column | undefined;
}

export interface BlockReaderLimits {
  /** Decoded columns kept in memory across queries (bytes, estimated). */
  columnCacheBytes: number;
  /** Raw block files kept in memory, for columns not decoded yet. */
  fileCacheBytes: number;
  /**
   * Fetch only the footer and the chunks of the columns a scan needs, by byte range, instead of whole
   * files: for remote stores (S3), where a whole block is many round trips' worth of bytes the scan
   * never reads. Local files are read whole (one read, and the page cache holds them anyway).
   */
  rangeReads?: boolean;
  /** Parsed footers kept (bytes, estimated); 16 MiB unless set (tests set less). */
  footerCacheBytes?: number;
}

interface CachedColumn {
  column: Column;
  byteLength: number;
}

interface CachedFooter {
  footer: BlockFooter;
  byteLength: number;
}

/**
 * Reads blocks for queries. Decoding (inflate, varints, dictionary strings) costs far more than the scan
 * that follows, and blocks are immutable, so decoded columns are cached by (object key, column) under a
 * byte budget: a repeated or similar query touches no block bytes at all. Columns are shared between
 * queries, which is safe because operators never write into their input columns.
 */
export class BlockReader {
  private readonly columns: ByteLru<CachedColumn>;
  private readonly files: ByteLru<Uint8Array>;
  private readonly footers: ByteLru<CachedFooter>;
  private readonly filters = new ByteLru<{ filter: TokenFilter; byteLength: number }>(64 * 1024 * 1024);
  /**
   * The column names cached per block (decoded columns and token filters), so `forget` finds them even
   * after the block's footer left its cache (footers and columns are evicted independently). Entries
   * go with `forget`; a live block's names may outlive its evicted columns (a few strings per block).
   */
  private readonly cachedNames = new Map<string, Set<string>>();

  private readonly rangeReads: boolean;

  constructor(
    private readonly objects: ObjectStore,
    limits: BlockReaderLimits,
  ) {
    this.columns = new ByteLru(limits.columnCacheBytes);
    this.files = new ByteLru(limits.fileCacheBytes);
    this.footers = new ByteLru(limits.footerCacheBytes ?? 16 * 1024 * 1024);
    this.rangeReads = limits.rangeReads ?? false;
  }

  /**
   * Opens a block for a scan that will read `wanted` columns (null = all). The file is fetched only when
   * one of them is not cached; otherwise only cached footers and columns are used. With range reads and
   * the file's size known, only the footer and the missing columns' chunks are fetched.
   */
  async open(
    objectKey: string,
    wanted: readonly string[] | null,
    sizeBytes?: number,
  ): Promise<ReadableBlock> {
    if (this.rangeReads && wanted !== null && sizeBytes !== undefined && !this.files.get(objectKey))
      return this.openByRanges(objectKey, wanted, sizeBytes);
    let footer = this.footers.get(objectKey)?.footer;
    let opened: OpenedBlock | null = null;
    // Columns found in the cache now are held for the scan, so an eviction meanwhile cannot lose them.
    const held = new Map<string, Column>();
    if (footer !== undefined) {
      const present = new Set(footer.columns.map((c) => c.name));
      for (const name of wanted ?? present) {
        const hit = present.has(name) ? this.columns.get(columnKey(objectKey, name)) : undefined;
        if (hit) held.set(name, hit.column);
        else if (present.has(name)) opened ??= openBlock(await this.fetch(objectKey));
      }
    } else {
      opened = openBlock(await this.fetch(objectKey));
      footer = opened.footer;
      this.footers.set(objectKey, { footer, byteLength: footerBytes(footer) });
    }
    const present = new Set(footer.columns.map((c) => c.name));
    return {
      footer,
      column: (name) => {
        if (!present.has(name)) return undefined;
        const mine = held.get(name);
        if (mine) return mine;
        const key = columnKey(objectKey, name);
        const hit = this.columns.get(key);
        if (hit) return hit.column;
        if (opened === null)
          throw new Error(`block ${objectKey}: column "${name}" was not announced to open()`);
        const column = opened.column(name)!;
        this.columns.set(key, { column, byteLength: columnBytes(column) });
        this.noteCached(objectKey, name);
        held.set(name, column);
        return column;
      },
    };
  }

  private async openByRanges(
    objectKey: string,
    wanted: readonly string[],
    sizeBytes: number,
  ): Promise<ReadableBlock> {
    const footer = await this.footer(objectKey, sizeBytes);
    const present = new Set(footer.columns.map((c) => c.name));
    const held = new Map<string, Column>();
    const missing: string[] = [];
    for (const name of wanted) {
      if (!present.has(name)) continue;
      const hit = this.columns.get(columnKey(objectKey, name));
      if (hit) held.set(name, hit.column);
      else missing.push(name);
    }
    if (missing.length > 0) {
      const metas = footer.columns.filter((c) => missing.includes(c.name));
      const fetched = await this.fetchRanges(objectKey, metas);
      const decoded = await decodeColumns(footer, async (offset) => fetched.get(offset)!, missing);
      for (const [name, column] of decoded.columns) {
        this.columns.set(columnKey(objectKey, name), { column, byteLength: columnBytes(column) });
        this.noteCached(objectKey, name);
        held.set(name, column);
      }
    }
    return {
      footer,
      column: (name) => {
        if (!present.has(name)) return undefined;
        const column = held.get(name);
        if (column === undefined)
          throw new Error(`block ${objectKey}: column "${name}" was not announced to open()`);
        return column;
      },
    };
  }

  /**
   * The chunks of `metas`, keyed by offset. Chunks that lie close together are fetched in one range
   * read: a round trip to S3 costs more than the few KiB of gap between them.
   */
  private async fetchRanges(
    objectKey: string,
    metas: readonly ColumnMeta[],
  ): Promise<Map<number, Uint8Array>> {
    const sorted = [...metas].sort((a, b) => a.offset - b.offset);
    const runs: { start: number; end: number; metas: ColumnMeta[] }[] = [];
    for (const meta of sorted) {
      const last = runs[runs.length - 1];
      if (last && meta.offset - last.end <= RANGE_MERGE_GAP_BYTES) {
        last.end = Math.max(last.end, meta.offset + meta.length);
        last.metas.push(meta);
      } else runs.push({ start: meta.offset, end: meta.offset + meta.length, metas: [meta] });
    }
    const out = new Map<number, Uint8Array>();
    await Promise.all(
      runs.map(async (run) => {
        const bytes = await this.objects.getRange(objectKey, run.start, run.end - run.start);
        for (const meta of run.metas)
          out.set(
            meta.offset,
            bytes.subarray(meta.offset - run.start, meta.offset - run.start + meta.length),
          );
      }),
    );
    return out;
  }

  /**
   * The block's statistics for pruning (`BlockPruning`): per-column kind, null count and min/max from the
   * footer, and the token filters of `filterColumns` when the block has them. Decodes no column.
   */
  async summary(
    objectKey: string,
    filterColumns: readonly string[],
    sizeBytes?: number,
  ): Promise<BlockSummary> {
    const footer = await this.footer(objectKey, sizeBytes);
    const metas = new Map(footer.columns.map((c) => [c.name, c]));
    const filters = new Map<string, TokenFilter>();
    for (const name of filterColumns) {
      const meta = metas.get(name);
      if (meta !== undefined && tokenFilterRange(meta) !== null)
        filters.set(name, await this.tokenFilter(objectKey, meta));
    }
    const summaries = new Map<string, ColumnSummary>();
    return {
      rowCount: footer.rowCount,
      column(name) {
        let summary = summaries.get(name);
        if (summary === undefined) {
          const meta = metas.get(name);
          if (meta === undefined) return undefined;
          summary = {
            kind: meta.kind,
            nullCount: meta.nullCount,
            min: meta.min,
            max: meta.max,
            valueCounts: meta.valueCounts,
            filter: filters.get(name),
          };
          summaries.set(name, summary);
        }
        return summary;
      },
    };
  }

  /** A column's token filter, parsed once and kept (they are small: about a byte per row of the block). */
  private async tokenFilter(objectKey: string, meta: ColumnMeta): Promise<TokenFilter> {
    const key = columnKey(objectKey, meta.name);
    const cached = this.filters.get(key);
    if (cached) return cached.filter;
    const range = tokenFilterRange(meta)!;
    const file = this.files.get(objectKey);
    const bytes = file
      ? file.subarray(range.offset, range.offset + range.length)
      : await this.objects.getRange(objectKey, range.offset, range.length);
    const filter = readTokenFilter(bytes, meta);
    this.filters.set(key, { filter, byteLength: range.length + 64 });
    this.noteCached(objectKey, meta.name);
    return filter;
  }

  /**
   * The block's footer. Knowing the file's size, a block not in the file cache costs one read of its last
   * 64 KiB (two when the footer is longer), not the whole file: pruning decides before the columns are
   * fetched.
   */
  private async footer(objectKey: string, sizeBytes?: number): Promise<BlockFooter> {
    const cached = this.footers.get(objectKey)?.footer;
    if (cached !== undefined) return cached;
    const file = this.files.get(objectKey);
    let footer: BlockFooter;
    if (file !== undefined || sizeBytes === undefined)
      footer = readFooter(file ?? (await this.fetch(objectKey)));
    else {
      const tailLength = Math.min(sizeBytes, FOOTER_PROBE_BYTES);
      let tail = await this.objects.getRange(objectKey, sizeBytes - tailLength, tailLength);
      const needed = footerFetchLength(tail.subarray(tail.length - FOOTER_TRAILER_BYTES));
      if (needed > tail.length) tail = await this.objects.getRange(objectKey, sizeBytes - needed, needed);
      footer = readFooter(tail);
    }
    this.footers.set(objectKey, { footer, byteLength: footerBytes(footer) });
    return footer;
  }

  /** Estimated bytes of decoded columns held by the cache. */
  get cachedColumnBytes(): number {
    return this.columns.size;
  }

  /** Bytes held by each of the reader's caches (all bounded: see the constructor and the limits). */
  get cacheBytes(): { columnCache: number; fileCache: number; footerCache: number; filterCache: number } {
    return {
      columnCache: this.columns.size,
      fileCache: this.files.size,
      footerCache: this.footers.size,
      filterCache: this.filters.size,
    };
  }

  /** Drops everything cached for a block (deleted or replaced). */
  forget(objectKey: string): void {
    this.files.delete(objectKey);
    const names = new Set(this.cachedNames.get(objectKey));
    this.cachedNames.delete(objectKey);
    for (const c of this.footers.get(objectKey)?.footer.columns ?? []) names.add(c.name);
    this.footers.delete(objectKey);
    for (const name of names) {
      this.columns.delete(columnKey(objectKey, name));
      this.filters.delete(columnKey(objectKey, name));
    }
  }

  private noteCached(objectKey: string, name: string): void {
    let names = this.cachedNames.get(objectKey);
    if (names === undefined) this.cachedNames.set(objectKey, (names = new Set()));
    names.add(name);
  }

  private async fetch(objectKey: string): Promise<Uint8Array> {
    const cached = this.files.get(objectKey);
    if (cached) return cached;
    const bytes = await this.objects.get(objectKey);
    this.files.set(objectKey, bytes);
    return bytes;
  }
}

/** Chunks closer than this are fetched in one range read. */
const RANGE_MERGE_GAP_BYTES = 256 * 1024;

/** How much of a block's end one read fetches to find its footer (most footers are a few KiB). */
const FOOTER_PROBE_BYTES = 64 * 1024;

function columnKey(objectKey: string, column: string): string {
  return `${objectKey}\u0000${column}`;
}

/** Estimated heap bytes of a decoded column (strings at two bytes per char plus object overhead). */
export function columnBytes(column: Column): number {
  switch (column.kind) {
    case 'string': {
      let bytes = column.codes.byteLength;
      // A token column's values may never be made (string-match.ts): estimated without making them.
      if (column.tokens !== undefined) return bytes + tokenDictBytes(column.tokens);
      for (const s of column.dict) bytes += 32 + 2 * s.length;
      return bytes;
    }
    case 'dynamic': {
      let bytes = 8 * column.values.length;
      for (const v of column.values)
        bytes += v === null || v === undefined ? 0 : 16 + 2 * JSON.stringify(v).length;
      return bytes;
    }
    default:
      return column.values.byteLength + (column.nulls?.byteLength ?? 0);
  }
}

function footerBytes(footer: BlockFooter): number {
  return 256 + footer.columns.length * 160;
}
