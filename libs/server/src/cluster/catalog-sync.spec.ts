import fc from 'fast-check';
import { blockIdFor, batchFromEvents, type BlockRecord } from '@quarry/contracts';
import { Metastore, type DatasetRecord } from '@quarry/metastore';
import { BlockIndex } from '../storage/block-index';
import { DatasetRegistry } from '../storage/dataset-registry';
import { TailBuffer } from '../storage/tail-buffer';
import { addToTail } from '../storage/tail-testing';
import { CatalogSync } from './catalog-sync';

/**
 * A cluster node's copy of the catalog (ADR 0005): blocks and committed offsets come from one snapshot,
 * and the tail keeps every record at or above the committed offsets, so at every moment the node sees
 * each record exactly once — whatever the interleaving of compactions (other processes) and refreshes.
 */
describe('CatalogSync', () => {
  let metastore: Metastore;
  let datasets = 0;

  beforeAll(async () => {
    metastore = await Metastore.open(null);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  async function dataset(): Promise<DatasetRecord> {
    return metastore.datasets.create({
      name: `ds${++datasets}`,
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
  }

  function node() {
    const registry = new DatasetRegistry();
    const blocks = new BlockIndex();
    const tail = new TailBuffer();
    const sync = new CatalogSync(metastore, { registry, blocks, tail, metrics: null });
    return { registry, blocks, tail, sync };
  }

  const record = (datasetId: string, rows: number) => ({
    datasetId,
    sysTime: 1,
    batch: batchFromEvents(
      Array.from({ length: rows }, (_, i) => ({ time: 1000 + i, fields: { i } })),
      1,
    ),
  });

  function block(
    datasetId: string,
    partition: number,
    first: number,
    last: number,
    rows: number,
  ): BlockRecord {
    const id = blockIdFor(datasetId, partition, first, last);
    return {
      id,
      datasetId,
      objectKey: `blocks/${datasetId}/${id}.qblk`,
      rowCount: rows,
      sizeBytes: 1,
      minTime: 1000,
      maxTime: 2000,
      partition,
      firstOffset: first,
      lastOffset: last,
      createdAt: new Date().toISOString(),
    };
  }

  /** Rows the node would scan for a dataset: its blocks plus its tail, as a query's snapshot takes them. */
  function visibleRows(n: ReturnType<typeof node>, datasetId: string): number {
    let rows = 0;
    for (const b of n.blocks.list(datasetId)) rows += b.rowCount;
    for (const e of n.tail.snapshot(datasetId)) rows += e.rows;
    return rows;
  }

  it('sees every record exactly once for any interleaving of compactions, follower reads and refreshes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('append' as const),
              partition: fc.integer({ min: 0, max: 2 }),
              rows: fc.integer({ min: 1, max: 5 }),
            }),
            fc.record({ kind: fc.constant('compact' as const), partition: fc.integer({ min: 0, max: 2 }) }),
            fc.record({ kind: fc.constant('follow' as const) }),
            fc.record({ kind: fc.constant('refresh' as const) }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        async (steps) => {
          const ds = await dataset();
          // What the shared log holds, per partition (rows per offset), and what compactors committed.
          const log = new Map<number, number[]>([0, 1, 2].map((p) => [p, []]));
          const committed = new Map<number, number>([0, 1, 2].map((p) => [p, 0]));
          const followed = new Map<number, number>([0, 1, 2].map((p) => [p, 0]));
          const n = node();
          // Offsets of other tests' datasets are not zero: start from what the metastore has.
          for (const [p, o] of await metastore.blocks.committedOffsets()) {
            committed.set(p, o);
            followed.set(p, o);
            log.set(
              p,
              Array.from({ length: o }, () => 0),
            );
          }
          await n.sync.refresh();
          let appended = 0;
          for (const step of steps) {
            if (step.kind === 'append') {
              log.get(step.partition)!.push(step.rows);
              appended += step.rows;
            } else if (step.kind === 'compact') {
              const records = log.get(step.partition)!;
              const from = committed.get(step.partition)!;
              if (from >= records.length) continue;
              const rows = records.slice(from).reduce((a, b) => a + b, 0);
              const last = records.length - 1;
              await metastore.blocks.registerBlocks(
                rows > 0 ? [block(ds.id, step.partition, from, last, rows)] : [],
                { partition: step.partition, offset: last + 1, expectedOffset: from },
              );
              committed.set(step.partition, last + 1);
            } else if (step.kind === 'follow') {
              // The node's log follower hands over whatever it has not read yet.
              for (const [p, records] of log) {
                for (let offset = followed.get(p)!; offset < records.length; offset++) {
                  if (records[offset] > 0)
                    addToTail(n.tail, { partition: p, offset }, record(ds.id, records[offset]));
                }
                followed.set(p, records.length);
              }
            } else {
              await n.sync.refresh();
            }
            // Never more than once; and after following everything, exactly everything.
            expect(visibleRows(n, ds.id)).toBeLessThanOrEqual(appended);
          }
          for (const [p, records] of log) {
            for (let offset = followed.get(p)!; offset < records.length; offset++)
              if (records[offset] > 0)
                addToTail(n.tail, { partition: p, offset }, record(ds.id, records[offset]));
          }
          expect(visibleRows(n, ds.id)).toBe(appended);
          await n.sync.refresh();
          expect(visibleRows(n, ds.id)).toBe(appended);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('forgets a dataset deleted by another process: registry, blocks and tail', async () => {
    const ds = await dataset();
    const n = node();
    await n.sync.refresh();
    const next = (await metastore.blocks.committedOffset(7)) ?? 0;
    await metastore.blocks.registerBlocks([block(ds.id, 7, next, next, 3)], {
      partition: 7,
      offset: next + 1,
      expectedOffset: next,
    });
    addToTail(n.tail, { partition: 7, offset: next + 1 }, record(ds.id, 2));
    await n.sync.refresh();
    expect(n.registry.getById(ds.id)?.name).toBe(ds.name);
    expect(visibleRows(n, ds.id)).toBe(5);

    await metastore.transaction(async (tx) => {
      await tx.blocks.deleteBlocksOfDataset(ds.id);
      await tx.datasets.delete(ds.id);
    });
    await n.sync.refresh();
    expect(n.registry.getById(ds.id)).toBeUndefined();
    expect(n.blocks.list(ds.id)).toEqual([]);
    expect(n.tail.snapshot(ds.id)).toEqual([]);
  });

  it('answers an unchanged catalog with one statement, and a refresh requested after a change sees it', async () => {
    const n = node();
    await n.sync.refresh();
    const snapshot = jest.spyOn(metastore, 'snapshot');
    await n.sync.refresh();
    await n.sync.refresh();
    expect(snapshot).not.toHaveBeenCalled();
    expect(n.sync.totals.unchanged).toBe(2);

    // Concurrent callers share refreshes; each sees what was committed before it called.
    const created = await dataset();
    const calls = await Promise.all([n.sync.refresh(), n.sync.refresh(), n.sync.refresh()]);
    expect(calls).toHaveLength(3);
    expect(n.registry.getByName(created.name)?.id).toBe(created.id);
    expect(snapshot.mock.calls.length).toBeLessThanOrEqual(2);
    snapshot.mockRestore();
  });
});
