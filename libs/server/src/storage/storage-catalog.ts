import {
  SYS_TIME_FIELD,
  TIME_FIELD,
  wireTypeOfKind,
  type Catalog,
  type ColumnBatch,
  type DatasetSource,
  type FieldSchema,
  type ScanRequest,
  type ScanStats,
  type ValueCounts,
} from '@quarry/contracts';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { BlockIndex } from './block-index';
import { BlockReader, type BlockReaderLimits } from './block-reader';
import type { DatasetRegistry } from './dataset-registry';
import { KIND_FIELD_TYPES, nanosTimespanFields, withKindFieldTypes } from './kind-field-types';
import { countRowsInParts, countValuesInParts, partsOf, scanParts, type ScanPart } from './part-scan';
import type { TailBuffer, TailEntry } from './tail-buffer';

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
  readonly reader: BlockReader;
  private readonly fieldCache = new Map<string, { generation: number; fields: FieldSchema[] }>();
  private readonly forgetListeners: ((objectKeys: readonly string[]) => void)[] = [];
  /** Keys forgotten since the listeners were last told. */
  private forgotten: string[] = [];

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
    return new StoredDatasetSource(name, dataset.id, this, dataset.kind);
  }

  async listDatasets(): Promise<string[]> {
    return this.registry.list().map((d) => d.name);
  }

  /** Synchronous snapshot of what a scan of `datasetId` will read. */
  snapshot(datasetId: string) {
    return { blocks: this.blocks.list(datasetId), tail: this.tail.snapshot(datasetId) };
  }

  get cachedColumnBytes(): number {
    return this.reader.cachedColumnBytes;
  }

  /** Bytes held by each of the main thread's block-reader caches. */
  get cacheBytes() {
    return this.reader.cacheBytes;
  }

  /**
   * Drops what the main thread's reader cached for a block that left the index (merged away, trimmed,
   * its dataset deleted), and tells the listeners (the query workers, whose readers cache it too). Keys
   * forgotten in one turn of the event loop reach the listeners as one batch.
   */
  forgetBlock(objectKey: string): void {
    this.reader.forget(objectKey);
    if (this.forgetListeners.length === 0) return;
    this.forgotten.push(objectKey);
    if (this.forgotten.length === 1) queueMicrotask(() => this.flushForgotten());
  }

  /** `listener` gets the object keys of blocks that left the index, batched (see `forgetBlock`). */
  onForget(listener: (objectKeys: readonly string[]) => void): void {
    this.forgetListeners.push(listener);
  }

  private flushForgotten(): void {
    const keys = this.forgotten;
    this.forgotten = [];
    for (const listener of this.forgetListeners) listener(keys);
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

/**
 * The fields of `stored` and of the tail entries (not compacted yet), by name: a field seen with several
 * types gets their union (`integer|string`, sorted), as the compactor will record it. Sorted by name.
 */
export function mergeTailFields(
  stored: readonly FieldSchema[],
  tail: readonly Pick<TailEntry, 'fields'>[],
): FieldSchema[] {
  const types = new Map<string, Set<string>>();
  const note = (name: string, type: string) => {
    const set = types.get(name) ?? new Set<string>();
    for (const t of type.split('|')) set.add(t);
    types.set(name, set);
  };
  for (const field of stored) note(field.name, field.type);
  for (const entry of tail) {
    for (const field of entry.fields) note(field.name, wireTypeOfKind(field.kind));
  }
  return [...types.entries()]
    .map(([name, set]) => ({ name, type: [...set].sort().join('|') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A dataset as stored here: its blocks and tail, snapshotted when a scan starts. */
export class StoredDatasetSource implements DatasetSource {
  constructor(
    readonly name: string,
    readonly datasetId: string,
    readonly catalog: StorageCatalog,
    /** The dataset's kind: some declare field types (`kind-field-types.ts`). */
    readonly kind?: string,
  ) {}

  async schema(): Promise<FieldSchema[]> {
    const always = [
      { name: TIME_FIELD, type: 'datetime' },
      { name: SYS_TIME_FIELD, type: 'datetime' },
    ];
    const stored = await this.catalog.storedFields(this.datasetId);
    const merged = mergeTailFields([...always, ...stored], this.catalog.snapshot(this.datasetId).tail);
    return withKindFieldTypes(merged, this.kind);
  }

  /** Fields read as timespans from stored nanoseconds: those the schema types so by the kind's word. */
  async nanosTimespans(): Promise<ReadonlySet<string>> {
    if (this.kind === undefined || !KIND_FIELD_TYPES[this.kind]) return new Set();
    return nanosTimespanFields(await this.schema(), this.kind);
  }

  async *scan(request: ScanRequest): AsyncIterable<ColumnBatch> {
    const nanosTimespans = await this.nanosTimespans();
    const { blocks, tail } = this.catalog.snapshot(this.datasetId);
    yield* scanParts(partsOf(blocks, tail), request, this.catalog.reader, nanosTimespans);
  }

  countRows(startMs: number, endMs: number, stats: ScanStats): Promise<number> {
    const { blocks, tail } = this.catalog.snapshot(this.datasetId);
    return countRowsInParts(partsOf(blocks, tail), startMs, endMs, stats, this.catalog.reader);
  }

  async countValues(
    column: string,
    startMs: number,
    endMs: number,
    stats: ScanStats,
  ): Promise<ValueCounts | null> {
    // Fields read as timespans are numbers: never a string column to count.
    if ((await this.nanosTimespans()).has(column)) return null;
    const { blocks, tail } = this.catalog.snapshot(this.datasetId);
    return countValuesInParts(partsOf(blocks, tail), column, startMs, endMs, stats, this.catalog.reader);
  }
}

/**
 * A dataset scan fixed to some parts of one snapshot (for a split summarize: the parts read on this
 * thread while workers read the others). Its schema is the dataset's.
 */
export class PartsSource implements DatasetSource {
  constructor(
    private readonly dataset: StoredDatasetSource,
    private readonly parts: readonly ScanPart[],
  ) {}

  get name(): string {
    return this.dataset.name;
  }

  schema(): Promise<FieldSchema[]> {
    return this.dataset.schema();
  }

  async *scan(request: ScanRequest): AsyncIterable<ColumnBatch> {
    const nanosTimespans = await this.dataset.nanosTimespans();
    yield* scanParts(this.parts, request, this.dataset.catalog.reader, nanosTimespans);
  }
}
