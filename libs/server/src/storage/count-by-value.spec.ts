import { MemoryIngestLog } from '@quarry/log';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import { batchFromEvents, emptyScanStats, type DatasetSource, type FieldValue } from '@quarry/contracts';
import { runApl } from '@quarry/query';
import { encodeLogRecord } from './log-codec';
import type { StorageCatalog } from './storage-catalog';
import { bootStorage } from './storage-testing';
import { addToTail } from './tail-testing';

/**
 * `summarize count() by S` and `where S op "x" | count` answered from the blocks' value counts
 * (count-by-value.ts, `countValuesInParts`) give exactly what the general path gives: the same catalog is
 * queried with and without `countValues`.
 */
describe('counts by value from block metadata', () => {
  let metastore: Metastore;
  let catalog: StorageCatalog;
  const BLOCKS = 5;
  const ROWS = 400;

  /** A small deterministic generator (mulberry32), so every run checks the same data. */
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  beforeAll(async () => {
    metastore = await Metastore.open(null);
    const log = new MemoryIngestLog();
    const storage = await bootStorage(log, new MemoryObjectStore(), metastore);
    const { registry, blocks, tail, compactor } = storage;
    catalog = storage.catalog;
    const dataset = await metastore.datasets.create({
      name: 'ds',
      description: '',
      kind: 'axiom:events:v1',
      who: 'u',
    });
    registry.put(dataset);
    const rnd = random(7);
    const STATUS = ['200', '404', '500', '', 'ok', 'OK'];
    // BLOCKS blocks and one tail record; t = 1000·k + i.
    for (let k = 0; k <= BLOCKS; k++) {
      const events = Array.from({ length: ROWS }, (_, i) => {
        // `wide`: too much text for value counts (VALUE_COUNTS_MAX_CHARS).
        const fields: Record<string, FieldValue> = { wide: `w${k * ROWS + i}-${'x'.repeat(60)}` };
        if (rnd() < 0.9) fields.status = STATUS[Math.floor(rnd() * STATUS.length)];
        // A string in some blocks, a number in others.
        fields.mixed = k === 2 ? i : `m${i % 3}`;
        if (k !== 3) fields.sometimes = `v${i % 4}`;
        return { time: 1000 * k + i, fields };
      });
      const record = { datasetId: dataset.id, sysTime: 1, batch: batchFromEvents(events, 1) };
      const [position] = await log.append(dataset.id, [encodeLogRecord(record)]);
      addToTail(tail, position, record);
      if (k < BLOCKS) await compactor.flush();
    }
    expect(blocks.list(dataset.id)).toHaveLength(BLOCKS);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  async function run(apl: string, startMs: number, endMs: number, useCounts: boolean) {
    const source = (await catalog.getDataset('ds'))!;
    let answered = 0;
    const wrapped: DatasetSource = {
      name: source.name,
      schema: () => source.schema(),
      scan: (request) => source.scan(request),
      countRows: source.countRows?.bind(source),
      ...(useCounts
        ? {
            countValues: async (...args: Parameters<NonNullable<DatasetSource['countValues']>>) => {
              const counts = await source.countValues!(...args);
              if (counts !== null) answered++;
              return counts;
            },
          }
        : {}),
    };
    const out = await runApl(apl, {
      startMs,
      endMs,
      nowMs: 1e6,
      catalog: { getDataset: async () => wrapped },
    });
    const t = out.tables[0];
    const rows = Array.from({ length: t.columns[0]?.length ?? 0 }, (_, r) =>
      JSON.stringify(t.columns.map((c) => c[r])),
    );
    return { fields: t.fields, rows: rows.sort(), answered, rowsExamined: out.stats.rowsExamined };
  }

  const QUERIES = [
    "['ds'] | summarize count() by status",
    "['ds'] | summarize c = count(), d = count() by status",
    "['ds'] | where status == '500' | count",
    "['ds'] | where status != '500' | count",
    "['ds'] | where status == 'ok' | summarize count()",
    "['ds'] | where status >= 'OK' | count",
    "['ds'] | where status == '' | count",
    "['ds'] | where status == 'none' | count",
    "['ds'] | where status == '404' | summarize count() by status",
    "['ds'] | summarize c = count() by status | top 2 by c",
    "['ds'] | summarize count() by sometimes",
    "['ds'] | where sometimes == 'v1' | count",
  ];
  const WINDOWS: [number, number][] = [
    [0, 1e6],
    [0, 2000],
    [500, 3500],
    [1000, 1001],
    [5000, 6000],
    [7000, 8000],
  ];

  it.each(QUERIES)('%s: the same answer from value counts as from a scan, in every window', async (apl) => {
    for (const [start, end] of WINDOWS) {
      const fast = await run(apl, start, end, true);
      const general = await run(apl, start, end, false);
      expect({ window: [start, end], rows: fast.rows, fields: fast.fields }).toEqual({
        window: [start, end],
        rows: general.rows,
        fields: general.fields,
      });
      expect(fast.answered).toBe(1);
      // With a filter the general path may prune blocks first (rows it never examined); counts read them all.
      if (!apl.includes('where')) expect(fast.rowsExamined).toBe(general.rowsExamined);
    }
  });

  it.each([
    ["['ds'] | summarize count() by mixed", 'a column that is a number in some block'],
    ["['ds'] | summarize count() by wide", 'a column with too many distinct values for counts'],
  ])('%s: %s takes the general path, with the same answer', async (apl) => {
    const fast = await run(apl, 0, 1e6, true);
    const general = await run(apl, 0, 1e6, false);
    expect(fast.answered).toBe(0);
    expect(fast.rows).toEqual(general.rows);
  });

  it('refuses more groups than the query limit, as a scan does', async () => {
    const source = (await catalog.getDataset('ds'))!;
    const out = runApl("['ds'] | summarize count() by status", {
      startMs: 0,
      endMs: 1e6,
      nowMs: 1e6,
      catalog: { getDataset: async () => source },
      limits: { maxGroups: 3 },
    });
    await expect(out).rejects.toMatchObject({ code: 'query_limit_exceeded' });
  });

  it('reads no column of the blocks inside the window', async () => {
    const source = (await catalog.getDataset('ds'))!;
    const stats = emptyScanStats();
    const reader = catalog.reader;
    const open = jest.spyOn(reader, 'open');
    const counts = await source.countValues!('status', 0, 1e6, stats);
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
    expect([...counts!.values()].reduce((a, b) => a + b, 0)).toBe((BLOCKS + 1) * ROWS);
    expect(stats).toMatchObject({
      blocksExamined: BLOCKS + 1, // and the tail record, scanned
      blocksMatched: BLOCKS + 1,
      rowsExamined: (BLOCKS + 1) * ROWS,
    });
  });
});
