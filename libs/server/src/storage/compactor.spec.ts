import { encodeBlock } from '@quarry/block-format';
import { MemoryIngestLog } from '@quarry/log';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import {
  batchFromEvents,
  emptyScanStats,
  valueAt,
  type IngestLogRecord,
  type NormalizedEvent,
} from '@quarry/contracts';
import { encodeLogRecord, encodeLogRecordV1 } from './log-codec';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';
import { bootStorage } from './storage-testing';
import { AsyncMutex } from './async-mutex';
import { Compactor } from './compactor';
import { CpuPool } from '../workers/cpu-pool';
import { addToTail } from './tail-testing';

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
  const boot = () => bootStorage(log, objects, metastore);

  /** Appends a v2 record as ingest does, and adds it to `tail` as ingest would when one is given. */
  async function append(datasetId: string, values: number[], tail?: TailBuffer) {
    const events: NormalizedEvent[] = values.map((n, i) => ({ time: 1000 + i, fields: { n } }));
    const record = { datasetId, sysTime: 1, batch: batchFromEvents(events, 1) };
    const [position] = await log.append(datasetId, [encodeLogRecord(record)]);
    if (tail) addToTail(tail, position, record);
  }

  /** Appends a v1 (JSON) record, as versions before the columnar record wrote them. */
  async function appendV1(datasetId: string, values: number[]) {
    const record: IngestLogRecord = {
      v: 1,
      datasetId,
      sysTime: 1,
      events: values.map((n, i) => ({ time: 2000 + i, fields: { n } })),
    };
    await log.append(datasetId, [encodeLogRecordV1(record)]);
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
    await append(keep.id, [1, 2, 3], first.tail);
    await append(gone.id, [100], first.tail);
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
    // Each attempt uploads under keys of its own (the block ids stay the same): the failed attempt's
    // objects are unreferenced until the next start's sweep removes them.
    expect((await objects.list('blocks/')).length).toBe(4);
    const referenced = new Set((await metastore.blocks.listBlocks(keep.id)).map((b) => b.objectKey));
    expect((await objects.list('blocks/')).filter((k) => referenced.has(k))).toHaveLength(1);
    expect(first.tail.rows).toBe(0);
    expect(await sumOf(first.catalog, 'keep')).toEqual({ rows: 3, sum: 6 }); // now from the block

    // More data (one record in the old v1 JSON format), then a "restart": a new process state replays
    // only what was not compacted.
    await append(keep.id, [10, 20]);
    await appendV1(keep.id, [7]);
    await metastore.datasets.delete(gone.id);
    await append(gone.id, [1000]); // a straggler for a deleted dataset
    const second = await boot();
    expect(await second.compactor.replay()).toBe(3);
    expect(await sumOf(second.catalog, 'keep')).toEqual({ rows: 6, sum: 43 });
    await second.compactor.flush();
    expect(await metastore.blocks.committedOffset(0)).toBe(5);
    expect(second.tail.rows).toBe(0);
    expect(await sumOf(second.catalog, 'keep')).toEqual({ rows: 6, sum: 43 });
    expect((await metastore.blocks.listBlocks(keep.id)).length).toBe(2);

    // Replaying an already committed range again changes nothing.
    const third = await boot();
    expect(await third.compactor.replay()).toBe(0);
    expect(await sumOf(third.catalog, 'keep')).toEqual({ rows: 6, sum: 43 });
  }, 60_000);

  it('lets only one of two compactors register a range (compare-and-set on the offset), without duplicates', async () => {
    const dataset = await metastore.datasets.create({
      name: 'raced',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    // Two processes that both believe they own partition 0 (one is about to lose it in a rebalance).
    // Kafka keeps consumed records (retention, not truncation), so the late one can still read them.
    const keepRecords = jest.spyOn(log, 'truncateBefore').mockResolvedValue();
    const a = await boot();
    const b = await boot();
    await a.compactor.replay();
    await b.compactor.replay();
    await append(dataset.id, [1, 2]);
    await a.compactor.flush();
    const committed = await metastore.blocks.committedOffset(0);
    await append(dataset.id, [3]);
    const before = await objects.list('blocks/');
    // b read from the offset it loaded before a committed: its registration is refused and rolled back,
    // its uploads are removed (certainly unreferenced), and it continues from the committed offset.
    await b.compactor.flush();
    expect(b.compactor.totals.conflicts).toBe(1);
    await b.compactor.flush();
    expect(await metastore.blocks.committedOffset(0)).toBe(committed + 1);
    const rows = (await metastore.blocks.listBlocks(dataset.id)).reduce((n, blk) => n + blk.rowCount, 0);
    expect(rows).toBe(3);
    const after = await objects.list('blocks/');
    expect(after.length).toBe(before.length + 1); // only the block of the new record stayed
    keepRecords.mockRestore();
  }, 60_000);

  it('compacts records of a dataset another node created after this one last refreshed (cluster), never dropping them', async () => {
    const storage = await boot();
    await storage.compactor.replay();
    // Created through a management node: this process's registry has not heard of it.
    const fresh = await metastore.datasets.create({
      name: 'fresh',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    expect(storage.registry.getById(fresh.id)).toBeUndefined();
    const refreshes: number[] = [];
    const compactor = new Compactor(
      log,
      objects,
      metastore,
      storage.registry,
      storage.blocks,
      storage.tail,
      new AsyncMutex(),
      CpuPool.create(0),
      {
        applyLocally: false,
        refreshCatalog: async () => {
          refreshes.push(Date.now());
          storage.registry.replaceAll(await metastore.datasets.list());
        },
      },
    );
    await append(fresh.id, [5, 6, 7]);
    await compactor.flush();
    expect(refreshes).toHaveLength(1);
    const blocks = await metastore.blocks.listBlocks(fresh.id);
    expect(blocks.reduce((n, b) => n + b.rowCount, 0)).toBe(3);
  }, 60_000);

  it('builds the same block from the tail batches as from the log records (v1 and v2) as from the events', async () => {
    const dataset = await metastore.datasets.create({
      name: 'same',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    const withTail = await boot();
    expect(await withTail.compactor.replay()).toBe(0);

    // Out of time order across records, kinds that change between records, nulls, nested values.
    const records: { sysTime: number; events: NormalizedEvent[] }[] = [
      {
        sysTime: 5,
        events: [
          { time: 3000, fields: { a: 1, s: 'x', m: 'one', d: [1] } },
          { time: 1000, fields: { a: 2, s: null } },
        ],
      },
      { sysTime: 6, events: [{ time: 2000, fields: { a: 2.5, s: 'y', m: 7, b: true } }] },
      { sysTime: 7, events: [{ time: 1000, fields: { a: 3, s: 'x', d: { k: 'v' } } }] },
    ];
    for (const [i, r] of records.entries()) {
      const batch = batchFromEvents(r.events, r.sysTime);
      const payload =
        i === 2
          ? encodeLogRecordV1({ v: 1, datasetId: dataset.id, sysTime: r.sysTime, events: r.events })
          : encodeLogRecord({ datasetId: dataset.id, sysTime: r.sysTime, batch });
      const [position] = await log.append(dataset.id, [payload]);
      // Record 1 stays out of memory (a late ingest continuation).
      if (i !== 1) addToTail(withTail.tail, position, { datasetId: dataset.id, sysTime: r.sysTime, batch });
    }
    const fromLog = await boot();
    expect(await fromLog.compactor.replay()).toBe(4);
    fromLog.tail.dropDataset(dataset.id); // nothing in memory: every record is decoded from the log

    const uploads: Uint8Array[] = [];
    const put = objects.put.bind(objects);
    const putSpy = jest.spyOn(objects, 'put').mockImplementation(async (key, bytes) => {
      uploads.push(bytes);
      return put(key, bytes);
    });
    const registerSpy = jest
      .spyOn(metastore.blocks, 'registerBlocks')
      .mockRejectedValueOnce(new Error('stop before commit'));
    await expect(fromLog.compactor.flush()).rejects.toThrow('stop before commit');
    registerSpy.mockRestore();
    await withTail.compactor.flush();
    putSpy.mockRestore();

    // What the compactor built from JSON events before the columnar log record: sorted events, one batch.
    const all = records.flatMap((r) => r.events.map((e) => ({ e, sysTime: r.sysTime })));
    const sorted = all.map((x, i) => ({ ...x, i })).sort((x, y) => x.e.time - y.e.time || x.i - y.i);
    const expected = encodeBlock(
      batchFromEvents(
        sorted.map((x) => x.e),
        sorted.map((x) => x.sysTime),
      ),
    );
    expect(uploads).toHaveLength(2);
    expect(Buffer.from(uploads[0]).equals(Buffer.from(expected))).toBe(true);
    expect(Buffer.from(uploads[1]).equals(Buffer.from(expected))).toBe(true);
    const [block] = await metastore.blocks.listBlocks(dataset.id);
    expect([block.rowCount, block.minTime, block.maxTime]).toEqual([4, 1000, 3000]);
    expect(withTail.tail.rows).toBe(0);
  }, 60_000);
});
