import { Logger } from '@nestjs/common';
import type { BlockRecord } from '@quarry/contracts';
import type { CatalogVersions, DatasetRecord, Metastore, MetricBlockRecord } from '@quarry/metastore';
import type { MetricsStore } from '@quarry/metrics-store';
import type { BlockIndex } from '../storage/block-index';
import type { DatasetRegistry } from '../storage/dataset-registry';
import type { TailBuffer } from '../storage/tail-buffer';
import { METRICS_PARTITION } from '../metrics/metrics-runtime';

/** The in-memory state a cluster node keeps of the shared catalog; absent parts are not kept. */
export interface CatalogTargets {
  registry: DatasetRegistry;
  /** Event blocks per dataset (query nodes, and compactors for the merger). */
  blocks: BlockIndex | null;
  /** The tail of uncompacted events (query nodes): dropped through the committed offsets. */
  tail: TailBuffer | null;
  /** Metric blocks and tail (query nodes, and compactors for metric merges). */
  metrics: MetricsStore | null;
  /** Called with the object keys of blocks that left the index (cached columns can go). */
  forgetObjects?: (objectKeys: readonly string[]) => void;
}

interface Snapshot {
  datasetsEpoch: number;
  datasets: DatasetRecord[] | null;
  blockVersions: Map<string, number>;
  blocks: Map<string, BlockRecord[]>;
  committed: Map<number, number>;
  metricVersions: Map<string, number>;
  metricBlocks: Map<string, MetricBlockRecord[]>;
  metricsCommitted: number;
}

/**
 * Keeps a cluster node's copy of the catalog — datasets, block lists, committed log offsets — equal to
 * a recent snapshot of the metastore. Each refresh reads version counters and offsets in ONE
 * repeatable-read transaction, reloads only the datasets whose counters moved, and applies everything
 * in one synchronous step. Because blocks and the committed offsets come from one snapshot, and the
 * tail keeps every record at or above those offsets, a query sees each acknowledged event exactly once
 * (docs/adr/0005). Refreshes never overlap, so an applied snapshot is never older than the one before.
 */
export class CatalogSync {
  private readonly logger = new Logger('catalog');
  private datasetsEpoch = -1;
  private readonly blockVersions = new Map<string, number>();
  private readonly metricVersions = new Map<string, number>();
  /** Events log: next offset to compact per partition, as of the applied snapshot. */
  readonly committed = new Map<number, number>();
  /** Metrics log: the same for its one partition. */
  metricsCommitted = 0;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Refreshes applied, and when the last one completed (for /metrics). */
  readonly totals = { refreshes: 0, unchanged: 0, failures: 0, lastRefreshMs: 0 };

  constructor(
    private readonly metastore: Metastore,
    private readonly targets: CatalogTargets,
  ) {}

  /**
   * Resolves once a refresh that STARTED after this call has been applied, so the caller sees every
   * change committed before it called. Concurrent callers share refreshes: at most one runs and one
   * waits behind it.
   */
  refresh(): Promise<void> {
    if (this.running === null) {
      this.running = this.runOnce().finally(() => (this.running = null));
      return this.running;
    }
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.refresh();
      });
    return this.next;
  }

  /** Refreshes every `intervalMs` in the background (failures are logged and retried next time). */
  start(intervalMs: number): void {
    const tick = () => {
      this.refresh()
        .catch((err) => this.logger.warn(`catalog refresh failed: ${(err as Error).message}`))
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    await this.next?.catch(() => undefined);
  }

  private async runOnce(): Promise<void> {
    let snapshot: Snapshot;
    try {
      // Usually nothing changed: one statement says so. Otherwise the changes are read in a snapshot.
      if (this.totals.refreshes > 0 && this.isCurrent(await this.metastore.cluster.catalogVersions())) {
        this.totals.refreshes++;
        this.totals.unchanged++;
        this.totals.lastRefreshMs = Date.now();
        return;
      }
      snapshot = await this.read();
    } catch (err) {
      this.totals.failures++;
      throw err;
    }
    this.apply(snapshot);
    this.totals.refreshes++;
    this.totals.lastRefreshMs = Date.now();
  }

  /** True when `versions` describes exactly what this copy holds. */
  private isCurrent(versions: CatalogVersions): boolean {
    if (versions.datasetsEpoch !== this.datasetsEpoch) return false;
    for (const [partition, offset] of versions.committed)
      if ((this.committed.get(partition) ?? 0) !== offset) return false;
    if (this.targets.blocks !== null && changedIds(versions.blockVersions, this.blockVersions).length > 0)
      return false;
    if (this.targets.metrics !== null) {
      if (versions.metricsCommitted !== this.metricsCommitted) return false;
      if (changedIds(versions.metricBlockVersions, this.metricVersions).length > 0) return false;
    }
    return true;
  }

  private read(): Promise<Snapshot> {
    const { blocks, metrics } = this.targets;
    return this.metastore.snapshot(async (tx) => {
      const datasetsEpoch = await tx.cluster.datasetsEpoch();
      const datasets = datasetsEpoch !== this.datasetsEpoch ? await tx.datasets.list() : null;
      const snapshot: Snapshot = {
        datasetsEpoch,
        datasets,
        blockVersions: new Map(),
        blocks: new Map(),
        committed: await tx.blocks.committedOffsets(),
        metricVersions: new Map(),
        metricBlocks: new Map(),
        metricsCommitted: 0,
      };
      if (blocks !== null) {
        snapshot.blockVersions = await tx.blocks.blockVersions();
        snapshot.blocks = await tx.blocks.listBlocksOf(
          changedIds(snapshot.blockVersions, this.blockVersions),
        );
      }
      if (metrics !== null) {
        snapshot.metricVersions = await tx.metricSeries.blockVersions();
        snapshot.metricBlocks = await tx.metricSeries.listBlocksOf(
          changedIds(snapshot.metricVersions, this.metricVersions),
        );
        snapshot.metricsCommitted = await tx.metricSeries.committedOffset();
      }
      return snapshot;
    });
  }

  /** Synchronous: a query's snapshot of index and tail sees all of this refresh or none of it. */
  private apply(snapshot: Snapshot): void {
    const { registry, blocks, tail, metrics } = this.targets;
    const forgotten: string[] = [];
    if (snapshot.datasets !== null) {
      const before = registry.list();
      registry.replaceAll(snapshot.datasets);
      const live = new Set(snapshot.datasets.map((d) => d.id));
      for (const dataset of before) {
        if (live.has(dataset.id)) continue;
        for (const block of blocks?.list(dataset.id) ?? []) forgotten.push(block.objectKey);
        blocks?.dropDataset(dataset.id);
        tail?.dropDataset(dataset.id);
        metrics?.forgetDataset(dataset.id);
      }
      this.datasetsEpoch = snapshot.datasetsEpoch;
    }
    if (blocks !== null) {
      for (const [datasetId, list] of snapshot.blocks) {
        const kept = new Set(list.map((b) => b.objectKey));
        for (const old of blocks.list(datasetId)) if (!kept.has(old.objectKey)) forgotten.push(old.objectKey);
        blocks.setDataset(datasetId, list);
      }
      for (const [datasetId, version] of snapshot.blockVersions) this.blockVersions.set(datasetId, version);
    }
    for (const [partition, offset] of snapshot.committed) {
      if (offset <= (this.committed.get(partition) ?? 0)) continue;
      this.committed.set(partition, offset);
      tail?.dropThrough(partition, offset - 1);
    }
    if (metrics !== null) {
      for (const [datasetId, list] of snapshot.metricBlocks) metrics.setBlocks(datasetId, list);
      for (const [datasetId, version] of snapshot.metricVersions) this.metricVersions.set(datasetId, version);
      if (snapshot.metricsCommitted > this.metricsCommitted) {
        this.metricsCommitted = snapshot.metricsCommitted;
        metrics.tail.dropThrough(snapshot.metricsCommitted - 1);
      }
    }
    if (forgotten.length > 0) this.targets.forgetObjects?.(forgotten);
  }

  /** Where a log follower starts: the committed offset of `partition` in the applied snapshot. */
  committedOffset(log: 'events' | 'metrics', partition: number): number {
    if (log === 'metrics') return partition === METRICS_PARTITION ? this.metricsCommitted : 0;
    return this.committed.get(partition) ?? 0;
  }
}

function changedIds(current: Map<string, number>, known: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [id, version] of current) if (known.get(id) !== version) out.push(id);
  return out;
}
