import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { FileSegmentLog, type IngestLog } from '@quarry/log';
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

const PARTITION = 0;
const MAX_RECORDS_PER_FLUSH = 2_000;

export interface MetricsRuntimeOptions {
  dataDir: string;
  maxPointsPerQuery: number;
}

/**
 * The metrics side of storage: its own segment log (`<data dir>/metrics-log`, fdatasync'd before a 200),
 * the series store, and a compactor that follows the events compactor's order — upload blocks, register
 * blocks + series + next offset in one metastore transaction, swap blocks in and drop the tail in one
 * synchronous step, then truncate the log. A crash at any point neither loses nor duplicates a point.
 */
export class MetricsRuntime {
  private readonly logger = new Logger('metrics');
  readonly info: MetricsInfo;
  private readonly lock = new AsyncMutex();
  private nextOffset = 0;
  private readonly loop = new BackgroundLoop('metrics compaction', this.logger, () => this.flush());
  readonly totals = { pointsIngested: 0, blocks: 0, pointsCompacted: 0, merges: 0 };

  private constructor(
    readonly log: IngestLog,
    readonly store: MetricsStore,
    private readonly isLive: (datasetId: string) => boolean,
  ) {
    this.info = new MetricsInfo(store.catalog);
  }

  static async open(
    options: MetricsRuntimeOptions,
    metastore: Metastore,
    objects: ObjectStore,
    isLive: (datasetId: string) => boolean,
  ): Promise<MetricsRuntime> {
    const log = await FileSegmentLog.open(path.join(options.dataDir, 'metrics-log'));
    const store = await MetricsStore.open(metastore, objects, {
      maxPointsPerQuery: options.maxPointsPerQuery,
    });
    return new MetricsRuntime(log, store, isLive);
  }

  /** Replays the uncompacted metrics log into the tail; returns the number of points. */
  async replay(): Promise<number> {
    this.nextOffset = await this.store.committedOffset();
    let offset = this.nextOffset;
    let points = 0;
    for (;;) {
      const entries = await this.readFrom(offset);
      if (entries.length === 0) break;
      for (const entry of entries) if (this.isLive(entry.batch.datasetId)) points += this.store.add(entry);
      offset = entries[entries.length - 1].offset + 1;
    }
    return points;
  }

  /** Durably logs a batch, then makes it visible. Resolves only after the fdatasync. */
  async append(batch: MetricsBatch): Promise<number> {
    const [position] = await this.log.append(batch.datasetId, [encodeMetricsRecord(batch)]);
    const points = this.store.add({ offset: position.offset, batch });
    this.totals.pointsIngested += points;
    return points;
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
    for (;;) {
      const step = await this.lock.run(async () => {
        const entries = await this.readFrom(this.nextOffset);
        if (entries.length === 0) return null;
        const result = await this.store.compact(entries, this.isLive);
        this.nextOffset = entries[entries.length - 1].offset + 1;
        await this.log.truncateBefore(PARTITION, this.nextOffset);
        return result;
      });
      if (!step) break;
      total.blocks += step.blocks;
      total.points += step.points;
      this.totals.blocks += step.blocks;
      this.totals.pointsCompacted += step.points;
    }
    const merged = await this.lock.run(() =>
      this.store.mergeBlocks(Math.floor(Date.now() / 1000), this.isLive),
    );
    this.totals.merges += merged;
    return total;
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
    await this.log.close();
  }

  private async readFrom(offset: number): Promise<MetricsLogEntry[]> {
    const records = await this.log.read(PARTITION, offset, MAX_RECORDS_PER_FLUSH);
    return records.map((r) => ({ offset: r.offset, batch: decodeMetricsRecord(r.payload) }));
  }
}
