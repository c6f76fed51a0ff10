import { Logger } from '@nestjs/common';
import { isQuarryError } from '@quarry/common';
import { blockIdFor, type BlockRecord } from '@quarry/contracts';
import type { IngestLog, LogRecord } from '@quarry/log';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AsyncMutex } from './async-mutex';
import { BackgroundLoop } from './background-loop';
import type { BlockIndex } from './block-index';
import type { DatasetRegistry } from './dataset-registry';
import type { TailBuffer } from './tail-buffer';
import { datasetIdOfLogRecord, summarizeLogRecord } from './log-codec';
import type { CpuPool } from '../workers/cpu-pool';
import type { SpanPolicy } from './block-builder';
import { blockObjectKey } from './object-keys';

/** One hour, cut out when it holds at least 4,096 rows of a flush. */
export const DEFAULT_SPANS: SpanPolicy = { spanMs: 3_600_000, minSpanRows: 4096 };
const MAX_RECORDS_PER_FLUSH = 5_000;

export interface CompactionResult {
  records: number;
  blocks: number;
  rows: number;
}

export interface CompactorOptions {
  /** Blocks are cut at these time spans (see `buildBlocks`). */
  spans: SpanPolicy;
  /**
   * Embedded shape: this process's block index and tail are the truth, so a registration is applied to
   * them at once (synchronously, so queries see each event exactly once). Cluster: another process may
   * own the partition next, and the catalog refresh applies what the metastore says; the compactor
   * leaves the in-memory state alone.
   */
  applyLocally: boolean;
  /**
   * Cluster: brings the registry up to date. Called before records of a dataset this process does not
   * know are dropped as "deleted": the dataset may just have been created through another node.
   */
  refreshCatalog?: () => Promise<void>;
  /** The partitions to compact now (cluster: those whose lease this node holds); default all of the log's. */
  partitions?: () => number[];
}

/**
 * Turns log records into immutable blocks, per partition this process consumes: read from the
 * partition's committed offset, build each dataset's blocks (cut at time-span boundaries), upload them,
 * then register the blocks and the new offset in one metastore transaction that only commits if the
 * partition is still committed where this compactor started reading (compare-and-set): after a
 * rebalance, two compactors that read the same range can never both register it. Block ids come from
 * the log range, so replaying a range after a crash re-registers nothing and duplicates no row.
 */
export class Compactor {
  private readonly logger = new Logger('compactor');
  /** Next offset to read per partition; loaded from the metastore the first time a partition is seen. */
  private readonly nextOffsets = new Map<number, number>();
  /** The events log's epoch (block ids carry it), read with the first partition's offset. */
  private logEpoch: number | null = null;
  private readonly loop = new BackgroundLoop('compaction', this.logger, () => this.flush());
  /** Work done since start, for metrics. */
  readonly totals = { records: 0, blocks: 0, rows: 0, conflicts: 0, lostRecords: 0 };
  private readonly options: CompactorOptions;

  constructor(
    private readonly log: IngestLog,
    private readonly objects: ObjectStore,
    private readonly metastore: Metastore,
    private readonly registry: DatasetRegistry,
    private readonly blocks: BlockIndex,
    private readonly tail: TailBuffer,
    private readonly lock: AsyncMutex,
    private readonly cpu: CpuPool,
    options: Partial<CompactorOptions> = {},
  ) {
    this.options = { spans: DEFAULT_SPANS, applyLocally: true, ...options };
  }

  /**
   * Embedded shape: loads the committed offsets and replays the uncompacted log into the tail
   * (read-your-writes after a restart). Returns the number of events replayed.
   */
  async replay(): Promise<number> {
    let replayed = 0;
    for (const partition of this.log.partitions()) {
      let offset = await this.metastore.blocks.committedOffset(partition);
      this.nextOffsets.set(partition, offset);
      for (;;) {
        const records = await this.log.read(partition, offset, MAX_RECORDS_PER_FLUSH);
        if (records.length === 0) break;
        for (const record of records) {
          // Only the footer is read: the columns are decoded if a query reads them before compaction.
          const summary = summarizeLogRecord(record.payload);
          if (this.registry.getById(summary.datasetId)) {
            this.tail.add(record, record.payload, summary);
            replayed += summary.rows;
          }
          offset = record.offset + 1;
        }
      }
    }
    return replayed;
  }

  start(intervalMs: number, maxTailRows: number): void {
    this.loop.start(intervalMs, () => this.tail.rows >= maxTailRows);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Failed background compactions in a row (0 when healthy). */
  get consecutiveFailures(): number {
    return this.loop.consecutiveFailures;
  }

  /** Forgets where partitions were read up to (after a rebalance they are loaded from the metastore again). */
  forgetPartitions(): void {
    this.nextOffsets.clear();
    this.logEpoch = null;
  }

  /** Compacts everything currently in the log partitions this process consumes. */
  async flush(): Promise<CompactionResult> {
    const total: CompactionResult = { records: 0, blocks: 0, rows: 0 };
    for (const partition of this.options.partitions?.() ?? this.log.partitions()) {
      for (;;) {
        const result = await this.lock.run(() => this.flushOnce(partition));
        if (result === null || result.records === 0) break;
        total.records += result.records;
        total.blocks += result.blocks;
        total.rows += result.rows;
        this.totals.records += result.records;
        this.totals.blocks += result.blocks;
        this.totals.rows += result.rows;
      }
    }
    return total;
  }

  /**
   * The log's retention deleted records before they were compacted (Kafka's retention too short for a
   * compactor outage, or the in-memory mock's 5 MB per partition). They cannot be read any more: say so
   * loudly, count them, and move the committed offset to the log's start (compare-and-set, like a
   * compaction step), rather than stall the partition forever.
   */
  private async skipTruncated(
    partition: number,
    from: number,
    logStart: number,
  ): Promise<CompactionResult | null> {
    if (!Number.isSafeInteger(logStart) || logStart <= from) return null;
    const lost = logStart - from;
    this.logger.error(
      `partition ${partition}: ${lost} acknowledged log records (offsets ${from}-${logStart - 1}) were deleted by the log's retention before they were compacted; they are lost`,
    );
    try {
      await this.metastore.blocks.registerBlocks([], { partition, offset: logStart, expectedOffset: from });
      this.totals.lostRecords += lost;
      this.nextOffsets.set(partition, logStart);
    } catch (err) {
      if (!(isQuarryError(err) && err.code === 'log_offset_moved')) throw err;
      this.nextOffsets.delete(partition);
    }
    return null;
  }

  /** One step over one partition; null when the partition is no longer this process's to compact. */
  private async flushOnce(partition: number): Promise<CompactionResult | null> {
    this.logEpoch ??= await this.metastore.blocks.logEpoch('events');
    const epoch = this.logEpoch;
    let from = this.nextOffsets.get(partition);
    if (from === undefined) {
      from = await this.metastore.blocks.committedOffset(partition);
      this.nextOffsets.set(partition, from);
    }
    let records: LogRecord[];
    try {
      records = await this.log.read(partition, from, MAX_RECORDS_PER_FLUSH);
    } catch (err) {
      // Revoked between partitions() and this read: another compactor has it now.
      if (isQuarryError(err) && err.code === 'log_partition_not_assigned') {
        this.nextOffsets.delete(partition);
        return null;
      }
      if (isQuarryError(err) && err.code === 'log_offset_truncated')
        return this.skipTruncated(partition, from, Number(err.details?.logStart));
      // This process fell behind one that compacted (and truncated) past it: reload the offset.
      if (isQuarryError(err) && err.kind === 'not_found') {
        this.nextOffsets.delete(partition);
        return null;
      }
      throw err;
    }
    if (records.length === 0) return { records: 0, blocks: 0, rows: 0 };
    const firstOffset = records[0].offset;
    const lastOffset = records[records.length - 1].offset;

    // A dataset this process has not heard of is either new (created through another node since the
    // last refresh) or deleted: only a fresh refresh tells which.
    if (
      this.options.refreshCatalog &&
      records.some((r) => !this.registry.getById(datasetIdOfLogRecord(r.payload)))
    )
      await this.options.refreshCatalog();
    // The records' payloads are the columns as ingest built them; a worker concatenates, sorts and
    // encodes them, so the event loop only moves bytes.
    const perDataset = new Map<string, Uint8Array[]>();
    for (const record of records) {
      const datasetId = datasetIdOfLogRecord(record.payload);
      if (!this.registry.getById(datasetId)) continue; // dataset deleted since
      const group = perDataset.get(datasetId);
      if (group) group.push(record.payload);
      else perDataset.set(datasetId, [record.payload]);
    }

    const registered: BlockRecord[] = [];
    const fieldUpdates: { datasetId: string; fields: { name: string; type: string }[] }[] = [];
    let rows = 0;
    for (const [datasetId, payloads] of perDataset) {
      const built = await this.cpu.run('buildBlocks', { payloads, spans: this.options.spans }, [], {
        background: true,
      });
      for (const [i, block] of built.entries()) {
        // The same records always cut the same way, so the ids stay deterministic for replays.
        const range = blockIdFor(datasetId, partition, firstOffset, lastOffset, epoch);
        const id = built.length === 1 ? range : `${range}.${i}`;
        const objectKey = blockObjectKey(datasetId, id);
        await this.objects.put(objectKey, block.bytes);
        registered.push({
          id,
          datasetId,
          objectKey,
          rowCount: block.rowCount,
          sizeBytes: block.bytes.byteLength,
          minTime: block.minTime,
          maxTime: block.maxTime,
          partition,
          firstOffset,
          lastOffset,
          createdAt: new Date().toISOString(),
        });
        fieldUpdates.push({ datasetId, fields: block.fields });
        rows += block.rowCount;
      }
    }

    // Field schemas first: merging is idempotent, so a crash before the registration below only repeats it.
    for (const update of fieldUpdates)
      await this.metastore.datasets.mergeFields(update.datasetId, update.fields);
    try {
      await this.metastore.blocks.registerBlocks(registered, {
        partition,
        offset: lastOffset + 1,
        expectedOffset: from,
      });
    } catch (err) {
      if (isQuarryError(err) && err.code === 'log_offset_moved') {
        // Rolled back for certain: nobody will ever reference these uploads, so they go now.
        this.totals.conflicts++;
        this.nextOffsets.delete(partition);
        this.logger.warn(
          `partition ${partition} was compacted by another process; continuing from its offset`,
        );
        for (const block of registered) await this.objects.delete(block.objectKey).catch(() => undefined);
        return { records: 0, blocks: 0, rows: 0 };
      }
      throw err;
    }
    if (this.options.applyLocally) {
      // Synchronous from here: the block index and the tail change together.
      this.blocks.add(registered);
      this.tail.dropThrough(partition, lastOffset);
    }
    this.nextOffsets.set(partition, lastOffset + 1);

    await this.log.truncateBefore(partition, lastOffset + 1);
    return { records: records.length, blocks: registered.length, rows };
  }
}
