import type { BlockRecord, DatasetSource } from '@quarry/contracts';
import type { AggregateOffload, QueryLimits, RemotePartial } from '@quarry/query-exec';
import type { AggregateNode, ScanNode } from '@quarry/query-plan';
import { partsOf } from '../storage/part-scan';
import type { TailEntry } from '../storage/tail-buffer';
import { PartsSource, StoredDatasetSource } from '../storage/storage-catalog';
import type { QueryPool } from '../workers/query-pool';
import { shareCancellation } from '../workers/shared-cancel';
import type { QueryWorkerConfig } from '../workers/query-tasks';

/**
 * Splits a large summarize across the query worker threads: the blocks it scans are dealt to the
 * workers (each block always to the same one, so their caches do not overlap), each answers a partial
 * state, and the main thread reads the un-compacted tail itself, then merges. Blocks and tail come from
 * one snapshot, so every row is read exactly once even if compaction swaps blocks meanwhile (merged-away
 * objects outlive the query by the merger's grace period).
 */
export class WorkerAggregateOffload implements AggregateOffload {
  /** Summarizes split so far. */
  splits = 0;

  constructor(
    private readonly pool: QueryPool,
    private readonly config: QueryWorkerConfig,
    /** Fewer block rows than this in the window: not worth the round trip. */
    private readonly minRows: number,
    private readonly limits: Partial<QueryLimits>,
  ) {}

  split(
    node: AggregateNode,
    scan: ScanNode,
    source: DatasetSource,
    signal?: AbortSignal,
  ): { remote: Promise<RemotePartial[]>; local: DatasetSource } | null {
    if (!(source instanceof StoredDatasetSource) || this.pool.size === 0) return null;
    const { inWindow, rows, tail } = snapshotInWindow(source, scan);
    if (inWindow.length < 2 || rows < this.minRows) return null;
    this.splits++;
    const remote = this.aggregateBlocks(node, scan.dataset, inWindow, signal);
    return { remote, local: new PartsSource(source, partsOf([], tail)) };
  }

  /**
   * Partial states of `node` over exactly `blocks` of `dataset`, on the worker threads (each block on
   * its shard). What another query node asks of this one (`ClusterAggregateOffload`). An abort of
   * `signal` stops every thread's scan at its next block.
   */
  aggregateBlocks(
    node: AggregateNode,
    dataset: string,
    blocks: readonly BlockRecord[],
    signal?: AbortSignal,
  ): Promise<RemotePartial[]> {
    const shards = dealBlocks(blocks, this.pool.size);
    const cancel = shareCancellation(signal);
    return Promise.all(
      shards.flatMap((shardBlocks, shard) =>
        shardBlocks.length === 0
          ? []
          : [
              this.pool.aggregate(shard, {
                config: this.config,
                node,
                dataset,
                blocks: shardBlocks,
                limits: this.limits,
                cancel,
              }),
            ],
      ),
    );
  }
}

/**
 * One snapshot of a stored dataset for a split: the blocks overlapping the scan's window (and their
 * rows), and the tail, which the splitting thread reads itself.
 */
export function snapshotInWindow(
  source: StoredDatasetSource,
  scan: ScanNode,
): { inWindow: BlockRecord[]; rows: number; tail: readonly TailEntry[] } {
  const { blocks, tail } = source.catalog.snapshot(source.datasetId);
  const inWindow = blocks.filter((b) => b.maxTime >= scan.startMs && b.minTime < scan.endMs);
  let rows = 0;
  for (const b of inWindow) rows += b.rowCount;
  return { inWindow, rows, tail };
}

/**
 * Deals blocks to `n` shards: each block goes to its preferred shard (by default a hash of its object
 * key, so the same block lands on the same worker query after query), except that a shard already
 * holding more than its share of rows passes the block to the least loaded one.
 */
export function dealBlocks(
  blocks: readonly BlockRecord[],
  n: number,
  preferredShard: (block: BlockRecord) => number = (block) => hashKey(block.objectKey) % n,
): BlockRecord[][] {
  const shards: BlockRecord[][] = Array.from({ length: n }, () => []);
  const load = new Array<number>(n).fill(0);
  let total = 0;
  for (const b of blocks) total += b.rowCount;
  const fair = total / n;
  const ordered = [...blocks].sort(
    (a, b) => b.rowCount - a.rowCount || (a.objectKey < b.objectKey ? -1 : a.objectKey > b.objectKey ? 1 : 0),
  );
  for (const block of ordered) {
    let shard = preferredShard(block);
    if (load[shard] + block.rowCount > fair * 1.25) shard = load.indexOf(Math.min(...load));
    shards[shard].push(block);
    load[shard] += block.rowCount;
  }
  return shards;
}

/** FNV-1a of a string, as an unsigned 32-bit number. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
