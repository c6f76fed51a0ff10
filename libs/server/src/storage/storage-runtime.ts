import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { unavailable } from '@quarry/common';
import { FileSegmentLog, type IngestLog } from '@quarry/log';
import { Metastore, PgDatabase } from '@quarry/metastore';
import { FsObjectStore, type ObjectStore } from '@quarry/objstore';
import type { QuarryConfig } from '../config/config';
import { MetricsRuntime } from '../metrics/metrics-runtime';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { BlockMerger, DEFAULT_MERGE_POLICY } from './block-merger';
import { Compactor, DEFAULT_SPANS } from './compactor';
import { DatasetRegistry } from './dataset-registry';
import { DataDirLock } from './data-dir-lock';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';
import { CpuPool } from '../workers/cpu-pool';
import { QueryPool } from '../workers/query-pool';
import { WorkerAggregateOffload } from '../query/worker-aggregate-offload';
import type { AggregateOffload } from '@quarry/query-exec';

/**
 * Opens the embedded adapters behind the storage ports (segment log, local directory, PGlite) and the
 * in-memory state built on them, and replays the uncompacted log. `ready` stays false until replay is done;
 * ingest answers 503 until then, so nothing is acknowledged that a replay could lose.
 */
export class StorageRuntime {
  private readonly logger = new Logger('storage');
  ready = false;

  private constructor(
    readonly config: QuarryConfig,
    readonly metastore: Metastore,
    readonly log: IngestLog,
    readonly objects: ObjectStore,
    readonly registry: DatasetRegistry,
    readonly blocks: BlockIndex,
    readonly tail: TailBuffer,
    readonly lock: AsyncMutex,
    readonly compactor: Compactor,
    readonly catalog: StorageCatalog,
    private readonly lockFile: DataDirLock,
    readonly metrics: MetricsRuntime,
    readonly merger: BlockMerger,
    readonly cpu: CpuPool,
    private readonly queryPool: QueryPool | null,
    /** Splits large summarizes across the query workers; undefined = everything on the main thread. */
    readonly queryOffload: AggregateOffload | undefined,
  ) {}

  static async open(config: QuarryConfig): Promise<StorageRuntime> {
    const cpu = CpuPool.create(config.workerThreads);
    try {
      return await StorageRuntime.openWith(config, cpu);
    } catch (err) {
      await cpu.close();
      throw err;
    }
  }

  private static async openWith(config: QuarryConfig, cpu: CpuPool): Promise<StorageRuntime> {
    await fs.mkdir(config.dataDir, { recursive: true });
    const lockFile = DataDirLock.acquire(config.dataDir);
    // Cluster shape: a PostgreSQL server; standalone: PGlite embedded in the data directory.
    const metastore = config.metastoreUrl
      ? await Metastore.over(await PgDatabase.connect(config.metastoreUrl))
      : await Metastore.open(path.join(config.dataDir, 'meta'));
    const log = await FileSegmentLog.open(path.join(config.dataDir, 'log'));
    const objectsDir = path.join(config.dataDir, 'objects');
    const objects = await FsObjectStore.open(objectsDir);
    const registry = await DatasetRegistry.load(metastore);
    const blocks = new BlockIndex();
    for (const dataset of registry.list()) blocks.load(await metastore.blocks.listBlocks(dataset.id));
    const tail = new TailBuffer();
    const lock = new AsyncMutex();
    const compactor = new Compactor(log, objects, metastore, registry, blocks, tail, lock, cpu, {
      ...DEFAULT_SPANS,
      spanMs: config.blockSpanMs,
    });
    // With query workers, half the column cache is the main thread's and the workers share the rest.
    const queryWorkers = config.roles.includes('query') ? config.queryWorkers : 0;
    const catalog = new StorageCatalog(registry, blocks, tail, objects, metastore, {
      columnCacheBytes: queryWorkers > 0 ? Math.floor(config.columnCacheBytes / 2) : config.columnCacheBytes,
      fileCacheBytes: 128 * 1024 * 1024,
    });
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
    const metrics = await MetricsRuntime.open(
      { dataDir: config.dataDir, maxPointsPerQuery: config.metricsMaxQueryPoints },
      metastore,
      objects,
      (datasetId) => registry.getById(datasetId) !== undefined,
    );
    // Threads last: nothing after this can fail and leave them running.
    const queryPool = queryWorkers > 0 ? new QueryPool(queryWorkers, config.queryWorkerHeapMb) : null;
    const queryOffload =
      queryPool === null
        ? undefined
        : new WorkerAggregateOffload(
            queryPool,
            {
              objectsDir,
              // Within half the worker's heap, so the cache alone can never exhaust it.
              columnCacheBytes: Math.min(
                Math.floor(config.columnCacheBytes / 2 / queryWorkers),
                (config.queryWorkerHeapMb * 1024 * 1024) / 2,
              ),
              fileCacheBytes: 64 * 1024 * 1024,
            },
            config.querySplitMinRows,
            { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows },
          );
    return new StorageRuntime(
      config,
      metastore,
      log,
      objects,
      registry,
      blocks,
      tail,
      lock,
      compactor,
      catalog,
      lockFile,
      metrics,
      merger,
      cpu,
      queryPool,
      queryOffload,
    );
  }

  /** Replays the log tail, then starts background compaction if this process runs the compactor role. */
  async start(): Promise<void> {
    const started = Date.now();
    const replayed = await this.compactor.replay();
    const replayedPoints = await this.metrics.replay();
    this.ready = true;
    this.logger.log(
      `replayed ${replayed} uncompacted events and ${replayedPoints} metric points in ${Date.now() - started} ms`,
    );
    if (this.config.roles.includes('compactor')) {
      // Only the compactor writes block objects, so only it may sweep the unreferenced ones.
      await this.merger.sweepOrphans();
      this.compactor.start(this.config.compactIntervalMs, this.config.compactMaxTailRows);
      this.merger.start(this.config.mergeIntervalMs);
      this.metrics.start(this.config.metricsCompactIntervalMs);
    }
  }

  /** Summarizes split across the query workers since start. */
  get querySplits(): number {
    return this.queryOffload instanceof WorkerAggregateOffload ? this.queryOffload.splits : 0;
  }

  assertReady(): void {
    if (!this.ready)
      throw unavailable('the server is starting (replaying the ingest log); retry shortly', {
        retryAfterSeconds: 1,
      });
    const log = this.log.stats();
    if (log.failed) {
      throw unavailable(
        `the ingest log failed and stopped accepting writes: ${log.failure ?? 'unknown error'}`,
        {
          retryAfterSeconds: 30,
        },
      );
    }
  }

  async close(): Promise<void> {
    await this.merger.stop();
    await this.compactor.stop();
    await this.metrics.close();
    await this.log.close();
    await this.cpu.close();
    await this.queryPool?.close();
    await this.metastore.close();
    this.lockFile.release();
  }
}
