import type { IngestLog } from '@quarry/log';
import type { Metastore } from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { Compactor } from './compactor';
import { DatasetRegistry } from './dataset-registry';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';
import { CpuPool } from '../workers/cpu-pool';

/**
 * For tests: one process's in-memory storage state over a log, an object store and a metastore, wired as
 * `StorageRuntime` wires it (registry and block index loaded from the metastore, an empty tail, a
 * compactor on an inline CPU pool, a catalog).
 */
export async function bootStorage(
  log: IngestLog,
  objects: ObjectStore,
  metastore: Metastore,
  lock = new AsyncMutex(),
) {
  const registry = await DatasetRegistry.load(metastore);
  const blocks = new BlockIndex();
  for (const d of registry.list()) blocks.load(await metastore.blocks.listBlocks(d.id));
  const tail = new TailBuffer();
  const compactor = new Compactor(log, objects, metastore, registry, blocks, tail, lock, CpuPool.create(0));
  const catalog = new StorageCatalog(registry, blocks, tail, objects, metastore);
  return { registry, blocks, tail, compactor, catalog };
}
