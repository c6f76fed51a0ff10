import {
  LazyColumns,
  selectRowsLate,
  SYS_TIME_FIELD,
  TIME_FIELD,
  wireTypeOfKind,
  type BlockRecord,
  type Catalog,
  type ColumnBatch,
  type DatasetSource,
  type FieldSchema,
  type ScanRequest,
  type ScanTimeOrder,
  type ScanStats,
} from '@quarry/contracts';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { BlockIndex } from './block-index';
import { BlockReader, type BlockReaderLimits, type ReadableBlock } from './block-reader';
import type { DatasetRegistry } from './dataset-registry';
import { TailBuffer, type TailEntry } from './tail-buffer';

/** Defaults for callers that do not configure the caches (tests). */
const DEFAULT_READER_LIMITS: BlockReaderLimits = {
  columnCacheBytes: 512 * 1024 * 1024,
  fileCacheBytes: 128 * 1024 * 1024,
};

/**
 * The query engine's view of stored data: registered blocks read from the object store plus the
 * not-yet-compacted tail, snapshotted together so every acknowledged event is seen exactly once.
 */
export class StorageCatalog implements Catalog {
  private readonly reader: BlockReader;
  private readonly fieldCache = new Map<string, { generation: number; fields: FieldSchema[] }>();

  constructor(
    private readonly registry: DatasetRegistry,
    private readonly blocks: BlockIndex,
    private readonly tail: TailBuffer,
    objects: ObjectStore,
    private readonly metastore: Metastore,
    readerLimits: BlockReaderLimits = DEFAULT_READER_LIMITS,
  ) {
    this.reader = new BlockReader(objects, readerLimits);
  }

  async getDataset(name: string): Promise<DatasetSource | null> {
    const dataset = this.registry.getByName(name);
    if (!dataset) return null;
    return new StoredDatasetSource(name, dataset.id, this);
  }

  async listDatasets(): Promise<string[]> {
    return this.registry.list().map((d) => d.name);
  }

  /** Synchronous snapshot of what a scan of `datasetId` will read. */
  snapshot(datasetId: string) {
    return { blocks: this.blocks.list(datasetId), tail: this.tail.snapshot(datasetId) };
  }

  openBlock(objectKey: string, columns: readonly string[] | null): Promise<ReadableBlock> {
    return this.reader.open(objectKey, columns);
  }

  get cachedColumnBytes(): number {
    return this.reader.cachedColumnBytes;
  }

  forgetBlock(objectKey: string): void {
    this.reader.forget(objectKey);
  }

  /** The dataset's stored field schema, read from the metastore once per block-index generation. */
  async storedFields(datasetId: string): Promise<FieldSchema[]> {
    const generation = this.blocks.generation(datasetId);
    const cached = this.fieldCache.get(datasetId);
    if (cached && cached.generation === generation) return cached.fields;
    const fields = await this.metastore.datasets.listFields(datasetId);
    this.fieldCache.set(datasetId, { generation, fields });
    return fields;
  }

  /** For changes to stored fields that do not go through block registration. */
  forgetFields(datasetId: string): void {
    this.fieldCache.delete(datasetId);
  }
}

class StoredDatasetSource implements DatasetSource {
  constructor(
    readonly name: string,
    private readonly datasetId: string,
    private readonly catalog: StorageCatalog,
  ) {}

  async schema(): Promise<FieldSchema[]> {
    const types = new Map<string, Set<string>>();
    const note = (name: string, type: string) => {
      const set = types.get(name) ?? new Set<string>();
      for (const t of type.split('|')) set.add(t);
      types.set(name, set);
    };
    note(TIME_FIELD, 'datetime');
    note(SYS_TIME_FIELD, 'datetime');
    for (const field of await this.catalog.storedFields(this.datasetId)) note(field.name, field.type);
    for (const entry of this.catalog.snapshot(this.datasetId).tail) {
      for (const field of entry.fields) note(field.name, wireTypeOfKind(field.kind));
    }
    return [...types.entries()]
      .map(([name, set]) => ({ name, type: [...set].sort().join('|') }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async *scan(request: ScanRequest): AsyncIterable<ColumnBatch> {
    const { blocks, tail } = this.catalog.snapshot(this.datasetId);
    const columns = request.columns === null ? null : [...new Set([TIME_FIELD, ...request.columns])];
    const parts: ScanPart[] = [
      ...blocks.map((block) => ({ minTime: block.minTime, maxTime: block.maxTime, block, entry: null })),
      ...tail.map((entry) => ({ minTime: entry.minTime, maxTime: entry.maxTime, block: null, entry })),
    ];
    const order = request.timeOrder;
    for (const part of order ? inTimeOrder(parts, order.direction) : parts) {
      request.signal?.throwIfAborted();
      if (part.maxTime < request.startMs || part.minTime >= request.endMs) continue;
      if (order?.skip(part.minTime, part.maxTime)) continue;
      noteBlock(request.stats, part.minTime, part.maxTime);
      let batch: ColumnBatch;
      if (part.block) {
        const opened = await this.catalog.openBlock(part.block.objectKey, columns);
        const inside = part.minTime >= request.startMs && part.maxTime < request.endMs;
        batch = restrictToWindow(lazyBlock(opened, columns), request, inside);
      } else {
        batch = restrictToWindow(projectColumns(TailBuffer.batchOf(part.entry!), columns), request);
      }
      if (batch.length === 0) continue;
      if (order) yield* timeOrderedChunks(batch, order);
      else yield batch;
    }
  }
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

/** A registered block or an un-compacted tail entry, as one scan step. */
interface ScanPart {
  minTime: number;
  maxTime: number;
  block: BlockRecord | null;
  entry: TailEntry | null;
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
  stats.blocksMatched++;
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
function lazyBlock(block: ReadableBlock, columns: string[] | null): ColumnBatch {
  const wanted = columns === null ? null : new Set(columns);
  const names = block.footer.columns.map((c) => c.name).filter((n) => wanted === null || wanted.has(n));
  const map = new LazyColumns(names, (name) => block.column(name));
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
