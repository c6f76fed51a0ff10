import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { FileSegmentLog } from '@quarry/log';
import { Metastore, PgDatabase } from '@quarry/metastore';
import type { QuarryConfig } from '../config/config';
import { MetricsRuntime } from '../metrics/metrics-runtime';
import type { CpuPool } from '../workers/cpu-pool';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { BlockMerger, DEFAULT_MERGE_POLICY } from './block-merger';
import { Compactor, DEFAULT_SPANS } from './compactor';
import { DataDirLock } from './data-dir-lock';
import { DatasetRegistry } from './dataset-registry';
import { openObjectStore, type ObjectStoreSpec } from './object-store-spec';
import { catalogFor, queryWorkersFor, type StorageParts } from './storage-parts';
import { TailBuffer } from './tail-buffer';

/**
 * The embedded shape (the standalone server): a segment log, a local directory and PGlite (or a
 * PostgreSQL server) in the data directory. This process's block index and tail are the truth.
 */
export async function openEmbeddedStorage(
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
  const catalog = catalogFor(config, registry, blocks, tail, objects, metastore, false);
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
    ...queryWorkersFor(config, objectsSpec, false),
    ...{ metastore, log, objects, objectsSpec, registry, blocks, tail, lock, compactor, catalog },
    ...{ lockFile, metrics, merger, cpu, closers },
    ...{
      sync: null,
      followers: null,
      lease: null,
      ownership: null,
      membership: null,
      shareRunners: null,
      distributed: null,
      kafkaLogs: [],
    },
  };
}
