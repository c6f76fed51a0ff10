import { MemoryIngestLog } from '@quarry/log';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import {
  batchFromEvents,
  emptyScanStats,
  valueAt,
  type FieldValue,
  type NormalizedEvent,
} from '@quarry/contracts';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { BlockMerger, type MergePolicy } from './block-merger';
import { Compactor } from './compactor';
import { DatasetRegistry } from './dataset-registry';
import { encodeLogRecord } from './log-codec';
import { StorageCatalog } from './storage-catalog';
import { TailBuffer } from './tail-buffer';
import { bootStorage } from './storage-testing';
import { addToTail } from './tail-testing';
import { CpuPool } from '../workers/cpu-pool';

const POLICY: MergePolicy = {
  smallBlockRows: 100,
  maxMergedRows: 40,
  minRunBlocks: 3,
  deleteGraceMs: 0,
  spanMs: 3_600_000,
};

/**
 * The merge loop's contract: merged blocks answer exactly like their inputs, the swap is atomic in the
 * metastore and the in-memory index, conflicting field kinds are left alone, a vanished input cancels the
 * swap, and unreferenced objects are swept.
 */
describe('BlockMerger', () => {
  let metastore: Metastore;
  const log = new MemoryIngestLog();
  const objects = new MemoryObjectStore();
  let registry: DatasetRegistry;
  let blocks: BlockIndex;
  let tail: TailBuffer;
  let compactor: Compactor;
  let catalog: StorageCatalog;
  let merger: BlockMerger;
  const lock = new AsyncMutex();

  beforeAll(async () => {
    metastore = await Metastore.open(null);
    ({ registry, blocks, tail, compactor, catalog } = await bootStorage(log, objects, metastore, lock));
    merger = new BlockMerger(
      metastore,
      objects,
      registry,
      blocks,
      lock,
      (k) => catalog.forgetBlock(k),
      CpuPool.create(0),
      POLICY,
    );
  }, 60_000);
  afterAll(async () => {
    await merger?.stop();
    await metastore?.close();
  });

  async function dataset(name: string) {
    const record = await metastore.datasets.create({
      name,
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    registry.put(record);
    return record.id;
  }

  /** One compaction tick's worth of events: one block per call. */
  async function block(datasetId: string, events: NormalizedEvent[]) {
    const record = { datasetId, sysTime: 7, batch: batchFromEvents(events, 7) };
    const [position] = await log.append(datasetId, [encodeLogRecord(record)]);
    addToTail(tail, position, record);
    await compactor.flush();
  }

  async function rowsOf(name: string, columns: string[]) {
    const source = await catalog.getDataset(name);
    const rows: string[] = [];
    for await (const batch of source!.scan({ startMs: 0, endMs: 1e13, columns, stats: emptyScanStats() })) {
      for (let i = 0; i < batch.length; i++)
        rows.push(
          JSON.stringify(
            ['_time', ...columns].map((c) => {
              const column = batch.columns.get(c);
              return column ? (valueAt(column, i) ?? null) : null;
            }),
          ),
        );
    }
    return rows.sort();
  }

  it('merges runs of small blocks into time-sorted blocks that answer the same', async () => {
    const id = await dataset('small');
    // Ten blocks of 10 rows whose time ranges interleave, with a field that is sometimes missing.
    for (let b = 0; b < 10; b++) {
      await block(
        id,
        Array.from({ length: 10 }, (_, i) => ({
          time: 1_000 + i * 10 + b,
          fields: (i % 3 === 0 ? { n: b * 10 + i } : { n: b * 10 + i, tag: `t${i % 4}` }) as Record<
            string,
            FieldValue
          >,
        })),
      );
    }
    const before = await rowsOf('small', ['n', 'tag', '_sysTime']);
    expect(blocks.list(id)).toHaveLength(10);

    const result = await merger.mergeAll();
    // 40-row cap: runs of 4, 4 and 2 blocks (the last has maxMergedRows / 2 rows, enough to merge)
    expect(result).toEqual({ merged: 3, replaced: 10 });
    expect(await rowsOf('small', ['n', 'tag', '_sysTime'])).toEqual(before);
    const after = blocks.list(id);
    expect(after.map((b) => b.rowCount).sort()).toEqual([20, 40, 40]);
    // The metastore agrees with the index, and merged blocks are sorted by time.
    expect((await metastore.blocks.listBlocks(id)).map((b) => b.id).sort()).toEqual(
      after.map((b) => b.id).sort(),
    );
    for (const merged of after) {
      expect(merged.minTime).toBeLessThanOrEqual(merged.maxTime);
      const source = await catalog.getDataset('small');
      let last = -Infinity;
      for await (const batch of source!.scan({
        startMs: merged.minTime,
        endMs: merged.maxTime + 1,
        columns: [],
        stats: emptyScanStats(),
      })) {
        if (batch.length !== merged.rowCount) continue;
        const time = batch.columns.get('_time')!;
        for (let i = 0; i < batch.length; i++) {
          const t = valueAt(time, i) as number;
          expect(t).toBeGreaterThanOrEqual(last);
          last = t;
        }
      }
    }
    // Merged-away objects are deleted after the grace period (0 here).
    await new Promise((r) => setTimeout(r, 20));
    const keys = new Set(await objects.list(`blocks/${id}/`));
    expect(keys).toEqual(new Set(after.map((b) => b.objectKey)));
  }, 60_000);

  // Issue 17: the query workers cached merged-away blocks until LRU pressure reached them. The catalog
  // now tells its listeners (StorageRuntime wires the query workers) which blocks left the index.
  it('announces merged-away blocks to the catalog, which drops their cached bytes and tells its listeners', async () => {
    const id = await dataset('forgotten');
    for (let b = 0; b < 4; b++)
      await block(
        id,
        Array.from({ length: 5 }, (_, i) => ({ time: 9_000 + b * 10 + i, fields: { n: i, s: `v${b}` } })),
      );
    const inputs = blocks.list(id).map((b) => b.objectKey);
    expect(inputs).toHaveLength(4);
    const cachedBefore = catalog.cacheBytes;
    await rowsOf('forgotten', ['n', 's']);
    const filled = catalog.cacheBytes;
    expect(filled.columnCache).toBeGreaterThan(cachedBefore.columnCache);
    const announced: string[][] = [];
    catalog.onForget((keys) => announced.push([...keys]));

    expect(await merger.mergeAll()).toEqual({ merged: 1, replaced: 4 });
    await new Promise((r) => setTimeout(r, 20));
    // One batch (the keys forgotten in one turn of the event loop), exactly the inputs.
    expect(announced).toHaveLength(1);
    expect(new Set(announced[0])).toEqual(new Set(inputs));
    const after = catalog.cacheBytes;
    expect(after.columnCache).toBe(cachedBefore.columnCache);
    expect(after.footerCache).toBe(cachedBefore.footerCache);
  }, 60_000);

  it('never merges blocks in which a field has different kinds, but merges the blocks of each kind', async () => {
    const id = await dataset('mixed');
    for (let b = 0; b < 4; b++)
      await block(id, [{ time: 5_000 + b, fields: { v: b % 2 === 0 ? b : `s${b}` } }]);
    const before = await rowsOf('mixed', ['v']);
    expect(await merger.mergeAll()).toEqual({ merged: 2, replaced: 4 });
    expect(blocks.list(id).map((b) => b.rowCount)).toEqual([2, 2]);
    expect(await rowsOf('mixed', ['v'])).toEqual(before);
  }, 60_000);

  // The soak's dataset (CSV rows make `seq` a string, JSON rows a number) grew by hundreds of unmerged
  // blocks a minute: first while the whole run was refused for one disagreeing kind, then, with runs split
  // where a kind changed, because the formats alternate and so did the blocks (parts of one block each).
  it('groups a run by kinds wherever the blocks sit, and merges each group', async () => {
    const id = await dataset('split');
    const values: FieldValue[] = [1, 's2', 3, 's4', 's5', 6, 7];
    for (let b = 0; b < values.length; b++)
      await block(id, [{ time: 7_000 + b, fields: { v: values[b], w: b } }]);
    // A block without `v` agrees with either kind.
    await block(id, [{ time: 7_100, fields: { w: 100 } }]);
    const before = await rowsOf('split', ['v', 'w']);
    expect(await merger.mergeAll()).toEqual({ merged: 2, replaced: 8 });
    expect(
      blocks
        .list(id)
        .map((b) => b.rowCount)
        .sort(),
    ).toEqual([3, 5]);
    expect(await rowsOf('split', ['v', 'w'])).toEqual(before);
    // The two blocks left have different kinds: their run is read once more, gives nothing, and is not
    // read again while it stays the same.
    expect(await merger.mergeAll()).toEqual({ merged: 0, replaced: 0 });
    const get = jest.spyOn(objects, 'get');
    expect(await merger.mergeAll()).toEqual({ merged: 0, replaced: 0 });
    expect(get).not.toHaveBeenCalled();
    get.mockRestore();
  }, 60_000);

  it('cancels the swap when the dataset is deleted while merging, and deletes its output', async () => {
    const id = await dataset('doomed');
    for (let b = 0; b < 3; b++) await block(id, [{ time: 9_000 + b, fields: { x: b } }]);
    const put = objects.put.bind(objects);
    const spy = jest.spyOn(objects, 'put').mockImplementation(async (key, body) => {
      await put(key, body);
      if (key.includes('.merged.')) registry.remove('doomed'); // deleted between the put and the swap
    });
    expect(await merger.mergeAll()).toEqual({ merged: 0, replaced: 0 });
    spy.mockRestore();
    expect((await objects.list(`blocks/${id}/`)).some((k) => k.includes('.merged.'))).toBe(false);
    expect(await metastore.blocks.listBlocks(id)).toHaveLength(3);
  }, 60_000);

  it('sweeps block objects that no registered block refers to', async () => {
    const id = registry.getByName('small')!.id;
    await objects.put(`blocks/${id}/orphan.merged.qblk`, new Uint8Array([1, 2, 3]));
    const live = blocks.list(id).map((b) => b.objectKey);
    expect(await merger.sweepOrphans()).toBeGreaterThanOrEqual(1);
    const keys = await objects.list(`blocks/${id}/`);
    expect(keys).not.toContain(`blocks/${id}/orphan.merged.qblk`);
    for (const key of live) expect(keys).toContain(key);
  }, 60_000);

  it('never merges blocks of different time spans, and merges any two small blocks of a settled span', () => {
    const HOUR = 3_600_000;
    const b = (id: string, minTime: number, maxTime: number, rowCount = 10) => ({
      id,
      datasetId: 'd',
      objectKey: id,
      rowCount,
      sizeBytes: 1,
      minTime,
      maxTime,
      partition: 0,
      firstOffset: 0,
      lastOffset: 0,
      createdAt: '',
    });
    const blocks = [
      b('h0-a', 10, 20),
      b('h0-b', 30, 40),
      b('h1-a', HOUR + 10, HOUR + 20),
      b('h1-b', HOUR + 30, HOUR + 40),
      // Straddling blocks merge among themselves, by the usual rule (not enough here: 2 blocks, 10 rows).
      b('wide-a', 50, 2 * HOUR, 5),
      b('wide-b', 60, 3 * HOUR, 5),
    ];
    const now = 10 * HOUR;
    const runs = merger.runsOf(blocks, now).map((run) => run.map((x) => x.id));
    expect(runs).toEqual([
      ['h0-a', 'h0-b'],
      ['h1-a', 'h1-b'],
    ]);
    // The current span waits for a run of minRunBlocks (3 in this policy).
    expect(
      merger.runsOf([b('now-a', now + 1, now + 2, 5), b('now-b', now + 3, now + 4, 5)], now + 5),
    ).toEqual([]);
  });
});
