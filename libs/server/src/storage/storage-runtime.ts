import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { notFound, unavailable } from '@quarry/common';
import { FileSegmentLog, type IngestLog } from '@quarry/log';
import { Metastore, PgDatabase, type DatasetRecord } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AggregateOffload } from '@quarry/query-exec';
import type { QuarryConfig } from '../config/config';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { BlockMerger, DEFAULT_MERGE_POLICY } from './block-merger';
import { Compactor, DEFAULT_SPANS } from './compactor';
import { DatasetRegistry } from './dataset-registry';
import { DataDirLock } from './data-dir-lock';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';
import { summarizeLogRecord } from './log-codec';
import { openObjectStore, type ObjectStoreSpec } from './object-store-spec';
import { CpuPool } from '../workers/cpu-pool';
import { QueryPool } from '../workers/query-pool';
import { WorkerAggregateOffload } from '../query/worker-aggregate-offload';
import { CatalogSync } from '../cluster/catalog-sync';
import { Lease } from '../cluster/lease';
import { LogFollower } from '../cluster/log-follower';
import { openKafkaLog } from '../cluster/kafka-logs';
import { PartitionOwnership } from '../cluster/partition-ownership';
import { METRICS_PARTITION, MetricsRuntime } from '../metrics/metrics-runtime';
import type { KafkaIngestLog } from '@quarry/log';

/** The parts a process opened for its roles (absent parts are null). */
interface StorageParts {
  metastore: Metastore;
  /** Where ingest appends events (embedded: the segment log, which the compactor also reads). */
  log: IngestLog | null;
  objects: ObjectStore;
  objectsSpec: ObjectStoreSpec;
  registry: DatasetRegistry;
  blocks: BlockIndex;
  tail: TailBuffer;
  lock: AsyncMutex;
  compactor: Compactor | null;
  catalog: StorageCatalog;
  lockFile: DataDirLock;
  metrics: MetricsRuntime;
  merger: BlockMerger | null;
  cpu: CpuPool;
  queryPool: QueryPool | null;
  queryOffload: AggregateOffload | undefined;
  /** Cluster only. */
  sync: CatalogSync | null;
  followers: { events: LogFollower; metrics: LogFollower } | null;
  lease: Lease | null;
  ownership: PartitionOwnership | null;
  /** Every Kafka client this process opened (closed on shutdown). */
  kafkaLogs: KafkaIngestLog[];
  /** Other things to close, in order. */
  closers: (() => Promise<void>)[];
}

const MERGE_LEASE = 'merger';
const MERGE_LEASE_MS = 30_000;
const ORPHAN_SWEEP_EVERY_MS = 10 * 60_000;

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
  readonly cpu: CpuPool;
  /** Splits large summarizes across the query workers; undefined = everything on the main thread. */
  readonly queryOffload: AggregateOffload | undefined;
  readonly sync: CatalogSync | null;
  readonly followers: { events: LogFollower; metrics: LogFollower } | null;

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
    this.queryOffload = parts.queryOffload;
    this.sync = parts.sync;
    this.followers = parts.followers;
  }

  static async open(config: QuarryConfig): Promise<StorageRuntime> {
    const cpu = CpuPool.create(
      config.roles.some((r) => r === 'ingest' || r === 'compactor') ? config.workerThreads : 0,
    );
    const closers: (() => Promise<void>)[] = [];
    try {
      const parts =
        config.shape === 'cluster'
          ? await StorageRuntime.openCluster(config, cpu, closers)
          : await StorageRuntime.openEmbedded(config, cpu, closers);
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

  private static async openEmbedded(
    config: QuarryConfig,
    cpu: CpuPool,
    closers: (() => Promise<void>)[],
  ): Promise<StorageParts> {
    await fs.mkdir(config.dataDir, { recursive: true });
    const lockFile = DataDirLock.acquire(config.dataDir);
    closers.push(async () => lockFile.release());
    // PostgreSQL server when given; else PGlite embedded in the data directory.
    const metastore = config.metastoreUrl
      ? await Metastore.over(await PgDatabase.connect(config.metastoreUrl))
      : await Metastore.open(path.join(config.dataDir, 'meta'));
    closers.push(() => metastore.close());
    const log = await FileSegmentLog.open(path.join(config.dataDir, 'log'));
    closers.push(() => log.close());
    const objectsSpec: ObjectStoreSpec = { kind: 'fs', dir: path.join(config.dataDir, 'objects') };
    const objects = await openObjectStore(objectsSpec);
    const registry = await DatasetRegistry.load(metastore);
    const blocks = new BlockIndex();
    for (const dataset of registry.list()) blocks.load(await metastore.blocks.listBlocks(dataset.id));
    const tail = new TailBuffer();
    const lock = new AsyncMutex();
    const compactor = new Compactor(log, objects, metastore, registry, blocks, tail, lock, cpu, {
      spans: { ...DEFAULT_SPANS, spanMs: config.blockSpanMs },
      applyLocally: true,
    });
    const catalog = StorageRuntime.catalogFor(config, registry, blocks, tail, objects, metastore, false);
    const merger = new BlockMerger(
      metastore,
      objects,
      registry,
      blocks,
      lock,
      (key) => catalog.forgetBlock(key),
      cpu,
      { ...DEFAULT_MERGE_POLICY, spanMs: config.blockSpanMs },
    );
    const metricsLog = await FileSegmentLog.open(path.join(config.dataDir, 'metrics-log'));
    closers.push(() => metricsLog.close());
    const metrics = await MetricsRuntime.open(
      {
        maxPointsPerQuery: config.metricsMaxQueryPoints,
        appendLog: metricsLog,
        compactionLog: metricsLog,
        applyLocally: true,
      },
      metastore,
      objects,
      (datasetId) => registry.getById(datasetId) !== undefined,
    );
    return {
      ...StorageRuntime.queryWorkers(config, objectsSpec, false),
      ...{ metastore, log, objects, objectsSpec, registry, blocks, tail, lock, compactor, catalog },
      ...{ lockFile, metrics, merger, cpu, closers },
      ...{ sync: null, followers: null, lease: null, ownership: null, kafkaLogs: [] },
    };
  }

  private static async openCluster(
    config: QuarryConfig,
    cpu: CpuPool,
    closers: (() => Promise<void>)[],
  ): Promise<StorageParts> {
    const kafka = config.kafka!;
    const roles = new Set(config.roles);
    const queries = roles.has('query');
    const compacts = roles.has('compactor');
    await fs.mkdir(config.dataDir, { recursive: true });
    const lockFile = DataDirLock.acquire(config.dataDir);
    closers.push(async () => lockFile.release());
    const metastore = await Metastore.over(await PgDatabase.connect(config.metastoreUrl!));
    closers.push(() => metastore.close());
    const objectsSpec: ObjectStoreSpec = {
      kind: 's3',
      s3: config.s3!,
      // Query nodes keep what they fetched: blocks are immutable.
      cache: queries
        ? { dir: path.join(config.dataDir, 'object-cache', 'main'), maxBytes: config.objectCacheBytes }
        : undefined,
    };
    const objects = await openObjectStore(objectsSpec);
    const registry = await DatasetRegistry.load(metastore);
    const blocks = new BlockIndex();
    const tail = new TailBuffer();
    const lock = new AsyncMutex();
    const kafkaLogs: KafkaIngestLog[] = [];
    const open = async (log: 'events' | 'metrics', use: 'append' | 'compact' | 'follow') => {
      const opened = await openKafkaLog(kafka, log, use, config.nodeId);
      kafkaLogs.push(opened);
      closers.push(() => opened.close());
      return opened;
    };
    const appendLog = roles.has('ingest') ? await open('events', 'append') : null;
    const appendMetrics = roles.has('ingest') ? await open('metrics', 'append') : null;
    const compactLog = compacts ? await open('events', 'compact') : null;
    const compactMetrics = compacts ? await open('metrics', 'compact') : null;

    const lease = compacts ? new Lease(metastore, MERGE_LEASE, config.nodeId, MERGE_LEASE_MS) : null;
    // Compactors split the partitions of both logs among themselves through leases.
    let ownership: PartitionOwnership | null = null;
    if (compactLog !== null && compactMetrics !== null) {
      const partitionsOf = (log: KafkaIngestLog) => Array.from({ length: log.partitionTotal }, (_, p) => p);
      ownership = new PartitionOwnership(
        metastore,
        config.nodeId,
        () =>
          new Map([
            ['events', partitionsOf(compactLog)],
            ['metrics', [METRICS_PARTITION]],
          ]),
        config.compactorLeaseMs,
        (log, owned) => {
          if (log === 'events') {
            compactLog.restrictTo(owned);
            compactor?.forgetPartitions();
          } else compactMetrics.restrictTo(owned);
        },
      );
      // Nothing is compacted before the first round has decided who owns what.
      compactLog.restrictTo([]);
      compactMetrics.restrictTo([]);
    }
    let sync: CatalogSync | null = null;
    // The merger and metric merges run on the lease holder, over block lists refreshed just before.
    let merger: BlockMerger | null = null;
    let lastSweepMs = Date.now();
    const mayMerge = async () => {
      if (lease === null || !(await lease.hold())) return false;
      await sync!.refresh();
      // The orphan sweep is the lease holder's too, now and then.
      if (merger !== null && Date.now() - lastSweepMs >= ORPHAN_SWEEP_EVERY_MS) {
        lastSweepMs = Date.now();
        await merger.sweepOldOrphans(config.orphanMinAgeMs);
      }
      return true;
    };
    const metrics = await MetricsRuntime.open(
      {
        maxPointsPerQuery: config.metricsMaxQueryPoints,
        appendLog: appendMetrics,
        compactionLog: compactMetrics,
        applyLocally: false,
        refreshCatalog: () => sync!.refresh(),
        ownsPartition: () => ownership?.ownedOf('metrics').includes(METRICS_PARTITION) ?? false,
      },
      metastore,
      objects,
      (datasetId) => registry.getById(datasetId) !== undefined,
      mayMerge,
    );
    const catalog = StorageRuntime.catalogFor(config, registry, blocks, tail, objects, metastore, true);
    sync = new CatalogSync(metastore, {
      registry,
      blocks: queries || compacts ? blocks : null,
      tail: queries ? tail : null,
      metrics: queries || compacts ? metrics.store : null,
      forgetObjects: (keys) => keys.forEach((key) => catalog.forgetBlock(key)),
    });
    closers.push(() => sync!.stop());

    let compactor: Compactor | null = null;
    if (compactLog !== null) {
      compactor = new Compactor(compactLog, objects, metastore, registry, blocks, tail, lock, cpu, {
        spans: { ...DEFAULT_SPANS, spanMs: config.blockSpanMs },
        applyLocally: false,
        refreshCatalog: () => sync!.refresh(),
        partitions: () => ownership?.ownedOf('events') ?? [],
      });
      merger = new BlockMerger(
        metastore,
        objects,
        registry,
        blocks,
        lock,
        (key) => catalog.forgetBlock(key),
        cpu,
        { ...DEFAULT_MERGE_POLICY, spanMs: config.blockSpanMs },
        { applyLocally: false, beforeRound: mayMerge },
      );
    }

    let followers: StorageParts['followers'] = null;
    if (queries) {
      const eventsTail = await open('events', 'follow');
      const metricsTail = await open('metrics', 'follow');
      const syncRef = sync;
      // The metrics follower starts where the series catalog was loaded, and never skips: every record
      // after that point may hold a series the catalog has not seen.
      const metricsStart = metrics.store.loadedOffset;
      followers = {
        events: new LogFollower(
          'events',
          eventsTail,
          (partition) => syncRef.committedOffset('events', partition),
          (record) => tail.add(record, record.payload, summarizeLogRecord(record.payload)),
        ),
        metrics: new LogFollower(
          'metrics',
          metricsTail,
          () => metricsStart,
          (record) => metrics.follow(record.offset, record.payload),
        ),
      };
      const started = followers;
      closers.push(async () => {
        await started.events.stop();
        await started.metrics.stop();
      });
    }
    return {
      ...StorageRuntime.queryWorkers(config, objectsSpec, true),
      ...{
        metastore,
        log: appendLog,
        objects,
        objectsSpec,
        registry,
        blocks,
        tail,
        lock,
        compactor,
        catalog,
      },
      ...{ lockFile, metrics, merger, cpu, closers },
      ...{ sync, followers, lease, ownership, kafkaLogs },
    };
  }

  private static catalogFor(
    config: QuarryConfig,
    registry: DatasetRegistry,
    blocks: BlockIndex,
    tail: TailBuffer,
    objects: ObjectStore,
    metastore: Metastore,
    rangeReads: boolean,
  ): StorageCatalog {
    // With query workers, half the column cache is the main thread's and the workers share the rest.
    const queryWorkers = config.roles.includes('query') ? config.queryWorkers : 0;
    return new StorageCatalog(registry, blocks, tail, objects, metastore, {
      columnCacheBytes: queryWorkers > 0 ? Math.floor(config.columnCacheBytes / 2) : config.columnCacheBytes,
      fileCacheBytes: 128 * 1024 * 1024,
      rangeReads,
    });
  }

  private static queryWorkers(
    config: QuarryConfig,
    objects: ObjectStoreSpec,
    rangeReads: boolean,
  ): { queryPool: QueryPool | null; queryOffload: AggregateOffload | undefined } {
    const queryWorkers = config.roles.includes('query') ? config.queryWorkers : 0;
    if (queryWorkers === 0) return { queryPool: null, queryOffload: undefined };
    // Threads last: nothing after this can fail and leave them running.
    const queryPool = new QueryPool(queryWorkers, config.queryWorkerHeapMb);
    const queryOffload = new WorkerAggregateOffload(
      queryPool,
      {
        objects,
        // Within half the worker's heap, so the cache alone can never exhaust it.
        columnCacheBytes: Math.min(
          Math.floor(config.columnCacheBytes / 2 / queryWorkers),
          (config.queryWorkerHeapMb * 1024 * 1024) / 2,
        ),
        fileCacheBytes: 64 * 1024 * 1024,
        rangeReads,
      },
      config.querySplitMinRows,
      { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows },
    );
    return { queryPool, queryOffload };
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
    this.followers?.events.start();
    this.followers?.metrics.start();
    if (this.compactor !== null) {
      await this.parts.ownership?.start();
      this.compactor.start(this.config.compactIntervalMs, this.config.compactMaxTailRows);
      this.merger!.start(this.config.mergeIntervalMs);
      this.metrics.start(this.config.metricsCompactIntervalMs);
    }
    this.ready = true;
    this.logger.log(`cluster node ${this.config.nodeId} (${this.config.roles.join(', ')}) is ready`);
  }

  /** Summarizes split across the query workers since start. */
  get querySplits(): number {
    return this.queryOffload instanceof WorkerAggregateOffload ? this.queryOffload.splits : 0;
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
    await this.merger?.stop();
    await this.compactor?.stop();
    await this.metrics.close();
    // Leases back at once: the other compactors take the partitions over without waiting for expiry.
    await this.parts.ownership?.stop();
    await this.parts.lease?.release();
    for (const close of [...this.parts.closers].reverse())
      await close().catch((err) => this.logger.warn(`close: ${(err as Error).message}`));
    await this.cpu.close();
    await this.parts.queryPool?.close();
  }
}
