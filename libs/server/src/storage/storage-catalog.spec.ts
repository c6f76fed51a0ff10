import { MemoryIngestLog } from '@quarry/log';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import { batchFromEvents, emptyScanStats, valueAt, type ColumnBatch } from '@quarry/contracts';
import { encodeLogRecord } from './log-codec';
import { StorageCatalog } from './storage-catalog';
import { bootStorage } from './storage-testing';
import { addToTail } from './tail-testing';
import { runApl } from '@quarry/query';

/** Scans with a `top N by _time` hint walk a large block in time-ordered slices and skip the rest. */
describe('StorageCatalog time-ordered scans', () => {
  let metastore: Metastore;
  let catalog: StorageCatalog;
  const ROWS = 50_000;

  beforeAll(async () => {
    metastore = await Metastore.open(null);
    const log = new MemoryIngestLog();
    const objects = new MemoryObjectStore();
    const storage = await bootStorage(log, objects, metastore);
    const { registry, blocks, tail, compactor } = storage;
    catalog = storage.catalog;
    const dataset = await metastore.datasets.create({
      name: 'big',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    registry.put(dataset);
    // Written out of order: the block sorts them by _time.
    const events = Array.from({ length: ROWS }, (_, i) => ({
      time: 1_000_000 + ((i * 7919) % ROWS),
      fields: { i },
    }));
    const record = { datasetId: dataset.id, sysTime: 1, batch: batchFromEvents(events, 1) };
    const [position] = await log.append(dataset.id, [encodeLogRecord(record)]);
    addToTail(tail, position, record);
    await compactor.flush();
    expect(blocks.list(dataset.id)).toHaveLength(1);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  async function scan(direction: 'asc' | 'desc', bound: number | null) {
    const source = await catalog.getDataset('big');
    const batches: ColumnBatch[] = [];
    for await (const batch of source!.scan({
      startMs: 0,
      endMs: 1e13,
      columns: ['i'],
      stats: emptyScanStats(),
      timeOrder: {
        direction,
        skip: (min, max) => bound !== null && (direction === 'desc' ? max <= bound : min >= bound),
      },
    }))
      batches.push(batch);
    return batches.map((b) => {
      const time = b.columns.get('_time')!;
      return {
        first: valueAt(time, 0) as number,
        last: valueAt(time, b.length - 1) as number,
        rows: b.length,
      };
    });
  }

  it('yields slices newest first for desc and oldest first for asc, covering every row', async () => {
    const desc = await scan('desc', null);
    expect(desc.length).toBeGreaterThan(1);
    expect(desc.reduce((n, s) => n + s.rows, 0)).toBe(ROWS);
    for (let i = 1; i < desc.length; i++) expect(desc[i].last).toBeLessThan(desc[i - 1].first);
    const asc = await scan('asc', null);
    for (let i = 1; i < asc.length; i++) expect(asc[i].first).toBeGreaterThan(asc[i - 1].last);
  });

  it('skips the slices the bound rules out', async () => {
    const newest = 1_000_000 + ROWS - 1;
    const desc = await scan('desc', newest - 100);
    expect(desc).toHaveLength(1);
    expect(desc[0].last).toBe(newest);
    const asc = await scan('asc', 1_000_000 + 100);
    expect(asc).toHaveLength(1);
    expect(asc[0].first).toBe(1_000_000);
  });
});

/** Counting and pruning from block metadata agree with a full scan. */
describe('StorageCatalog metadata answers', () => {
  let metastore: Metastore;
  let catalog: StorageCatalog;
  /** A catalog with cold caches over the same storage. */
  let coldCatalog: () => StorageCatalog;
  const objects = new MemoryObjectStore();

  beforeAll(async () => {
    metastore = await Metastore.open(null);
    const log = new MemoryIngestLog();
    const storage = await bootStorage(log, objects, metastore);
    const { registry, blocks, tail, compactor } = storage;
    catalog = storage.catalog;
    coldCatalog = () => new StorageCatalog(registry, blocks, tail, objects, metastore);
    const dataset = await metastore.datasets.create({
      name: 'parts',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    registry.put(dataset);
    // Three blocks of 100 rows at t = 1000·k + i, then a tail record.
    for (let k = 0; k < 4; k++) {
      const events = Array.from({ length: 100 }, (_, i) => ({
        time: 1000 * k + i,
        fields: {
          status: k === 1 ? 'error' : 'ok',
          n: k * 100 + i,
          msg: `request ${k === 2 ? 'zebra' : 'served'} ${i}`,
        },
      }));
      const record = { datasetId: dataset.id, sysTime: 1, batch: batchFromEvents(events, 1) };
      const [position] = await log.append(dataset.id, [encodeLogRecord(record)]);
      addToTail(tail, position, record);
      if (k < 3) await compactor.flush();
    }
    expect(blocks.list(dataset.id)).toHaveLength(3);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  it.each([
    [0, 1e6],
    [50, 2050],
    [1000, 2000],
    [999, 1001],
    [3050, 3060],
    [5000, 6000],
  ])('counts rows in [%d, %d) as a scan does', async (start, end) => {
    const source = (await catalog.getDataset('parts'))!;
    let scanned = 0;
    for await (const b of source.scan({ startMs: start, endMs: end, columns: [], stats: emptyScanStats() }))
      scanned += b.length;
    const stats = emptyScanStats();
    expect(await source.countRows!(start, end, stats)).toBe(scanned);
    expect(stats.rowsExamined).toBe(scanned);
  });

  it('skips blocks whose statistics rule the filter out', async () => {
    const source = (await catalog.getDataset('parts'))!;
    const stats = emptyScanStats();
    let rows = 0;
    for await (const b of source.scan({
      startMs: 0,
      endMs: 1e6,
      columns: ['status'],
      stats,
      pruning: {
        filterColumns: [],
        mayMatch: (block) => block.column('status')?.min === 'error',
      },
    }))
      rows += b.length;
    expect(rows).toBe(200); // the 'error' block and the tail (the tail is never pruned)
    expect(stats).toMatchObject({ blocksExamined: 4, blocksMatched: 2 });
  });

  it('skips blocks whose token filters rule out has/contains, through a query', async () => {
    const source = (await coldCatalog().getDataset('parts'))!;
    const run = async (apl: string) => {
      const out = await runApl(apl, {
        startMs: 0,
        endMs: 1e6,
        nowMs: 1e6,
        catalog: { getDataset: async () => source },
      });
      return { count: out.tables[0].columns[0][0], stats: out.stats };
    };
    const wholeFiles = jest.spyOn(objects, 'get');
    const has = await run("['parts'] | where msg has 'ZEBRA' | count");
    expect(has.count).toBe(100);
    expect(wholeFiles).toHaveBeenCalledTimes(1); // the pruned blocks were judged by ranges of their files
    wholeFiles.mockRestore();
    expect(has.stats).toMatchObject({ blocksExamined: 4, blocksMatched: 2 }); // the zebra block and the tail
    const contains = await run("['parts'] | where msg contains 'ebr' | count");
    expect(contains).toMatchObject({ count: 100, stats: { blocksMatched: 2 } });
    const byValue = await run("['parts'] | where n == 150 | count");
    expect(byValue).toMatchObject({ count: 1, stats: { blocksMatched: 2 } });
  });
});
