import { Logger } from '@nestjs/common';
import type { BlockRecord } from '@quarry/contracts';
import type { DatasetRecord, Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AsyncMutex } from './async-mutex';
import { BackgroundLoop } from './background-loop';
import { DeferredBlockDeletion } from './deferred-block-deletion';
import type { BlockIndex } from './block-index';

const DAY_MS = 86_400_000;

/** How the sweep shares its work with other processes (cluster) or not (embedded), as the merger does. */
export interface RetentionCoordination {
  /** Embedded: the in-memory block index is the truth and is updated with each drop. */
  applyLocally: boolean;
  /** Asked before each round: false skips it (cluster: another node holds the merge lease). */
  beforeRound?: () => Promise<boolean>;
  /** Cluster with regions: whether this cluster stores the dataset (another region's blocks are not ours). */
  sweepsDataset?: (dataset: DatasetRecord) => boolean;
}

export interface RetentionResult {
  blocks: number;
  events: number;
}

/**
 * The blocks a dataset's retention drops: those whose newest event is older than `retentionDays` before
 * `nowMs`. Block-granular like trim: a block straddling the cutoff is kept whole until its newest event is
 * past it. A dataset with no retention (0) keeps everything.
 */
export function blocksPastRetention(
  blocks: readonly BlockRecord[],
  retentionDays: number,
  nowMs: number,
): BlockRecord[] {
  if (!(retentionDays > 0)) return [];
  const cutoffMs = nowMs - retentionDays * DAY_MS;
  return blocks.filter((block) => block.maxTime < cutoffMs);
}

/**
 * Enforces `retentionDays` (`/v2/datasets`): every `QUARRY_RETENTION_INTERVAL_MS` the compactor drops,
 * dataset by dataset, the blocks past their retention — from the metastore (one transaction per dataset,
 * `swapBlocks` with nothing added, as trim does), then from the in-memory index in one synchronous step,
 * so a query sees the blocks or not, never half. Their objects are deleted after a grace period, as the
 * merger's are (a query in flight may still read them); a restart in between leaves them to the orphan
 * sweep. Retention values are read from the metastore each round, so a change through `/v2` applies at
 * the next round on every node.
 *
 * Events still in the log tail (not yet in a block) are dropped once the compactor has written them to
 * a block, at a later round: retention bounds what is stored, not what a query can see within minutes.
 */
export class RetentionSweeper {
  private readonly logger = new Logger('retention');
  private readonly loop = new BackgroundLoop('retention sweep', this.logger, () => this.sweep());
  private readonly deletions: DeferredBlockDeletion;
  private stopping = false;
  /** Since start, for /metrics (`quarry_retention_blocks_deleted_total`). */
  readonly totals: RetentionResult = { blocks: 0, events: 0 };

  constructor(
    private readonly metastore: Metastore,
    objects: ObjectStore,
    private readonly blocks: BlockIndex,
    private readonly lock: AsyncMutex,
    forget: (objectKey: string) => void,
    private readonly coordination: RetentionCoordination = { applyLocally: true },
    deleteGraceMs = 60_000,
  ) {
    this.deletions = new DeferredBlockDeletion(
      objects,
      forget,
      this.logger,
      deleteGraceMs,
      'block past its retention',
    );
  }

  start(intervalMs: number): void {
    this.stopping = false;
    this.loop.start(intervalMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    this.deletions.cancelAll();
  }

  /** One round over every dataset with a retention; what it dropped. */
  async sweep(nowMs = Date.now()): Promise<RetentionResult> {
    const total: RetentionResult = { blocks: 0, events: 0 };
    if (this.coordination.beforeRound && !(await this.coordination.beforeRound())) return total;
    for (const dataset of await this.metastore.datasets.list()) {
      if (this.stopping) break;
      if (!(dataset.retentionDays > 0)) continue;
      if (this.coordination.sweepsDataset && !this.coordination.sweepsDataset(dataset)) continue;
      const dropped = await this.sweepDataset(dataset, nowMs);
      if (dropped.length === 0) continue;
      const events = dropped.reduce((sum, b) => sum + b.rowCount, 0);
      total.blocks += dropped.length;
      total.events += events;
      this.logger.log(
        `dropped ${dropped.length} blocks (${events} events) of dataset "${dataset.name}" older than ${dataset.retentionDays} days`,
      );
    }
    this.totals.blocks += total.blocks;
    this.totals.events += total.events;
    return total;
  }

  private async sweepDataset(dataset: DatasetRecord, nowMs: number): Promise<BlockRecord[]> {
    const removed = await this.lock.run(async () => {
      // Embedded: the index is the truth. Cluster: the metastore's list (this node's index may lag).
      const current = this.coordination.applyLocally
        ? this.blocks.list(dataset.id)
        : await this.metastore.blocks.listBlocks(dataset.id);
      const doomed = blocksPastRetention(current, dataset.retentionDays, nowMs);
      if (doomed.length === 0) return [];
      // Without requireAll: a block another process removed meanwhile (a merge, a trim) is simply skipped.
      const gone = await this.metastore.blocks.swapBlocks(
        doomed.map((b) => b.id),
        [],
      );
      if (this.coordination.applyLocally)
        this.blocks.replace(
          dataset.id,
          gone.map((b) => b.id),
          [],
        );
      return gone;
    });
    this.deletions.schedule(removed.map((b) => b.objectKey));
    return removed;
  }
}
