import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { isQuarryError } from '@quarry/common';
import { blockIdFor, logEpochOfBlockId, type BlockRecord } from '@quarry/contracts';
import type { DatasetRecord, Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AsyncMutex } from './async-mutex';
import { BackgroundLoop } from './background-loop';
import type { BlockIndex } from './block-index';
import type { DatasetRegistry } from './dataset-registry';
import { spanOf, type BuiltBlock } from './block-builder';
import { DEFAULT_SPANS } from './compactor';
import { DeferredBlockDeletion } from './deferred-block-deletion';
import type { CpuPool } from '../workers/cpu-pool';
import { mergedBlockObjectKey, writtenAtMs } from './object-keys';

export interface MergePolicy {
  /** Blocks with fewer rows than this are merge candidates. */
  smallBlockRows: number;
  /** A merged block holds at most this many rows. */
  maxMergedRows: number;
  /** A run is merged once it has this many blocks, or `maxMergedRows / 2` rows. */
  minRunBlocks: number;
  /** Merged-away objects are deleted this long after the swap (queries in flight may still read them). */
  deleteGraceMs: number;
  /** Time span blocks are cut at (the compactor's `SpanPolicy.spanMs`): a run never mixes spans. */
  spanMs: number;
}

/** How the merger shares its work with other processes (cluster) or not (embedded). */
export interface MergerCoordination {
  /**
   * Embedded: the in-memory block index is the truth and is updated with each swap. Cluster: the
   * catalog refresh applies what the metastore says.
   */
  applyLocally: boolean;
  /**
   * Asked before each round: false skips it (the cluster's merge lease is held by another node). Also
   * where the cluster refreshes the block index from the metastore, so runs are chosen from fresh lists.
   */
  beforeRound?: () => Promise<boolean>;
  /**
   * Cluster with regions: whether this cluster stores the dataset. Another region's blocks are in the
   * shared catalog but in that region's object store: never merged here. Default: every dataset.
   */
  mergesDataset?: (dataset: DatasetRecord) => boolean;
}

/**
 * Merged blocks of about DuckDB's row-group size: large enough that per-block costs vanish, small enough
 * that a query needing a few rows of every column (`sort by _time desc | take 100`) decodes little.
 */
export const DEFAULT_MERGE_POLICY: MergePolicy = {
  smallBlockRows: 32_768,
  maxMergedRows: 131_072,
  minRunBlocks: 8,
  deleteGraceMs: 60_000,
  spanMs: DEFAULT_SPANS.spanMs,
};

/** Runs that gave nothing to merge, remembered by their blocks' ids (at most this many). */
const MAX_BARREN_RUNS = 10_000;

/** A digest of the blocks' ids (order-independent): names a merge's inputs, and a run. */
function digestOf(blocks: readonly BlockRecord[]): string {
  return createHash('sha256')
    .update(
      blocks
        .map((b) => b.id)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 12);
}

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
 * synchronous step, so a query sees either the inputs or the merged block. Only blocks that agree on
 * every shared column's kind are merged together (a field that is a string in one block and a number in
 * another keeps answering exactly as before): a run's blocks group by kinds (`compatibleGroups`). Inputs that vanished meanwhile (dataset deleted, blocks
 * trimmed) cancel the swap. Merged-away objects are deleted after a grace period; objects orphaned by a
 * crash in between are removed by `sweepOrphans` at the next start.
 */
export class BlockMerger {
  private readonly logger = new Logger('merger');
  private readonly loop = new BackgroundLoop('block merge', this.logger, () => this.mergeAll());
  private stopping = false;
  private readonly deletions: DeferredBlockDeletion;
  /** Digests of runs that gave nothing to merge (`mergeRun`). */
  private readonly barren = new Set<string>();
  /** Since start, for /metrics. */
  readonly totals: MergeResult = { merged: 0, replaced: 0 };

  constructor(
    private readonly metastore: Metastore,
    private readonly objects: ObjectStore,
    private readonly registry: DatasetRegistry,
    private readonly blocks: BlockIndex,
    private readonly lock: AsyncMutex,
    forget: (objectKey: string) => void,
    private readonly cpu: CpuPool,
    private readonly policy: MergePolicy = DEFAULT_MERGE_POLICY,
    private readonly coordination: MergerCoordination = { applyLocally: true },
  ) {
    this.deletions = new DeferredBlockDeletion(
      objects,
      forget,
      this.logger,
      policy.deleteGraceMs,
      'merged-away block',
    );
  }

  start(intervalMs: number): void {
    this.stopping = false;
    this.loop.start(intervalMs);
  }

  async stop(): Promise<void> {
    this.stopping = true; // a merge in progress ends after its current run
    await this.loop.stop();
    this.deletions.cancelAll();
  }

  /** Merges every eligible run of every dataset. */
  async mergeAll(): Promise<MergeResult> {
    const total: MergeResult = { merged: 0, replaced: 0 };
    if (this.coordination.beforeRound && !(await this.coordination.beforeRound())) return total;
    for (const dataset of this.registry.list()) {
      if (this.coordination.mergesDataset && !this.coordination.mergesDataset(dataset)) continue;
      for (const run of this.runsOf(this.blocks.list(dataset.id))) {
        if (this.stopping) return total;
        const result = await this.mergeRun(dataset.id, run);
        total.merged += result.merged;
        total.replaced += result.replaced;
      }
    }
    this.totals.merged += total.merged;
    this.totals.replaced += total.replaced;
    if (total.merged > 0) this.logger.log(`merged ${total.replaced} blocks into ${total.merged}`);
    return total;
  }

  /**
   * Consecutive (by time) small blocks of the same time span, cut at `maxMergedRows`, that are worth
   * merging: a span's blocks merge among themselves, and blocks that straddle spans (the sparse rows of a
   * flush) among themselves, so merged blocks stay within a span. A span that ended a while ago gets no
   * more rows in the normal course, so any two of its small blocks are worth merging.
   */
  runsOf(blocks: readonly BlockRecord[], nowMs = Date.now()): BlockRecord[][] {
    const { smallBlockRows, maxMergedRows, minRunBlocks, spanMs } = this.policy;
    const small = blocks
      .filter((b) => b.rowCount < smallBlockRows)
      .sort((a, b) => a.minTime - b.minTime || a.firstOffset - b.firstOffset);
    const runs: BlockRecord[][] = [];
    let run: BlockRecord[] = [];
    let runSpan: number | null = null;
    let rows = 0;
    const close = () => {
      const settled = runSpan !== null && runSpan + spanMs + SETTLE_MS < nowMs;
      if (run.length >= 2 && (settled || run.length >= minRunBlocks || rows >= maxMergedRows / 2))
        runs.push(run);
      run = [];
      rows = 0;
    };
    for (const block of small) {
      const span = spanOfBlock(block, spanMs);
      if (run.length > 0 && (span !== runSpan || rows + block.rowCount > maxMergedRows)) close();
      runSpan = span;
      run.push(block);
      rows += block.rowCount;
    }
    close();
    return runs;
  }

  /**
   * Merges a run: its blocks whose columns agree on their kinds become one block per group
   * (`mergeBlocks`). A run that gave nothing to merge is remembered and not read again until its blocks
   * change (a new block joins it, or some merge away), so blocks that can never merge cost one read.
   */
  private async mergeRun(datasetId: string, run: BlockRecord[]): Promise<MergeResult> {
    const result: MergeResult = { merged: 0, replaced: 0 };
    const runKey = digestOf(run);
    if (this.barren.has(runKey)) return result;
    const inputs: Uint8Array[] = [];
    for (const block of run) inputs.push(await this.objects.get(block.objectKey));
    const groups = await this.cpu.run('mergeBlocks', { blocks: inputs }, [], { background: true });
    if (groups.length === 0) {
      // Bounded: forgetting costs one more read of the run, never a wrong merge.
      if (this.barren.size >= MAX_BARREN_RUNS) this.barren.clear();
      this.barren.add(runKey);
      return result;
    }
    for (const group of groups) {
      if (
        await this.swapIn(
          datasetId,
          group.inputs.map((i) => run[i]),
          group.block,
        )
      ) {
        result.merged++;
        result.replaced += group.inputs.length;
      }
    }
    return result;
  }

  /** Registers `merged` in place of `run` (one metastore transaction, one index step); false if it changed. */
  private async swapIn(datasetId: string, run: BlockRecord[], merged: BuiltBlock): Promise<boolean> {
    const { bytes, minTime, maxTime } = merged;
    const partition = run[0].partition;
    const firstOffset = Math.min(...run.map((b) => b.firstOffset));
    const lastOffset = Math.max(...run.map((b) => b.lastOffset));
    // Runs of different spans may cover the same log range: the span keeps their ids apart.
    const span = spanOfBlock(run[0], this.policy.spanMs);
    const range = blockIdFor(datasetId, partition, firstOffset, lastOffset, logEpochOfBlockId(run[0].id));
    // Runs may mix partitions (cluster), so the offsets alone do not name the inputs: a digest of their
    // ids does, and the same inputs always give the same id (a retried merge registers once).
    const inputsDigest = digestOf(run);
    const id = `${span === null ? range : `${range}.s${span}`}.m${inputsDigest}`;
    const record: BlockRecord = {
      id,
      datasetId,
      // A fresh name per attempt: deleting the output of a refused swap can never hit a live object.
      objectKey: mergedBlockObjectKey(datasetId, id),
      rowCount: merged.rowCount,
      sizeBytes: bytes.byteLength,
      minTime,
      maxTime,
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
      try {
        // requireAll: another process (a trim, a dataset delete) may have removed an input meanwhile.
        await this.metastore.blocks.swapBlocks(
          run.map((b) => b.id),
          [record],
          { requireAll: true },
        );
      } catch (err) {
        if (isQuarryError(err) && err.code === 'blocks_changed') return false;
        throw err;
      }
      if (this.coordination.applyLocally) {
        this.blocks.replace(
          datasetId,
          run.map((b) => b.id),
          [record],
        );
      }
      return true;
    });
    if (!swapped) {
      await this.objects.delete(record.objectKey);
      return false;
    }
    this.deletions.schedule(run.map((b) => b.objectKey));
    return true;
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

  /**
   * The cluster's sweep, run by the merge-lease holder: other processes upload objects before they
   * register them, so an unreferenced object is garbage only once it is older than any upload still
   * waiting for its registration (`minAgeMs`, from the write tag in its key; keys without one are never
   * removed here). The reference set is read from the metastore after listing, so a registration that
   * lands in between is seen.
   */
  async sweepOldOrphans(minAgeMs: number, nowMs = Date.now()): Promise<number> {
    const candidates = (await this.objects.list('blocks/')).filter((key) => {
      const at = writtenAtMs(key);
      return at !== null && at < nowMs - minAgeMs;
    });
    if (candidates.length === 0) return 0;
    const referenced = await this.metastore.blocks.objectKeys();
    let removed = 0;
    for (const key of candidates) {
      if (referenced.has(key)) continue;
      await this.objects.delete(key);
      removed++;
    }
    if (removed > 0)
      this.logger.log(`removed ${removed} unreferenced block objects older than ${minAgeMs} ms`);
    return removed;
  }
}

/** Merging waits this long past the end of a span for late rows before it stops waiting for a full run. */
const SETTLE_MS = 60_000;

/** The span a block lies in, or null when it straddles spans. */
function spanOfBlock(block: BlockRecord, spanMs: number): number | null {
  const span = spanOf(block.minTime, spanMs);
  return spanOf(block.maxTime, spanMs) === span ? span : null;
}
