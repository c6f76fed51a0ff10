import {
  LazyColumns,
  selectRowsLate,
  TIME_FIELD,
  type BlockRecord,
  type Cancellation,
  type ColumnBatch,
  type DatasetSource,
  type ScanRequest,
  type ScanStats,
  type ScanTimeOrder,
  type ValueCounts,
} from '@quarry/contracts';
import type { BlockReader, ReadableBlock } from './block-reader';
import { retypeBatch, retypeSummary, timespanFromNanos } from './kind-field-types';
import { TailBuffer, type TailEntry } from './tail-buffer';

/** Where a scan gets blocks from: their statistics first (pruning), then their columns. */
export type BlockSource = Pick<BlockReader, 'open' | 'summary'>;

/** A registered block or an un-compacted tail entry, as one scan step. */
export interface ScanPart {
  minTime: number;
  maxTime: number;
  block: BlockRecord | null;
  entry: TailEntry | null;
}

/**
 * Some blocks of a dataset as a source for one partial summarize (a query worker's share, or another
 * node's): only scans, no schema (the plan was bound by the node that planned it).
 */
export function blocksSource(
  name: string,
  blocks: readonly BlockRecord[],
  reader: BlockSource,
  /** Stops the scan between blocks (a query worker's share, cancelled from the main thread). */
  cancel?: Cancellation,
  /** Fields read as timespans from stored nanoseconds (`nanosTimespanFieldsOfPlan`). */
  nanosTimespans?: ReadonlySet<string>,
): DatasetSource {
  const parts = partsOf(blocks, []);
  return {
    name,
    schema: async () => [],
    scan: (request) =>
      scanParts(parts, cancel ? { ...request, signal: cancel } : request, reader, nanosTimespans),
  };
}

export function partsOf(blocks: readonly BlockRecord[], tail: readonly TailEntry[]): ScanPart[] {
  return [
    ...blocks.map((block) => ({ minTime: block.minTime, maxTime: block.maxTime, block, entry: null })),
    ...tail.map((entry) => ({ minTime: entry.minTime, maxTime: entry.maxTime, block: null, entry })),
  ];
}

/**
 * Scans blocks and tail entries for a query: parts outside the window are skipped, a block's columns are
 * decoded only when read (late materialization), blocks whose statistics rule out the scan's filter are
 * skipped before any column is decoded (`request.pruning`), rows are restricted to `[startMs, endMs)`,
 * and a `top N by _time` hint is honoured. Used on the main thread (`StorageCatalog`) and on query
 * workers.
 */
export async function* scanParts(
  parts: readonly ScanPart[],
  request: ScanRequest,
  blocks: BlockSource,
  /**
   * Fields whose stored numbers are nanoseconds read as timespans (a dataset kind's declared types,
   * `kind-field-types.ts`): their columns, and the block statistics pruning looks at, are converted.
   */
  nanosTimespans: ReadonlySet<string> = new Set(),
): AsyncIterable<ColumnBatch> {
  const columns = request.columns === null ? null : [...new Set([TIME_FIELD, ...request.columns])];
  const order = request.timeOrder;
  for (const part of order ? inTimeOrder(parts, order.direction) : parts) {
    request.signal?.throwIfAborted();
    if (part.maxTime < request.startMs || part.minTime >= request.endMs) continue;
    if (order?.skip(part.minTime, part.maxTime)) continue;
    noteBlock(request.stats, part.minTime, part.maxTime);
    const pruning = request.pruning;
    if (part.block && pruning) {
      const summary = await blocks.summary(part.block.objectKey, pruning.filterColumns, part.block.sizeBytes);
      if (!pruning.mayMatch(retypeSummary(summary, nanosTimespans))) continue;
    }
    request.stats.blocksMatched++;
    let batch: ColumnBatch;
    if (part.block) {
      const opened = await blocks.open(part.block.objectKey, columns, part.block.sizeBytes);
      const inside = part.minTime >= request.startMs && part.maxTime < request.endMs;
      batch = restrictToWindow(lazyBlock(opened, columns, nanosTimespans), request, inside);
    } else {
      const tail = projectColumns(TailBuffer.batchOf(part.entry!), columns);
      batch = restrictToWindow(retypeBatch(tail, nanosTimespans), request);
    }
    if (batch.length === 0) continue;
    if (order) yield* timeOrderedChunks(batch, order);
    else yield batch;
  }
}

/**
 * Rows of the parts with `startMs <= _time < endMs`: a part entirely inside the window counts its row
 * count without being read; only the parts the window cuts are scanned, `_time` alone.
 */
export async function countRowsInParts(
  parts: readonly ScanPart[],
  startMs: number,
  endMs: number,
  stats: ScanStats,
  blocks: BlockSource,
): Promise<number> {
  let rows = 0;
  const cut: ScanPart[] = [];
  for (const part of parts) {
    if (part.maxTime < startMs || part.minTime >= endMs) continue;
    if (part.minTime < startMs || part.maxTime >= endMs) {
      cut.push(part);
      continue;
    }
    noteBlock(stats, part.minTime, part.maxTime);
    stats.blocksMatched++;
    const n = part.block ? part.block.rowCount : part.entry!.rows;
    stats.rowsExamined += n;
    rows += n;
  }
  for await (const batch of scanParts(cut, { startMs, endMs, columns: [], stats }, blocks))
    rows += batch.length;
  return rows;
}

/** Block footers `countValuesInParts` fetches at once. */
const SUMMARY_FETCH_BATCH = 32;
/** Past this many distinct values a count by value gives up for the general path (and its limits). */
const MAX_COUNTED_VALUES = 65_536;

/**
 * Rows per value of the string column `name` with `startMs <= _time < endMs` (`DatasetSource.countValues`):
 * a block entirely inside the window answers from its footer's value counts without being read; the
 * other parts (blocks the window cuts, the tail) are scanned, that column alone.
 * Null when the column is not a string in some part, or has too many distinct values (the caller scans
 * instead); `stats` is filled only when it answers.
 */
export async function countValuesInParts(
  parts: readonly ScanPart[],
  name: string,
  startMs: number,
  endMs: number,
  stats: ScanStats,
  blocks: BlockSource,
): Promise<ValueCounts | null> {
  const counts: ValueCounts = new Map();
  const add = (value: string | null, rows: number) => {
    if (rows > 0) counts.set(value, (counts.get(value) ?? 0) + rows);
  };
  const mine: ScanStats = { ...stats, blocksExamined: 0, blocksMatched: 0, blocksCached: 0, rowsExamined: 0 };
  const scanned: ScanPart[] = [];
  const counted: (ScanPart & { block: BlockRecord })[] = [];
  for (const part of parts) {
    if (part.maxTime < startMs || part.minTime >= endMs) continue;
    const inside = part.minTime >= startMs && part.maxTime < endMs;
    if (inside && part.block !== null) counted.push(part as ScanPart & { block: BlockRecord });
    else scanned.push(part);
  }
  // Footers are fetched a batch at a time: from an object store each is a round trip.
  for (let start = 0; start < counted.length; start += SUMMARY_FETCH_BATCH) {
    const batch = counted.slice(start, start + SUMMARY_FETCH_BATCH);
    const summaries = await Promise.all(
      batch.map((part) => blocks.summary(part.block.objectKey, [], part.block.sizeBytes)),
    );
    for (let i = 0; i < batch.length; i++) {
      const part = batch[i];
      const column = summaries[i].column(name);
      const rowCount = part.block.rowCount;
      if (column !== undefined && column.kind !== 'string') return null;
      // No counts although some rows have a value: too many distinct values (or a block written before
      // blocks had counts). Scanning would build a group per value: the general path, with its limits, does.
      if (column !== undefined && column.valueCounts === undefined && column.nullCount < rowCount)
        return null;
      noteBlock(mine, part.minTime, part.maxTime);
      mine.blocksMatched++;
      mine.rowsExamined += rowCount;
      for (const [value, rows] of column?.valueCounts ?? []) add(value, rows);
      add(null, column === undefined ? rowCount : column.nullCount);
    }
  }
  for await (const batch of scanParts(scanned, { startMs, endMs, columns: [name], stats: mine }, blocks)) {
    const column = batch.columns.get(name);
    if (column === undefined) {
      add(null, batch.length);
      continue;
    }
    if (column.kind !== 'string') return null;
    const perCode = new Float64Array(column.dict.length);
    let nulls = 0;
    const { codes } = column;
    for (let i = 0; i < batch.length; i++) {
      const code = codes[i];
      if (code < 0) nulls++;
      else perCode[code]++;
    }
    for (let c = 0; c < perCode.length; c++) add(column.dict[c], perCode[c]);
    add(null, nulls);
    if (counts.size > MAX_COUNTED_VALUES) return null;
  }
  stats.blocksExamined += mine.blocksExamined;
  stats.blocksMatched += mine.blocksMatched;
  stats.blocksCached += mine.blocksCached;
  stats.rowsExamined += mine.rowsExamined;
  stats.minBlockTime = mine.minBlockTime;
  stats.maxBlockTime = mine.maxBlockTime;
  return counts;
}

/** Rows per slice when a `top N by _time` walks a large block in time order. */
const TOP_CHUNK_ROWS = 8192;

/**
 * A block or tail record in slices of `TOP_CHUNK_ROWS`, newest (or oldest) first, skipping slices that
 * cannot make the top N, so a large merged block costs about as little as a small one. Only for batches
 * whose `_time` is non-decreasing (blocks are written sorted; a tail record may not be), else whole.
 */
function* timeOrderedChunks(batch: ColumnBatch, order: ScanTimeOrder): Iterable<ColumnBatch> {
  const time = batch.columns.get(TIME_FIELD);
  const n = batch.length;
  if (n <= TOP_CHUNK_ROWS || !time || time.kind !== 'datetime' || !nonDecreasing(time.values, n)) {
    yield batch;
    return;
  }
  const values = time.values;
  const starts: number[] = [];
  for (let start = 0; start < n; start += TOP_CHUNK_ROWS) starts.push(start);
  if (order.direction === 'desc') starts.reverse();
  for (const start of starts) {
    const end = Math.min(n, start + TOP_CHUNK_ROWS);
    if (order.skip(values[start], values[end - 1])) continue;
    const rows = new Uint32Array(end - start);
    for (let i = 0; i < rows.length; i++) rows[i] = start + i;
    yield selectRowsLate(batch, rows);
  }
}

function nonDecreasing(values: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) if (values[i] < values[i - 1]) return false;
  return true;
}

/** Newest first (`desc`, by latest time) or oldest first (`asc`, by earliest time). */
function inTimeOrder<T extends { minTime: number; maxTime: number }>(
  items: readonly T[],
  direction: 'asc' | 'desc',
): readonly T[] {
  return direction === 'desc'
    ? [...items].sort((a, b) => b.maxTime - a.maxTime)
    : [...items].sort((a, b) => a.minTime - b.minTime);
}

function noteBlock(stats: ScanStats, minTime: number, maxTime: number): void {
  stats.blocksExamined++;
  stats.minBlockTime = stats.minBlockTime === null ? minTime : Math.min(stats.minBlockTime, minTime);
  stats.maxBlockTime = stats.maxBlockTime === null ? maxTime : Math.max(stats.maxBlockTime, maxTime);
}

function projectColumns(batch: ColumnBatch, columns: string[] | null): ColumnBatch {
  if (columns === null) return batch;
  const out = new Map();
  for (const name of columns) {
    const column = batch.columns.get(name);
    if (column) out.set(name, column);
  }
  return { length: batch.length, columns: out };
}

/**
 * A block whose columns are decoded when first read (only `_time` up front, for the window): the engine
 * evaluates a filter on its columns and decodes the others only if rows survive and are read (late
 * materialization). Iterating the map decodes everything.
 */
function lazyBlock(
  block: ReadableBlock,
  columns: string[] | null,
  nanosTimespans: ReadonlySet<string>,
): ColumnBatch {
  const wanted = columns === null ? null : new Set(columns);
  const names = block.footer.columns.map((c) => c.name).filter((n) => wanted === null || wanted.has(n));
  const map = new LazyColumns(names, (name) => {
    const column = block.column(name);
    return column && nanosTimespans.has(name) ? timespanFromNanos(column) : column;
  });
  const time = block.column(TIME_FIELD);
  if (time) map.set(TIME_FIELD, time);
  return { length: block.footer.rowCount, columns: map };
}

/** Keeps rows with startMs <= _time < endMs and counts them as examined. */
function restrictToWindow(batch: ColumnBatch, request: ScanRequest, knownInside = false): ColumnBatch {
  if (knownInside) {
    // The block's time range lies inside the window: no need to look at `_time` row by row.
    request.stats.rowsExamined += batch.length;
    return batch;
  }
  const time = batch.columns.get(TIME_FIELD);
  if (!time || time.kind !== 'datetime') return { length: 0, columns: new Map() };
  const values = time.values;
  const { startMs, endMs } = request;
  let inside = 0;
  for (let i = 0; i < batch.length; i++) if (values[i] >= startMs && values[i] < endMs) inside++;
  request.stats.rowsExamined += inside;
  if (inside === batch.length) return batch;
  const selection = new Uint32Array(inside);
  for (let i = 0, j = 0; i < batch.length; i++)
    if (values[i] >= startMs && values[i] < endMs) selection[j++] = i;
  return selectRowsLate(batch, selection);
}
