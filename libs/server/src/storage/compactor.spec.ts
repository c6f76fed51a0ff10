import { MemoryIngestLog } from '@quarry/log';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import { emptyScanStats, valueAt, type IngestLogRecord } from '@quarry/contracts';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { Compactor } from './compactor';
import { DatasetRegistry } from './dataset-registry';
import { encodeLogRecord } from './log-codec';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';

/**
 * The compactor's contract (DESIGN.md §5b): blocks and the log offset commit together, a crash between
 * upload and commit re-registers nothing twice, and a restart replays exactly the uncompacted records.
 */
describe('Compactor', () => {
  let metastore: Metastore;
  const log = new MemoryIngestLog();
  const objects = new MemoryObjectStore();

  beforeAll(async () => {
    metastore = await Metastore.open(null);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  /** A process's in-memory state over the shared log, object store and metastore. */
  async function boot() {
    const registry = await DatasetRegistry.load(metastore);
    const blocks = new BlockIndex();
    for (const d of registry.list()) blocks.load(await metastore.blocks.listBlocks(d.id));
    const tail = new TailBuffer();
    const compactor = new Compactor(log, objects, metastore, registry, blocks, tail, new AsyncMutex());
    const catalog = new StorageCatalog(registry, blocks, tail, objects, metastore);
    return { registry, blocks, tail, compactor, catalog };
  }

  async function append(datasetId: string, values: number[]) {
    const record: IngestLogRecord = {
      v: 1,
      datasetId,
      sysTime: 1,
      events: values.map((n, i) => ({ time: 1000 + i, fields: { n } })),
    };
    const [position] = await log.append(datasetId, [encodeLogRecord(record)]);
    return { ...position, datasetId, sysTime: 1, events: record.events };
  }

  async function sumOf(catalog: StorageCatalog, name: string): Promise<{ rows: number; sum: number }> {
    const source = await catalog.getDataset(name);
    let rows = 0;
    let sum = 0;
    for await (const batch of source!.scan({
      startMs: 0,
      endMs: 1e13,
      columns: ['n'],
      stats: emptyScanStats(),
    })) {
      const column = batch.columns.get('n')!;
      for (let i = 0; i < batch.length; i++) sum += valueAt(column, i) as number;
      rows += batch.length;
    }
    return { rows, sum };
  }

  it('registers blocks with the offset, survives a failed commit without duplicates, and replays after restart', async () => {
    const keep = await metastore.datasets.create({
      name: 'keep',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    const gone = await metastore.datasets.create({
      name: 'gone',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    const first = await boot();
    first.tail.add(await append(keep.id, [1, 2, 3]));
    first.tail.add(await append(gone.id, [100]));
    expect(await sumOf(first.catalog, 'keep')).toEqual({ rows: 3, sum: 6 }); // read-your-writes from the tail

    // Crash between upload and commit: the objects exist, nothing is registered, the offset did not move.
    const register = metastore.blocks.registerBlocks.bind(metastore.blocks);
    const spy = jest
      .spyOn(metastore.blocks, 'registerBlocks')
      .mockRejectedValueOnce(new Error('connection lost'));
    await expect(first.compactor.flush()).rejects.toThrow('connection lost');
    expect((await objects.list('blocks/')).length).toBe(2);
    expect(await metastore.blocks.committedOffset(0)).toBe(0);
    expect(await sumOf(first.catalog, 'keep')).toEqual({ rows: 3, sum: 6 }); // still served from the tail

    spy.mockImplementation(register);
    await first.compactor.flush();
    expect(await metastore.blocks.committedOffset(0)).toBe(2);
    expect((await metastore.blocks.listBlocks(keep.id)).length).toBe(1);
    expect((await objects.list('blocks/')).length).toBe(2); // same deterministic keys, overwritten
    expect(first.tail.rows).toBe(0);
    expect(await sumOf(first.catalog, 'keep')).toEqual({ rows: 3, sum: 6 }); // now from the block

    // More data, then a "restart": a new process state replays only what was not compacted.
    await append(keep.id, [10, 20]);
    await metastore.datasets.delete(gone.id);
    await append(gone.id, [1000]); // a straggler for a deleted dataset
    const second = await boot();
    expect(await second.compactor.replay()).toBe(2);
    expect(await sumOf(second.catalog, 'keep')).toEqual({ rows: 5, sum: 36 });
    await second.compactor.flush();
    expect(await metastore.blocks.committedOffset(0)).toBe(4);
    expect(second.tail.rows).toBe(0);
    expect(await sumOf(second.catalog, 'keep')).toEqual({ rows: 5, sum: 36 });
    expect((await metastore.blocks.listBlocks(keep.id)).length).toBe(2);

    // Replaying an already committed range again changes nothing.
    const third = await boot();
    expect(await third.compactor.replay()).toBe(0);
    expect(await sumOf(third.catalog, 'keep')).toEqual({ rows: 5, sum: 36 });
  }, 60_000);
});
