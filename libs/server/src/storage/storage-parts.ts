import type { IngestLog, KafkaIngestLog } from '@quarry/log';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import type { AggregateOffload } from '@quarry/query-exec';
import type { QuarryConfig } from '../config/config';
import type { MetricsRuntime } from '../metrics/metrics-runtime';
import type { AsyncMutex } from './async-mutex';
import type { BlockIndex } from './block-index';
import type { BlockMerger } from './block-merger';
import type { Compactor } from './compactor';
import type { DatasetRegistry } from './dataset-registry';
import type { DataDirLock } from './data-dir-lock';
import { StorageCatalog } from './storage-catalog';
import type { TailBuffer } from './tail-buffer';
import type { ObjectStoreSpec } from './object-store-spec';
import type { CpuPool } from '../workers/cpu-pool';
import { QueryPool } from '../workers/query-pool';
import { WorkerAggregateOffload } from '../query/worker-aggregate-offload';
import type { CatalogSync } from '../cluster/catalog-sync';
import type { Lease } from '../cluster/lease';
import type { LogFollower } from '../cluster/log-follower';
import type { PartitionOwnership } from '../cluster/partition-ownership';
import type { Membership } from '../cluster/membership';
import type { RowsShareRunner, ShareRunner } from '../cluster/cluster-aggregate-offload';
import type { QueryRpcClient } from '../cluster/query-rpc';
import type { ShareDispatch } from '../cluster/share-dispatch';
import { wireBatch } from '../cluster/wire-batch';
import { rowsShareMode, runPartialAggregate, runRowsShare } from '@quarry/query-exec';
import { nanosTimespanFieldsOfPlan } from './kind-field-types';
import { blocksSource } from './part-scan';

/** The parts a process opened for its roles (absent parts are null). */
export interface StorageParts {
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
  membership: Membership | null;
  /** Query nodes of a cluster: computes the shares other query nodes send here. */
  shareRunners: { aggregate: ShareRunner; rows: RowsShareRunner } | null;
  /** Query nodes of a cluster with a cluster secret: how shares reach the other query nodes. */
  distributed: { dispatch: ShareDispatch; rpc: QueryRpcClient } | null;
  /** Every Kafka client this process opened (closed on shutdown). */
  kafkaLogs: KafkaIngestLog[];
  /** Other things to close, in order. */
  closers: (() => Promise<void>)[];
}

export function catalogFor(
  config: QuarryConfig,
  registry: DatasetRegistry,
  blocks: BlockIndex,
  tail: TailBuffer,
  objects: ObjectStore,
  metastore: Metastore,
  rangeReads: boolean,
): StorageCatalog {
  // With query workers, a quarter of the column cache is the main thread's and the workers share the
  // rest (MAIN_THREAD_COLUMN_SHARE).
  const queryWorkers = config.roles.includes('query') ? config.queryWorkers : 0;
  return new StorageCatalog(registry, blocks, tail, objects, metastore, {
    columnCacheBytes:
      queryWorkers > 0
        ? Math.floor(config.columnCacheBytes * MAIN_THREAD_COLUMN_SHARE)
        : config.columnCacheBytes,
    // Raw files too: one budget for every thread (it used to be 128 MiB here plus 64 MiB per worker,
    // filled with copies of what the page cache holds: RSS that grew for minutes before it was flat).
    fileCacheBytes: queryWorkers > 0 ? Math.floor(config.fileCacheBytes / 2) : config.fileCacheBytes,
    rangeReads,
  });
}

/**
 * The main thread's share of the column cache when there are query workers. The workers scan the large
 * queries (summarize, count, filters over many blocks) and the main thread the small ones (`take`, the
 * tail), so most of the budget is theirs: with half each, 10M bench events' `message` column (2.4 GB by
 * the estimate) overflowed one worker's 2 GiB and every run of a `contains` over it decoded it all again
 * (LRU under a scan larger than the cache hits nothing): 10.6 s, against 0.23 s at 1M events.
 */
const MAIN_THREAD_COLUMN_SHARE = 0.25;

export function queryWorkersFor(
  config: QuarryConfig,
  objects: ObjectStoreSpec,
  rangeReads: boolean,
): {
  queryPool: QueryPool | null;
  queryOffload: AggregateOffload | undefined;
  workerOffload: WorkerAggregateOffload | null;
} {
  const queryWorkers = config.roles.includes('query') ? config.queryWorkers : 0;
  if (queryWorkers === 0) return { queryPool: null, queryOffload: undefined, workerOffload: null };
  // Threads last: nothing after this can fail and leave them running.
  const queryPool = new QueryPool(queryWorkers, config.queryWorkerHeapMb);
  const queryOffload = new WorkerAggregateOffload(
    queryPool,
    {
      objects,
      // Within half the worker's heap, so the cache alone can never exhaust it.
      columnCacheBytes: Math.min(
        Math.floor((config.columnCacheBytes * (1 - MAIN_THREAD_COLUMN_SHARE)) / queryWorkers),
        (config.queryWorkerHeapMb * 1024 * 1024) / 2,
      ),
      fileCacheBytes: Math.floor(config.fileCacheBytes / 2 / queryWorkers),
      rangeReads,
    },
    config.querySplitMinRows,
    { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows },
  );
  return { queryPool, queryOffload, workerOffload: queryOffload };
}

/**
 * This node's ways to compute a share: a summarize's on its query workers (or the event loop without
 * them); a take's or top's on the event loop, block by block, its rows ready to cross to another node.
 */
export function shareRunnersFor(
  config: QuarryConfig,
  workers: WorkerAggregateOffload | null,
  catalog: StorageCatalog,
): { aggregate: ShareRunner; rows: RowsShareRunner } {
  const limits = { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows };
  const aggregate: ShareRunner =
    workers !== null
      ? (node, dataset, blocks, signal) => workers.aggregateBlocks(node, dataset, blocks, signal)
      : async (node, dataset, blocks, signal) => [
          await runPartialAggregate(
            node,
            blocksSource(dataset, blocks, catalog.reader, signal, nanosTimespanFieldsOfPlan(node, dataset)),
            {
              limits,
              signal,
            },
          ),
        ];
  const rows: RowsShareRunner = async (node, dataset, blocks, signal) => {
    const nanos = nanosTimespanFieldsOfPlan(node, dataset);
    const parts =
      rowsShareMode(node) === 'whole'
        ? [blocksSource(dataset, blocks, catalog.reader, signal, nanos)]
        : blocks.map((block) => blocksSource(dataset, [block], catalog.reader, signal, nanos));
    const share = await runRowsShare(node, dataset, parts, { limits, signal });
    return { ...share, segments: share.segments.map((s) => (s === null ? null : wireBatch(s))) };
  };
  return { aggregate, rows };
}
