import { Logger } from '@nestjs/common';
import { notFound, unavailable } from '@quarry/common';
import type { IngestLog } from '@quarry/log';
import type { DatasetRecord, Metastore, MetastoreMemory } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import { PartialAggregate, type AggregateOffload, type RemotePartial } from '@quarry/query-exec';
import type {
  AggregateShareRequest,
  MplShareRequest,
  RowsShare,
  RowsShareRequest,
} from '../cluster/query-rpc';
import {
  ClusterMplOffload,
  datasetIdsOf,
  seriesOwnedBy,
  type MplQueryRequest,
} from '../cluster/cluster-mpl-offload';
import type { ShareDispatch } from '../cluster/share-dispatch';
import { runMplPart, type MplFramePart, type MplOffload } from '@quarry/mpl';
import type { QuarryConfig } from '../config/config';
import type { MetricsRuntime } from '../metrics/metrics-runtime';
import type { AsyncMutex } from './async-mutex';
import type { BlockIndex } from './block-index';
import type { BlockMerger } from './block-merger';
import type { Compactor } from './compactor';
import type { DatasetRegistry } from './dataset-registry';
import { RetentionSweeper } from './retention';
import type { StorageCatalog } from './storage-catalog';
import type { TailBuffer } from './tail-buffer';

import type { StorageParts } from './storage-parts';
import { openEmbeddedStorage } from './open-embedded';
import { CpuPool } from '../workers/cpu-pool';
import type { ThreadMemory } from '../workers/thread-memory';
import { WorkerAggregateOffload } from '../query/worker-aggregate-offload';
import type { CatalogSync } from '../cluster/catalog-sync';
import type { LogFollower } from '../cluster/log-follower';
import type { Membership } from '../cluster/membership';
import { Regions } from '../cluster/regions';
import { ClusterAggregateOffload } from '../cluster/cluster-aggregate-offload';
import { openClusterStorage } from '../cluster/open-cluster';

/**
 * Opens the adapters behind the storage ports for this process's roles, and the in-memory state built on
 * them. Two shapes (docs/architecture.md):
 *
 * - **embedded** (the standalone server): a segment log, a local directory and PGlite (or PostgreSQL)
 *   in the data directory. This process's block index and tail are the truth; the log is replayed at
 *   start and `ready` stays false until then (ingest answers 503 meanwhile).
 * - **cluster**: Kafka topics, S3 and PostgreSQL shared by many processes. Each keeps a copy of the
 *   catalog refreshed from the metastore (`CatalogSync`); query nodes follow the topics into their tail
 *   (`LogFollower`); compactors consume their share of the partitions; the merger runs under a lease.
 */
export class StorageRuntime {
  private readonly logger = new Logger('storage');
  ready = false;

  readonly metastore: Metastore;
  readonly objects: ObjectStore;
  readonly registry: DatasetRegistry;
  readonly blocks: BlockIndex;
  readonly tail: TailBuffer;
  readonly lock: AsyncMutex;
  readonly compactor: Compactor | null;
  readonly catalog: StorageCatalog;
  readonly metrics: MetricsRuntime;
  readonly merger: BlockMerger | null;
  /** Drops blocks past their dataset's `retentionDays`; runs where the merger runs (the compactor role). */
  readonly retention: RetentionSweeper | null;
  readonly cpu: CpuPool;
  /** Splits large summarizes across the query workers; undefined = everything on the main thread. */
  readonly queryOffload: AggregateOffload | undefined;
  readonly sync: CatalogSync | null;
  readonly followers: { events: LogFollower; metrics: LogFollower } | null;
  /** Cluster: this node's registration and the live members (null for the embedded shape). */
  readonly membership: Membership | null;
  /** The installation's regions, and which datasets this cluster stores. */
  readonly regions: Regions;
  readonly startedAt = new Date().toISOString();

  private constructor(
    readonly config: QuarryConfig,
    private readonly parts: StorageParts,
  ) {
    this.metastore = parts.metastore;
    this.objects = parts.objects;
    this.registry = parts.registry;
    this.blocks = parts.blocks;
    this.tail = parts.tail;
    this.lock = parts.lock;
    this.compactor = parts.compactor;
    this.catalog = parts.catalog;
    this.metrics = parts.metrics;
    this.merger = parts.merger;
    this.cpu = parts.cpu;
    // Ingest parsing goes before compaction and merging on the CPU workers until the un-compacted records
    // pass QUARRY_COMPACT_DEFER_TAIL_BYTES; then compaction goes first until it has caught up. Standalone
    // only: there the tail holds exactly what is not compacted yet (a cluster node's tail follows topics).
    if (config.shape !== 'cluster' && config.compactDeferTailBytes > 0)
      this.cpu.backgroundDueWhen(() => this.tail.bytes >= config.compactDeferTailBytes);
    this.queryOffload = parts.queryOffload;
    this.sync = parts.sync;
    this.followers = parts.followers;
    this.membership = parts.membership;
    this.regions = new Regions(config);
    this.retention = this.retentionSweeper();
    // Blocks that leave the index (merged away, trimmed, their dataset deleted; in a cluster, seen gone by
    // the catalog sync) leave the query workers' caches at once, not when LRU pressure reaches them.
    const pool = parts.queryPool;
    if (pool !== null)
      parts.catalog.onForget((objectKeys) => {
        pool.forget(objectKeys).catch((err: unknown) => {
          this.logger.warn(`query workers could not drop cached blocks: ${(err as Error).message}`);
        });
      });
  }

  /**
   * What the worker threads hold, as each last reported it (`workers/thread-memory.ts`): the query
   * workers by shard (null before a worker's first report), the live ingest/compaction workers, and the
   * embedded metastore's thread (null with a PostgreSQL server).
   */
  threadMemory(): {
    query: Array<ThreadMemory | null>;
    cpu: ThreadMemory[];
    metastore: MetastoreMemory | null;
  } {
    return {
      query: this.parts.queryPool?.memory() ?? [],
      cpu: this.cpu.memory(),
      metastore: this.metastore.db.memory?.() ?? null,
    };
  }

  /**
   * The retention sweep wherever there is a merger (embedded; cluster compactor nodes). In the cluster it
   * runs, like the merger, only on the holder of the merge lease, over block lists read from the
   * metastore; the catalog sync then takes the dropped blocks out of every node's index.
   */
  private retentionSweeper(): RetentionSweeper | null {
    const parts = this.parts;
    if (parts.merger === null) return null;
    const forget = (key: string) => parts.catalog.forgetBlock(key);
    if (this.config.shape !== 'cluster')
      return new RetentionSweeper(parts.metastore, parts.objects, parts.blocks, parts.lock, forget);
    const { lease, sync } = parts;
    return new RetentionSweeper(parts.metastore, parts.objects, parts.blocks, parts.lock, forget, {
      applyLocally: false,
      beforeRound: async () => {
        if (lease === null || !(await lease.hold())) return false;
        await sync?.refresh();
        return true;
      },
      sweepsDataset: (dataset) => this.regions.isLocal(dataset),
    });
  }

  static async open(config: QuarryConfig): Promise<StorageRuntime> {
    const cpu = CpuPool.create(
      config.roles.some((r) => r === 'ingest' || r === 'compactor') ? config.workerThreads : 0,
    );
    const closers: (() => Promise<void>)[] = [];
    try {
      const parts =
        config.shape === 'cluster'
          ? await openClusterStorage(config, cpu, closers)
          : await openEmbeddedStorage(config, cpu, closers);
      return new StorageRuntime(config, parts);
    } catch (err) {
      for (const close of closers.reverse()) await close().catch(() => undefined);
      await cpu.close();
      throw err;
    }
  }

  /** The log ingest appends events to (null on nodes that do not ingest). */
  get log(): IngestLog {
    if (this.parts.log === null) throw unavailable('this node does not ingest', { code: 'role_not_served' });
    return this.parts.log;
  }

  /** The log ingest appends to, or null (for health and metrics). */
  get appendLog(): IngestLog | null {
    return this.parts.log;
  }

  get shape(): QuarryConfig['shape'] {
    return this.config.shape;
  }

  /**
   * Embedded: replays the log tail, then starts background compaction if this process runs the
   * compactor role. Cluster: the first catalog refresh, then the log followers and the compactor loops.
   */
  async start(): Promise<void> {
    if (this.config.shape === 'cluster') return this.startCluster();
    const started = Date.now();
    const replayed = await this.compactor!.replay();
    const replayedPoints = await this.metrics.replay();
    this.ready = true;
    this.logger.log(
      `replayed ${replayed} uncompacted events and ${replayedPoints} metric points in ${Date.now() - started} ms`,
    );
    if (this.config.roles.includes('compactor')) {
      // Only the compactor writes block objects, so only it may sweep the unreferenced ones.
      await this.merger!.sweepOrphans();
      this.compactor!.start(this.config.compactIntervalMs, this.config.compactMaxTailRows);
      this.merger!.start(this.config.mergeIntervalMs);
      this.retention?.start(this.config.retentionIntervalMs);
      this.metrics.start(this.config.metricsCompactIntervalMs);
    }
  }

  private async startCluster(): Promise<void> {
    const sync = this.sync!;
    // Retried until the metastore answers: /readyz says not ready meanwhile.
    for (let attempt = 1; ; attempt++) {
      try {
        await sync.refresh();
        break;
      } catch (err) {
        this.logger.warn(`first catalog refresh failed (attempt ${attempt}): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(5000, 200 * attempt)));
      }
    }
    sync.start(this.config.catalogRefreshMs);
    await this.membership?.start();
    this.followers?.events.start();
    this.followers?.metrics.start();
    if (this.compactor !== null) {
      await this.parts.ownership?.start();
      this.compactor.start(this.config.compactIntervalMs, this.config.compactMaxTailRows);
      this.merger!.start(this.config.mergeIntervalMs);
      this.retention?.start(this.config.retentionIntervalMs);
      this.metrics.start(this.config.metricsCompactIntervalMs);
    }
    this.ready = true;
    this.logger.log(`cluster node ${this.config.nodeId} (${this.config.roles.join(', ')}) is ready`);
  }

  /**
   * A share of a summarize another query node asked this one for (the internal RPC): the partial states
   * of the plan fragment over exactly those blocks, from this node's cache and object store.
   */
  async runAggregateShare(request: AggregateShareRequest, signal?: AbortSignal): Promise<RemotePartial[]> {
    const partials = await this.shareRunners().aggregate(
      request.node,
      request.dataset,
      request.blocks,
      signal,
    );
    // Worker threads move their big buffers here untrimmed; on the wire spare capacity would be bytes sent.
    return partials.map((p) => ({ ...p, state: PartialAggregate.trimmedState(p.state) }));
  }

  /** A share of a take or top another query node asked for: per block, the rows it keeps. */
  async runRowsShare(request: RowsShareRequest, signal?: AbortSignal): Promise<RowsShare> {
    return this.shareRunners().rows(request.node, request.dataset, request.blocks, signal);
  }

  private shareRunners(): NonNullable<StorageParts['shareRunners']> {
    const runners = this.parts.shareRunners;
    if (runners === null)
      throw unavailable('this node does not compute query shares', { code: 'role_not_served' });
    return runners;
  }

  /** Summarizes split across the query workers since start. */
  get querySplits(): number {
    const threads =
      this.queryOffload instanceof ClusterAggregateOffload ? this.queryOffload.local : this.queryOffload;
    return threads instanceof WorkerAggregateOffload ? threads.splits : 0;
  }

  /** Queries split across query nodes since start (cluster query nodes; zeros elsewhere). */
  get distributedTotals(): ShareDispatch['totals'] {
    return this.parts.distributed?.dispatch.totals ?? { splits: 0, remoteShares: 0, retries: 0 };
  }

  /**
   * Splits an MPL query over series across the live query nodes (cluster query nodes with a cluster
   * secret); undefined elsewhere: the query runs here.
   */
  mplOffloadFor(query: MplQueryRequest): MplOffload | undefined {
    const distributed = this.parts.distributed;
    if (distributed === null) return undefined;
    const store = this.metrics.store;
    return new ClusterMplOffload(
      distributed.dispatch,
      distributed.rpc,
      (request, signal) => this.computeMplShare(request, signal),
      query,
      (name, metric) => store.seriesCount(query.datasetIds[name] ?? '', metric),
      this.config.mplSplitMinSeries,
      this.config.queryRpcTimeoutMs,
    );
  }

  /** A share of an MPL query another query node asked for: first every acknowledged point, then the series. */
  async runMplShare(request: MplShareRequest, signal?: AbortSignal): Promise<MplFramePart> {
    if (this.parts.distributed === null)
      throw unavailable('this node does not compute query shares', { code: 'role_not_served' });
    await this.readYourWrites('metrics');
    return this.computeMplShare(request, signal);
  }

  private computeMplShare(request: MplShareRequest, signal?: AbortSignal): Promise<MplFramePart> {
    const source = this.metrics.store.sourceFor(datasetIdsOf(request));
    return runMplPart(
      request.mpl,
      {
        source,
        startSec: request.startSec,
        endSec: request.endSec,
        nowSec: request.nowSec,
        params: request.params,
        limits: request.limits,
        signal,
      },
      request.part,
      seriesOwnedBy(request.owner, request.members),
    );
  }

  /** Cluster nodes running the lease's work: whether this node holds the merge lease now. */
  get holdsMergeLease(): boolean {
    return this.parts.lease?.isHeld ?? false;
  }

  assertReady(): void {
    if (!this.ready)
      throw unavailable(
        this.config.shape === 'cluster'
          ? 'the node is starting (loading the catalog); retry shortly'
          : 'the server is starting (replaying the ingest log); retry shortly',
        { retryAfterSeconds: 1 },
      );
    const log = this.parts.log?.stats();
    if (log?.failed) {
      throw unavailable(
        `the ingest log failed and stopped accepting writes: ${log.failure ?? 'unknown error'}`,
        {
          retryAfterSeconds: 30,
        },
      );
    }
  }

  /**
   * Cluster: makes this node's catalog (datasets, blocks, committed offsets) at least as new as the
   * metastore was when the call was made. Embedded: nothing to do (this process is the truth).
   */
  async syncCatalog(): Promise<void> {
    await this.sync?.refresh();
  }

  /**
   * Read-your-writes before a query (cluster): waits until this node's tail holds every record the
   * log acknowledged before now (bounded by QUARRY_READ_YOUR_WRITES_TIMEOUT_MS; 503 past it). Embedded:
   * ingest adds to the tail before it answers, so there is nothing to wait for.
   */
  async readYourWrites(log: 'events' | 'metrics'): Promise<void> {
    if (this.followers === null) return;
    const follower = this.followers[log];
    await follower.catchUp(await follower.fetchEndOffsets(), this.config.readYourWritesTimeoutMs);
  }

  /** Cluster: refreshes the catalog once when `name` is not a known dataset (created by another node). */
  async refreshIfUnknown(name: string): Promise<void> {
    if (this.sync !== null && !this.registry.getByName(name)) await this.sync.refresh();
  }

  /** A dataset by name; on a miss a cluster node refreshes its catalog once (created by another node). */
  async resolveDataset(name: string): Promise<DatasetRecord> {
    let dataset = this.registry.getByName(name);
    if (!dataset && this.sync !== null) {
      await this.sync.refresh();
      dataset = this.registry.getByName(name);
    }
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return dataset;
  }

  /**
   * Compacts what the log holds now (trim and vacuum want old events in blocks first). Embedded: this
   * process's compactor. Cluster: the compactors run elsewhere; waits (bounded) until every partition is
   * committed up to the log's end as it was at the call.
   */
  async compactNow(timeoutMs = 30_000): Promise<void> {
    if (this.config.shape === 'embedded') {
      await this.compactor!.flush();
      return;
    }
    const ends = await this.endOffsets();
    if (ends === null) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const committed = await this.metastore.blocks.committedOffsets();
      if ([...ends].every(([p, end]) => (committed.get(p) ?? 0) >= end)) return;
      if (Date.now() > deadline) {
        throw unavailable(`the compactors did not catch up with the ingest log within ${timeoutMs} ms`, {
          code: 'compaction_behind',
          retryAfterSeconds: 5,
        });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async endOffsets(): Promise<Map<number, number> | null> {
    const log = this.parts.kafkaLogs[0];
    return log ? log.fetchEndOffsets() : null;
  }

  async close(): Promise<void> {
    this.ready = false;
    await this.retention?.stop();
    await this.merger?.stop();
    await this.compactor?.stop();
    await this.metrics.close();
    await this.membership?.stop();
    // Leases back at once: the other compactors take the partitions over without waiting for expiry.
    await this.parts.ownership?.stop();
    await this.parts.lease?.release();
    for (const close of [...this.parts.closers].reverse())
      await close().catch((err) => this.logger.warn(`close: ${(err as Error).message}`));
    await this.cpu.close();
    await this.parts.queryPool?.close();
  }
}
