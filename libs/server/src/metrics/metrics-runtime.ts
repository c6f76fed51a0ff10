import { Logger } from '@nestjs/common';
import { isQuarryError, unavailable } from '@quarry/common';
import type { IngestLog } from '@quarry/log';
import type { Metastore } from '@quarry/metastore';
import {
  decodeMetricsRecord,
  encodeMetricsRecord,
  MetricsInfo,
  MetricsStore,
  type MetricsBatch,
  type MetricsLogEntry,
} from '@quarry/metrics-store';
import type { ObjectStore } from '@quarry/objstore';
import { AsyncMutex } from '../storage/async-mutex';
import { BackgroundLoop } from '../storage/background-loop';

/**
 * Metrics use one partition of their log: "the last point of a series in a second wins" needs one order
 * of the points, and the log's order is it (docs/adr/0005).
 */
export const METRICS_PARTITION = 0;
const MAX_RECORDS_PER_FLUSH = 2_000;

export interface MetricsRuntimeOptions {
  maxPointsPerQuery: number;
  /** Where ingest appends batches (null: this process does not ingest). */
  appendLog: IngestLog | null;
  /** What the compactor reads (null: this process does not compact metrics). */
  compactionLog: IngestLog | null;
  /**
   * Embedded shape: an appended batch is added to this process's tail at once, and compactions update
   * the in-memory blocks and tail. Cluster: query nodes follow the log into their tail and refresh blocks
   * from the metastore; nothing else touches them.
   */
  applyLocally: boolean;
  /** Cluster: refreshes the registry before points of an unknown dataset are dropped as deleted. */
  refreshCatalog?: () => Promise<void>;
  /** Cluster: whether this node owns the metrics partition now (its lease); default: when the log has it. */
  ownsPartition?: () => boolean;
  /** Cluster with regions: whether this cluster stores the dataset (only its blocks are merged here). */
  storesDataset?: (datasetId: string) => boolean;
}

/**
 * The metrics side of storage: a log (the embedded segment log at `<data dir>/metrics-log`, or the
 * cluster's Kafka topic), the series store, and a compactor that follows the events compactor's order —
 * upload blocks, register blocks + series + next offset in one metastore transaction (compare-and-set on
 * the offset), swap blocks in and drop the tail in one synchronous step, then truncate the log. A crash
 * at any point neither loses nor duplicates a point.
 */
export class MetricsRuntime {
  private readonly logger = new Logger('metrics');
  readonly info: MetricsInfo;
  private readonly lock = new AsyncMutex();
  private nextOffset: number | null = null;
  private readonly loop = new BackgroundLoop('metrics compaction', this.logger, () => this.flush());
  readonly totals = { pointsIngested: 0, blocks: 0, pointsCompacted: 0, merges: 0 };

  private constructor(
    private readonly options: MetricsRuntimeOptions,
    private readonly metastore: Metastore,
    readonly store: MetricsStore,
    private readonly isLive: (datasetId: string) => boolean,
    private readonly mayMerge: () => Promise<boolean>,
  ) {
    this.info = new MetricsInfo(store.catalog);
  }

  static async open(
    options: MetricsRuntimeOptions,
    metastore: Metastore,
    objects: ObjectStore,
    isLive: (datasetId: string) => boolean,
    /** Asked before each merge round (the cluster's merge lease); the embedded shape always merges. */
    mayMerge: () => Promise<boolean> = async () => true,
  ): Promise<MetricsRuntime> {
    const store = await MetricsStore.open(metastore, objects, {
      maxPointsPerQuery: options.maxPointsPerQuery,
      applyLocally: options.applyLocally,
    });
    return new MetricsRuntime(options, metastore, store, isLive, mayMerge);
  }

  /** The log this process appends to or compacts (for /readyz and /metrics). */
  get log(): IngestLog | null {
    return this.options.appendLog ?? this.options.compactionLog;
  }

  /** Embedded shape: replays the uncompacted metrics log into the tail; returns the number of points. */
  async replay(): Promise<number> {
    const log = this.options.compactionLog;
    if (log === null) return 0;
    this.store.logEpoch = await this.metastore.blocks.logEpoch('metrics');
    this.nextOffset = await this.store.committedOffset();
    let offset = this.nextOffset;
    let points = 0;
    for (;;) {
      const entries = await this.readFrom(log, offset);
      if (entries.length === 0) break;
      for (const entry of entries) if (this.isLive(entry.batch.datasetId)) points += this.store.add(entry);
      offset = entries[entries.length - 1].offset + 1;
    }
    return points;
  }

  /** Durably logs a batch, then (embedded) makes it visible. Resolves only after the log acknowledged it. */
  async append(batch: MetricsBatch): Promise<number> {
    const log = this.options.appendLog;
    if (log === null) throw unavailable('this node does not ingest metrics', { code: 'role_not_served' });
    const [position] = await log.append(batch.datasetId, [encodeMetricsRecord(batch)]);
    let points = 0;
    if (this.options.applyLocally) points = this.store.add({ offset: position.offset, batch });
    else
      for (const series of batch.series)
        points += series.kind === 'scalar' ? series.times.length : series.points.length;
    this.totals.pointsIngested += points;
    return points;
  }

  /** A logged record read back by a query node's log follower (cluster): into the tail. */
  follow(offset: number, payload: Uint8Array): void {
    this.store.add({ offset, batch: decodeMetricsRecord(payload) });
  }

  start(intervalMs: number): void {
    this.loop.start(intervalMs);
  }

  /** Failed background compactions in a row (0 when healthy). */
  get consecutiveFailures(): number {
    return this.loop.consecutiveFailures;
  }

  /** Compacts everything currently in the metrics log, then merges blocks that piled up in a bucket. */
  async flush(): Promise<{ blocks: number; points: number }> {
    const total = { blocks: 0, points: 0 };
    const log = this.options.compactionLog;
    if (log === null) return total;
    // Cluster: only the compactor the consumer group gave the metrics partition compacts it.
    const owns = this.options.ownsPartition ?? (() => log.partitions().includes(METRICS_PARTITION));
    while (owns()) {
      const step = await this.lock.run(() => this.compactStep(log));
      if (!step) break;
      total.blocks += step.blocks;
      total.points += step.points;
      this.totals.blocks += step.blocks;
      this.totals.pointsCompacted += step.points;
    }
    if (await this.mayMerge()) {
      const merged = await this.lock.run(() =>
        this.store.mergeBlocks(
          Math.floor(Date.now() / 1000),
          (id) => this.isLive(id) && (this.options.storesDataset?.(id) ?? true),
        ),
      );
      this.totals.merges += merged;
    }
    return total;
  }

  private async compactStep(log: IngestLog): Promise<{ blocks: number; points: number } | null> {
    if (this.nextOffset === null) {
      this.store.logEpoch = await this.metastore.blocks.logEpoch('metrics');
      this.nextOffset = await this.store.committedOffset();
    }
    let entries: MetricsLogEntry[];
    try {
      entries = await this.readFrom(log, this.nextOffset);
    } catch (err) {
      if (isQuarryError(err) && err.code === 'log_partition_not_assigned') {
        this.nextOffset = null;
        return null;
      }
      throw err;
    }
    if (entries.length === 0) return null;
    if (this.options.refreshCatalog && entries.some((e) => !this.isLive(e.batch.datasetId)))
      await this.options.refreshCatalog();
    let result;
    try {
      result = await this.store.compact(entries, this.isLive, this.nextOffset);
    } catch (err) {
      if (isQuarryError(err) && err.code === 'log_offset_moved') {
        // Another compactor registered this range after a rebalance: continue from its offset.
        this.nextOffset = null;
        this.logger.warn('the metrics log was compacted by another process; continuing from its offset');
        return null;
      }
      throw err;
    }
    this.nextOffset = entries[entries.length - 1].offset + 1;
    await log.truncateBefore(METRICS_PARTITION, this.nextOffset);
    return result;
  }

  /** Deletes a dataset's series, blocks and tail (after the dataset left the registry). */
  deleteDataset(datasetId: string): Promise<number> {
    return this.lock.run(() => this.store.deleteDataset(datasetId));
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private async readFrom(log: IngestLog, offset: number): Promise<MetricsLogEntry[]> {
    const records = await log.read(METRICS_PARTITION, offset, MAX_RECORDS_PER_FLUSH);
    return records.map((r) => ({ offset: r.offset, batch: decodeMetricsRecord(r.payload) }));
  }
}
