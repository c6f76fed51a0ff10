import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { decodeBlock, encodeBlock } from '@quarry/block-format';
import {
  blockIdFor,
  selectRows,
  TIME_FIELD,
  type BlockRecord,
  type Column,
  type ColumnBatch,
} from '@quarry/contracts';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AsyncMutex } from './async-mutex';
import type { BlockIndex } from './block-index';
import type { DatasetRegistry } from './dataset-registry';

export interface MergePolicy {
  /** Blocks with fewer rows than this are merge candidates. */
  smallBlockRows: number;
  /** A merged block holds at most this many rows. */
  maxMergedRows: number;
  /** A run is merged once it has this many blocks, or `maxMergedRows / 2` rows. */
  minRunBlocks: number;
  /** Merged-away objects are deleted this long after the swap (queries in flight may still read them). */
  deleteGraceMs: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicy = {
  smallBlockRows: 250_000,
  maxMergedRows: 1_000_000,
  minRunBlocks: 8,
  deleteGraceMs: 60_000,
};

export interface MergeResult {
  /** Merged blocks written. */
  merged: number;
  /** Input blocks replaced by them. */
  replaced: number;
}

/**
 * Merges the small blocks the compactor writes every tick into large ones, sorted by `_time`: fewer
 * blocks per query, one dictionary per column instead of dozens, better compression.
 *
 * A run's inputs are read and merged outside the storage lock; then, under the lock, the merged block
 * replaces its inputs in ONE metastore transaction (`swapBlocks`) and in the in-memory index in one
 * synchronous step, so a query sees either the inputs or the merged block. Only runs whose blocks agree
 * on every shared column's kind are merged (a field that is a string in one block and a number in
 * another keeps answering exactly as before). Inputs that vanished meanwhile (dataset deleted, blocks
 * trimmed) cancel the swap. Merged-away objects are deleted after a grace period; objects orphaned by a
 * crash in between are removed by `sweepOrphans` at the next start.
 */
export class BlockMerger {
  private readonly logger = new Logger('merger');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly pendingDeletes = new Set<NodeJS.Timeout>();

  constructor(
    private readonly metastore: Metastore,
    private readonly objects: ObjectStore,
    private readonly registry: DatasetRegistry,
    private readonly blocks: BlockIndex,
    private readonly lock: AsyncMutex,
    private readonly forget: (objectKey: string) => void,
    private readonly policy: MergePolicy = DEFAULT_MERGE_POLICY,
  ) {}

  start(intervalMs: number): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.mergeAll()
        .catch((err) => this.logger.warn(`merge failed (will retry): ${(err as Error).message}`))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    for (const pending of this.pendingDeletes) clearTimeout(pending);
    this.pendingDeletes.clear();
  }

  /** Merges every eligible run of every dataset. */
  async mergeAll(): Promise<MergeResult> {
    const total: MergeResult = { merged: 0, replaced: 0 };
    for (const dataset of this.registry.list()) {
      for (const run of this.runsOf(this.blocks.list(dataset.id))) {
        if (this.stopped) return total;
        if (await this.mergeRun(dataset.id, run)) {
          total.merged++;
          total.replaced += run.length;
        }
      }
    }
    if (total.merged > 0) this.logger.log(`merged ${total.replaced} blocks into ${total.merged}`);
    return total;
  }

  /** Consecutive (by time) small blocks, cut at `maxMergedRows`, that are worth merging. */
  runsOf(blocks: readonly BlockRecord[]): BlockRecord[][] {
    const { smallBlockRows, maxMergedRows, minRunBlocks } = this.policy;
    const small = blocks
      .filter((b) => b.rowCount < smallBlockRows)
      .sort((a, b) => a.minTime - b.minTime || a.firstOffset - b.firstOffset);
    const runs: BlockRecord[][] = [];
    let run: BlockRecord[] = [];
    let rows = 0;
    const close = () => {
      if (run.length >= 2 && (run.length >= minRunBlocks || rows >= maxMergedRows / 2)) runs.push(run);
      run = [];
      rows = 0;
    };
    for (const block of small) {
      if (rows + block.rowCount > maxMergedRows) close();
      run.push(block);
      rows += block.rowCount;
    }
    close();
    return runs;
  }

  private async mergeRun(datasetId: string, run: BlockRecord[]): Promise<boolean> {
    const batches: ColumnBatch[] = [];
    for (const block of run) batches.push(decodeBlock(await this.objects.get(block.objectKey)));
    if (!kindsAgree(batches)) return false;
    const merged = sortByTime(concatSameKinds(batches));
    const bytes = encodeBlock(merged);
    const partition = run[0].partition;
    const firstOffset = Math.min(...run.map((b) => b.firstOffset));
    const lastOffset = Math.max(...run.map((b) => b.lastOffset));
    const id = blockIdFor(datasetId, partition, firstOffset, lastOffset);
    const time = merged.columns.get(TIME_FIELD) as { values: Float64Array };
    const record: BlockRecord = {
      id,
      datasetId,
      // A fresh name per attempt: deleting the output of a refused swap can never hit a live object.
      objectKey: `blocks/${datasetId}/${id}.${randomUUID().slice(0, 8)}.merged.qblk`,
      rowCount: merged.length,
      sizeBytes: bytes.byteLength,
      minTime: merged.length ? time.values[0] : 0,
      maxTime: merged.length ? time.values[merged.length - 1] : 0,
      partition,
      firstOffset,
      lastOffset,
      createdAt: new Date().toISOString(),
    };
    await this.objects.put(record.objectKey, bytes);
    const swapped = await this.lock.run(async () => {
      const current = new Set(this.blocks.list(datasetId).map((b) => b.id));
      if (!this.registry.getById(datasetId) || !run.every((b) => current.has(b.id))) return false;
      // swapBlocks skips an id that exists; replacing the inputs by nothing would lose their rows.
      if (current.has(id) || (await this.metastore.blocks.getBlock(id))) return false;
      await this.metastore.blocks.swapBlocks(
        run.map((b) => b.id),
        [record],
      );
      this.blocks.replace(
        datasetId,
        run.map((b) => b.id),
        [record],
      );
      return true;
    });
    if (!swapped) {
      await this.objects.delete(record.objectKey);
      return false;
    }
    this.deleteLater(run.map((b) => b.objectKey));
    return true;
  }

  private deleteLater(objectKeys: string[]): void {
    const pending = setTimeout(() => {
      this.pendingDeletes.delete(pending);
      for (const key of objectKeys) {
        this.forget(key);
        this.objects.delete(key).catch((err) => {
          this.logger.warn(`could not delete merged-away block ${key}: ${(err as Error).message}`);
        });
      }
    }, this.policy.deleteGraceMs);
    pending.unref();
    this.pendingDeletes.add(pending);
  }

  /**
   * Deletes block objects no registered block refers to: merged-away inputs whose delayed deletion a
   * restart interrupted, and merged outputs whose swap never committed. Run at start, before the compactor
   * (which writes objects before registering them) and the merger start.
   */
  async sweepOrphans(): Promise<number> {
    const referenced = new Set<string>();
    for (const dataset of this.registry.list())
      for (const block of this.blocks.list(dataset.id)) referenced.add(block.objectKey);
    let removed = 0;
    for (const key of await this.objects.list('blocks/')) {
      if (referenced.has(key)) continue;
      await this.objects.delete(key);
      removed++;
    }
    if (removed > 0) this.logger.log(`removed ${removed} unreferenced block objects`);
    return removed;
  }
}

/** True when every column present in several batches has the same kind in all of them. */
function kindsAgree(batches: readonly ColumnBatch[]): boolean {
  const kinds = new Map<string, string>();
  for (const batch of batches) {
    for (const [name, column] of batch.columns) {
      const seen = kinds.get(name);
      if (seen === undefined) kinds.set(name, column.kind);
      else if (seen !== column.kind) return false;
    }
  }
  return true;
}

/** Concatenates batches whose shared columns have one kind; a column absent from a batch is null there. */
function concatSameKinds(batches: readonly ColumnBatch[]): ColumnBatch {
  const total = batches.reduce((n, b) => n + b.length, 0);
  const names = [...new Set(batches.flatMap((b) => [...b.columns.keys()]))];
  const columns = new Map<string, Column>();
  for (const name of names) {
    const parts = batches.map((b) => ({ length: b.length, column: b.columns.get(name) }));
    columns.set(name, concatColumn(parts, total));
  }
  return { length: total, columns };
}

function concatColumn(parts: { length: number; column: Column | undefined }[], total: number): Column {
  const kind = parts.find((p) => p.column)!.column!.kind;
  if (kind === 'string') {
    const codes = new Int32Array(total).fill(-1);
    const dict: string[] = [];
    const index = new Map<string, number>();
    let at = 0;
    for (const { length, column } of parts) {
      if (column?.kind === 'string') {
        const remap = column.dict.map((s) => {
          let code = index.get(s);
          if (code === undefined) {
            code = dict.length;
            dict.push(s);
            index.set(s, code);
          }
          return code;
        });
        for (let i = 0; i < length; i++) codes[at + i] = column.codes[i] < 0 ? -1 : remap[column.codes[i]];
      }
      at += length;
    }
    return { kind: 'string', codes, dict };
  }
  if (kind === 'dynamic') {
    const values: unknown[] = [];
    for (const { length, column } of parts) {
      for (let i = 0; i < length; i++) values.push(column?.kind === 'dynamic' ? column.values[i] : null);
    }
    return { kind: 'dynamic', values };
  }
  const values = kind === 'bool' ? new Uint8Array(total) : new Float64Array(total);
  let nulls: Uint8Array | null = null;
  let at = 0;
  for (const { length, column } of parts) {
    if (column === undefined) (nulls ??= new Uint8Array(total)).fill(1, at, at + length);
    else {
      const typed = column as { values: Float64Array | Uint8Array; nulls: Uint8Array | null };
      values.set(typed.values, at);
      if (typed.nulls) (nulls ??= new Uint8Array(total)).set(typed.nulls, at);
    }
    at += length;
  }
  return { kind, values, nulls } as Column;
}

/** Rows in ascending `_time` (stable: equal times keep their order). */
function sortByTime(batch: ColumnBatch): ColumnBatch {
  const time = (batch.columns.get(TIME_FIELD) as { values: Float64Array }).values;
  const order = Array.from({ length: batch.length }, (_, i) => i);
  order.sort((a, b) => time[a] - time[b] || a - b);
  return selectRows(batch, Uint32Array.from(order));
}
