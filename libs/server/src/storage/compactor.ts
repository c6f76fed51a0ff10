import { Logger } from '@nestjs/common';
import { encodeBlock } from '@quarry/block-format';
import {
  blockIdFor,
  concatEventBatches,
  selectRows,
  timeOrder,
  TIME_FIELD,
  wireTypeOfKind,
  type BlockRecord,
  type ColumnBatch,
} from '@quarry/contracts';
import type { IngestLog } from '@quarry/log';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AsyncMutex } from './async-mutex';
import { BackgroundLoop } from './background-loop';
import type { BlockIndex } from './block-index';
import type { DatasetRegistry } from './dataset-registry';
import type { TailBuffer } from './tail-buffer';
import { decodeLogRecord } from './log-codec';

const PARTITION = 0;
const MAX_RECORDS_PER_FLUSH = 5_000;

export interface CompactionResult {
  records: number;
  blocks: number;
  rows: number;
}

/**
 * Turns log records into immutable blocks: read from the committed offset, build one block per dataset,
 * upload it, then register the blocks and the new offset in one metastore transaction, and only then
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
        const payload = decodeLogRecord(record.payload);
        if (this.registry.getById(payload.datasetId)) {
          this.tail.add({
            partition: record.partition,
            offset: record.offset,
            datasetId: payload.datasetId,
            sysTime: payload.sysTime,
            batch: payload.batch,
          });
          replayed += payload.batch.length;
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

    // Normally every record is in the tail (ingest and replay put it there) and nothing is decoded; a
    // record is missing when its ingest continuation has not run yet, or its dataset was deleted.
    const perDataset = new Map<string, ColumnBatch[]>();
    for (const record of records) {
      const { datasetId, batch } =
        this.tail.at(record.partition, record.offset) ?? decodeLogRecord(record.payload);
      if (!this.registry.getById(datasetId)) continue; // dataset deleted since
      const group = perDataset.get(datasetId);
      if (group) group.push(batch);
      else perDataset.set(datasetId, [batch]);
    }

    const registered: BlockRecord[] = [];
    const fieldUpdates: { datasetId: string; fields: { name: string; type: string }[] }[] = [];
    let rows = 0;
    for (const [datasetId, batches] of perDataset) {
      const { batch, bytes, minTime, maxTime } = buildBlock(batches);
      const id = blockIdFor(datasetId, PARTITION, firstOffset, lastOffset);
      const objectKey = `blocks/${datasetId}/${id}.qblk`;
      await this.objects.put(objectKey, bytes);
      registered.push({
        id,
        datasetId,
        objectKey,
        rowCount: batch.length,
        sizeBytes: bytes.byteLength,
        minTime,
        maxTime,
        partition: PARTITION,
        firstOffset,
        lastOffset,
        createdAt: new Date().toISOString(),
      });
      fieldUpdates.push({
        datasetId,
        fields: [...batch.columns].map(([name, column]) => ({ name, type: wireTypeOfKind(column.kind) })),
      });
      rows += batch.length;
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

/**
 * One block from a dataset's record batches (in log order): concatenated as `batchFromEvents` would have
 * built them from all the events, rows sorted by `_time` (ties keep log order), deflate-compressed.
 */
export function buildBlock(batches: readonly ColumnBatch[]): {
  batch: ColumnBatch;
  bytes: Uint8Array;
  minTime: number;
  maxTime: number;
} {
  const all = concatEventBatches(batches);
  const order = timeOrder(all);
  const batch = order === null ? all : selectRows(all, order);
  const time = batch.columns.get(TIME_FIELD);
  const n = batch.length;
  const hasTimes = n > 0 && time !== undefined && time.kind === 'datetime';
  return {
    batch,
    bytes: encodeBlock(batch),
    minTime: hasTimes ? time.values[0] : 0,
    maxTime: hasTimes ? time.values[n - 1] : 0,
  };
}
