import { Logger } from '@nestjs/common';
import { blockIdFor, type BlockRecord } from '@quarry/contracts';
import type { IngestLog } from '@quarry/log';
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

const PARTITION = 0;

/** One hour, cut out when it holds at least 4,096 rows of a flush. */
export const DEFAULT_SPANS: SpanPolicy = { spanMs: 3_600_000, minSpanRows: 4096 };
const MAX_RECORDS_PER_FLUSH = 5_000;

export interface CompactionResult {
  records: number;
  blocks: number;
  rows: number;
}

/**
 * Turns log records into immutable blocks: read from the committed offset, build each dataset's blocks
 * (cut at time-span boundaries), upload them, then register the blocks and the new offset in one metastore transaction, and only then
 * drop the records from the tail and truncate the log. Block ids come from the log range, so replaying a
 * range after a crash re-registers nothing and duplicates no row.
 */
export class Compactor {
  private readonly logger = new Logger('compactor');
  private nextOffset = 0;
  private readonly loop = new BackgroundLoop('compaction', this.logger, () => this.flush());
  /** Work done since start, for metrics. */
  readonly totals = { records: 0, blocks: 0, rows: 0 };

  constructor(
    private readonly log: IngestLog,
    private readonly objects: ObjectStore,
    private readonly metastore: Metastore,
    private readonly registry: DatasetRegistry,
    private readonly blocks: BlockIndex,
    private readonly tail: TailBuffer,
    private readonly lock: AsyncMutex,
    private readonly cpu: CpuPool,
    /** Blocks are cut at these time spans (see `buildBlocks`). */
    private readonly spans: SpanPolicy = DEFAULT_SPANS,
  ) {}

  /** Loads the committed offset and replays the uncompacted log into the tail (read-your-writes after restart). */
  async replay(): Promise<number> {
    this.nextOffset = await this.metastore.blocks.committedOffset(PARTITION);
    let offset = this.nextOffset;
    let replayed = 0;
    for (;;) {
      const records = await this.log.read(PARTITION, offset, MAX_RECORDS_PER_FLUSH);
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

  /** Compacts everything currently in the log. */
  async flush(): Promise<CompactionResult> {
    const total: CompactionResult = { records: 0, blocks: 0, rows: 0 };
    for (;;) {
      const result = await this.lock.run(() => this.flushOnce());
      if (result.records === 0) break;
      total.records += result.records;
      total.blocks += result.blocks;
      total.rows += result.rows;
      this.totals.records += result.records;
      this.totals.blocks += result.blocks;
      this.totals.rows += result.rows;
    }
    return total;
  }

  private async flushOnce(): Promise<CompactionResult> {
    const records = await this.log.read(PARTITION, this.nextOffset, MAX_RECORDS_PER_FLUSH);
    if (records.length === 0) return { records: 0, blocks: 0, rows: 0 };
    const firstOffset = records[0].offset;
    const lastOffset = records[records.length - 1].offset;

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
      const built = await this.cpu.run('buildBlocks', { payloads, spans: this.spans });
      for (const [i, block] of built.entries()) {
        // The same records always cut the same way, so the ids stay deterministic for replays.
        const range = blockIdFor(datasetId, PARTITION, firstOffset, lastOffset);
        const id = built.length === 1 ? range : `${range}.${i}`;
        const objectKey = `blocks/${datasetId}/${id}.qblk`;
        await this.objects.put(objectKey, block.bytes);
        registered.push({
          id,
          datasetId,
          objectKey,
          rowCount: block.rowCount,
          sizeBytes: block.bytes.byteLength,
          minTime: block.minTime,
          maxTime: block.maxTime,
          partition: PARTITION,
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
    await this.metastore.blocks.registerBlocks(registered, { partition: PARTITION, offset: lastOffset + 1 });
    // Synchronous from here: the block index and the tail change together.
    this.blocks.add(registered);
    this.tail.dropThrough(PARTITION, lastOffset);
    this.nextOffset = lastOffset + 1;

    await this.log.truncateBefore(PARTITION, this.nextOffset);
    return { records: records.length, blocks: registered.length, rows };
  }
}
