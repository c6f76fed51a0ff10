import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { KafkaIngestLog } from '@quarry/log';
import { Metastore, regionSchemaName } from '@quarry/metastore';
import type { QuarryConfig } from '../config/config';
import { METRICS_PARTITION, MetricsRuntime } from '../metrics/metrics-runtime';
import { AsyncMutex } from '../storage/async-mutex';
import { BlockIndex } from '../storage/block-index';
import { BlockMerger, DEFAULT_MERGE_POLICY } from '../storage/block-merger';
import { Compactor, DEFAULT_SPANS } from '../storage/compactor';
import { DataDirLock } from '../storage/data-dir-lock';
import { DatasetRegistry } from '../storage/dataset-registry';
import { summarizeLogRecord } from '../storage/log-codec';
import { openObjectStore, type ObjectStoreSpec } from '../storage/object-store-spec';
import { catalogFor, queryWorkersFor, shareRunnersFor, type StorageParts } from '../storage/storage-parts';
import { ClusterAggregateOffload } from './cluster-aggregate-offload';
import { ShareDispatch } from './share-dispatch';
import { QueryRpcClient } from './query-rpc';
import { TailBuffer } from '../storage/tail-buffer';
import type { CpuPool } from '../workers/cpu-pool';
import { CatalogSync } from './catalog-sync';
import { openKafkaLog } from './kafka-logs';
import { Lease } from './lease';
import { LogFollower } from './log-follower';
import { Membership } from './membership';
import { PartitionOwnership } from './partition-ownership';
import { Regions } from './regions';

const MERGE_LEASE = 'merger';
const MERGE_LEASE_MS = 30_000;
const ORPHAN_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The cluster shape: Kafka topics, S3 and PostgreSQL shared by many processes, opened for this process's
 * roles (docs/adr/0005). Every node keeps a copy of the catalog (`CatalogSync`); query nodes follow both
 * topics into their tail (`LogFollower`); compactors split the partitions by lease
 * (`PartitionOwnership`) and the merger runs on the holder of the merge lease.
 */
export async function openClusterStorage(
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
  const regions = new Regions(config);
  // Regions other than the home region keep their offsets, leases and members in a schema of their own.
  const metastore = await Metastore.openRegional(
    config.metastoreUrl!,
    regions.here === regions.home ? null : regionSchemaName(regions.here),
  );
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

  const membership = new Membership(metastore, {
    nodeId: config.nodeId,
    roles: config.roles,
    advertiseUrl: config.advertiseUrl,
    heartbeatMs: config.heartbeatMs,
    timeoutMs: config.memberTimeoutMs,
  });
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
      storesDataset: (datasetId) => {
        const dataset = registry.getById(datasetId);
        return dataset !== undefined && regions.isLocal(dataset);
      },
    },
    metastore,
    objects,
    (datasetId) => registry.getById(datasetId) !== undefined,
    mayMerge,
  );
  const catalog = catalogFor(config, registry, blocks, tail, objects, metastore, true);
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
      { applyLocally: false, beforeRound: mayMerge, mergesDataset: (d) => regions.isLocal(d) },
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
  const { queryPool, queryOffload: threads, workerOffload } = queryWorkersFor(config, objectsSpec, true);
  // Query nodes split large summarizes over every live query node (with the cluster secret to talk).
  const shareRunners = queries ? shareRunnersFor(config, workerOffload, catalog) : null;
  const distributed =
    queries && config.clusterSecret !== undefined
      ? {
          dispatch: new ShareDispatch(membership),
          rpc: new QueryRpcClient(config.clusterSecret, config.queryRpcTimeoutMs),
        }
      : null;
  const queryOffload =
    distributed !== null && shareRunners !== null
      ? new ClusterAggregateOffload(
          distributed.dispatch,
          distributed.rpc,
          shareRunners.aggregate,
          shareRunners.rows,
          threads,
          config.querySplitMinRows,
          { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows },
          config.queryRpcTimeoutMs,
        )
      : threads;
  return {
    queryPool,
    queryOffload,
    shareRunners,
    distributed,
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
    ...{ sync, followers, lease, ownership, membership, kafkaLogs },
  };
}
