import fc from 'fast-check';
import { isQuarryError } from '@quarry/common';
import type { MetricSelection, MetricSeries, MetricTags } from '@quarry/contracts';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import { MetricsInfo } from './metrics-info';
import { MetricsStore } from './metrics-store';
import type { IncomingSeries, MetricMeta, MetricsBatch } from './types';

jest.setTimeout(60_000);

const GAUGE: MetricMeta = { type: 'Gauge', temporality: null, unit: 'By' };
const HIST: MetricMeta = { type: 'Histogram', temporality: 'Delta', unit: 's' };
const str = (value: string) => ({ type: 'string' as const, value });
const int = (value: number) => ({ type: 'int' as const, value });

let metastore: Metastore;
beforeAll(async () => {
  metastore = await Metastore.open(null);
});
afterAll(() => metastore.close());

/** Counts object reads, to check that queries read only the blocks they need. */
class CountingObjectStore extends MemoryObjectStore {
  gets = 0;
  override get(key: string): Promise<Uint8Array> {
    this.gets++;
    return super.get(key);
  }
}

let datasetCounter = 0;
const newDataset = () => `ds-${++datasetCounter}-${Math.random().toString(36).slice(2)}`;

function gauge(tags: MetricTags, points: [number, number][], metric = 'mem'): IncomingSeries {
  return {
    metric,
    tags,
    meta: GAUGE,
    kind: 'scalar',
    times: points.map((p) => p[0]),
    values: points.map((p) => p[1]),
  };
}

async function collect(store: MetricsStore, selection: MetricSelection): Promise<MetricSeries[]> {
  const out: MetricSeries[] = [];
  for await (const s of store.sourceFor((name) => name).selectSeries(selection)) out.push(s);
  return out;
}

const scalarPoints = (s: MetricSeries) => {
  if (s.kind !== 'scalar') throw new Error('expected a scalar series');
  return [...s.times].map((t, i) => [t, s.values[i]]);
};

async function ingest(store: MetricsStore, offsets: { next: number }, batch: MetricsBatch) {
  store.add({ offset: offsets.next++, batch });
}

describe('MetricsStore', () => {
  it('answers from the tail, then identically from blocks after compaction and after a reopen', async () => {
    const objects = new CountingObjectStore();
    const store = await MetricsStore.open(metastore, objects);
    const ds = newDataset();
    const offsets = { next: await store.committedOffset() };
    const a = { host: str('a'), cores: int(4) };
    const b = { host: str('b'), cores: int(8) };
    const entries = [
      {
        offset: offsets.next,
        batch: {
          datasetId: ds,
          series: [
            gauge(a, [
              [100, 1],
              [110, 2],
            ]),
            gauge(b, [[100, 5]]),
          ],
        },
      },
      {
        offset: offsets.next + 1,
        batch: {
          datasetId: ds,
          series: [
            gauge(a, [
              [120, 3],
              [110, 20],
            ]),
          ],
        },
      },
    ];
    for (const e of entries) store.add(e);
    const selection = { dataset: ds, metric: 'mem', start: 0, end: 1000 };
    const fromTail = await collect(store, selection);
    expect(fromTail.map((s) => [s.tags, scalarPoints(s)])).toEqual([
      [
        a,
        [
          [100, 1],
          [110, 20],
          [120, 3],
        ],
      ], // the later point for second 110 wins
      [b, [[100, 5]]],
    ]);

    await store.compact(entries, () => true);
    expect(store.stats.tailPoints).toBe(0);
    expect(await collect(store, selection)).toEqual(fromTail);

    const reopened = await MetricsStore.open(metastore, objects);
    expect(await collect(reopened, selection)).toEqual(fromTail);
    expect(await reopened.committedOffset()).toBe(entries[1].offset + 1);
  });

  it('returns only points in [start, end) and only series with a point there', async () => {
    const store = await MetricsStore.open(metastore, new MemoryObjectStore());
    const ds = newDataset();
    const offsets = { next: 1000 };
    await ingest(store, offsets, {
      datasetId: ds,
      series: [
        gauge({ h: str('early') }, [
          [10, 1],
          [20, 2],
        ]),
        gauge({ h: str('late') }, [
          [30, 3],
          [40, 4],
        ]),
      ],
    });
    const got = await collect(store, { dataset: ds, metric: 'mem', start: 20, end: 40 });
    expect(got.map((s) => [s.tags.h.value, scalarPoints(s)])).toEqual([
      ['early', [[20, 2]]],
      ['late', [[30, 3]]],
    ]);
    expect(await collect(store, { dataset: ds, metric: 'mem', start: 41, end: 50 })).toEqual([]);
    expect(await collect(store, { dataset: ds, metric: 'other', start: 0, end: 50 })).toEqual([]);
  });

  it('applies the tag predicate before reading points', async () => {
    const store = await MetricsStore.open(metastore, new MemoryObjectStore());
    const ds = newDataset();
    store.add({
      offset: 5000,
      batch: { datasetId: ds, series: [gauge({ h: str('x') }, [[1, 1]]), gauge({ h: str('y') }, [[1, 2]])] },
    });
    const seen: string[] = [];
    const got = await collect(store, {
      dataset: ds,
      metric: 'mem',
      start: 0,
      end: 10,
      tagPredicate: (tags) => {
        seen.push(String(tags.h.value));
        return tags.h.value === 'y';
      },
    });
    expect(got.map((s) => s.tags.h.value)).toEqual(['y']);
    expect(seen.sort()).toEqual(['x', 'y']);
  });

  it('splits blocks by time bucket and reads only the buckets a query overlaps', async () => {
    const objects = new CountingObjectStore();
    const store = await MetricsStore.open(metastore, objects, { bucketSeconds: 100 });
    const ds = newDataset();
    const points: [number, number][] = Array.from({ length: 10 }, (_, i) => [i * 50, i]);
    const entry = { offset: 7000, batch: { datasetId: ds, series: [gauge({ h: str('x') }, points)] } };
    store.add(entry);
    const result = await store.compact([entry], () => true);
    expect(result).toEqual({ blocks: 5, points: 10 });
    objects.gets = 0;
    const got = await collect(store, { dataset: ds, metric: 'mem', start: 200, end: 300 });
    expect(got.map(scalarPoints)).toEqual([
      [
        [200, 4],
        [250, 5],
      ],
    ]);
    expect(objects.gets).toBe(1);
  });

  it('decodes and caches only the series a query selects from a block', async () => {
    const objects = new CountingObjectStore();
    const store = await MetricsStore.open(metastore, objects);
    const ds = newDataset();
    const entry = {
      offset: 7500,
      batch: { datasetId: ds, series: [gauge({ h: str('x') }, [[1, 1]]), gauge({ h: str('y') }, [[1, 2]])] },
    };
    store.add(entry);
    await store.compact([entry], () => true);
    const only = (h: string) =>
      collect(store, { dataset: ds, metric: 'mem', start: 0, end: 10, tagPredicate: (t) => t.h.value === h });
    objects.gets = 0;
    expect((await only('x')).map(scalarPoints)).toEqual([[[1, 1]]]);
    expect(objects.gets).toBe(1);
    // x is cached; y was never decoded, so reading it fetches the block again, once.
    expect((await only('x')).map(scalarPoints)).toEqual([[[1, 1]]]);
    expect(objects.gets).toBe(1);
    expect((await only('y')).map(scalarPoints)).toEqual([[[1, 2]]]);
    expect(objects.gets).toBe(2);
    expect((await collect(store, { dataset: ds, metric: 'mem', start: 0, end: 10 })).length).toBe(2);
    expect(objects.gets).toBe(2);
  });

  it('keeps histogram points with their buckets and the metric temporality', async () => {
    const store = await MetricsStore.open(metastore, new MemoryObjectStore());
    const ds = newDataset();
    const point = { time: 60, count: 2, sum: 1.5, min: 0.5, max: 1, bounds: [1], counts: [1, 1] };
    const entry = {
      offset: 8000,
      batch: {
        datasetId: ds,
        series: [{ metric: 'lat', tags: {}, meta: HIST, kind: 'histogram' as const, points: [point] }],
      },
    };
    store.add(entry);
    await store.compact([entry], () => true);
    const got = await collect(store, { dataset: ds, metric: 'lat', start: 0, end: 100 });
    expect(got).toEqual([
      { kind: 'histogram', metric: 'lat', tags: {}, unit: 's', temporality: 'Delta', points: [point] },
    ]);
  });

  it('fails a query that would read more points than allowed', async () => {
    const store = await MetricsStore.open(metastore, new MemoryObjectStore(), { maxPointsPerQuery: 3 });
    const ds = newDataset();
    store.add({
      offset: 9000,
      batch: {
        datasetId: ds,
        series: [
          gauge({}, [
            [1, 1],
            [2, 2],
            [3, 3],
            [4, 4],
          ]),
        ],
      },
    });
    const err = await collect(store, { dataset: ds, metric: 'mem', start: 0, end: 10 }).catch(
      (e: unknown) => e,
    );
    expect(isQuarryError(err) && err.kind).toBe('invalid');
    expect(isQuarryError(err) && [err.code, err.message]).toEqual([
      'mpl_limit_exceeded',
      'query exceeds the limit of 3 points read; shorten the time range or select fewer series with where clauses',
    ]);
  });

  it('forgets a deleted dataset: catalog, tail, block rows and objects', async () => {
    const objects = new MemoryObjectStore();
    const store = await MetricsStore.open(metastore, objects);
    const ds = newDataset();
    const entry = { offset: 10_000, batch: { datasetId: ds, series: [gauge({ h: str('x') }, [[1, 1]])] } };
    store.add(entry);
    await store.compact([entry], () => true);
    store.add({ offset: 10_001, batch: { datasetId: ds, series: [gauge({ h: str('x') }, [[2, 2]])] } });
    expect(await objects.list(`metrics/${ds}/`)).toHaveLength(1);
    expect(await store.deleteDataset(ds)).toBe(1);
    expect(await objects.list(`metrics/${ds}/`)).toEqual([]);
    expect(await collect(store, { dataset: ds, metric: 'mem', start: 0, end: 10 })).toEqual([]);
    expect(new MetricsInfo(store.catalog).metrics(ds)).toEqual([]);
    const reopened = await MetricsStore.open(metastore, objects);
    expect(await collect(reopened, { dataset: ds, metric: 'mem', start: 0, end: 10 })).toEqual([]);
  });

  it('skips records of datasets deleted before compaction but still commits their offsets', async () => {
    const objects = new MemoryObjectStore();
    const store = await MetricsStore.open(metastore, objects);
    const ds = newDataset();
    const entry = { offset: 11_000, batch: { datasetId: ds, series: [gauge({}, [[1, 1]])] } };
    expect(await store.compact([entry], () => false)).toEqual({ blocks: 0, points: 0 });
    expect(await objects.list(`metrics/${ds}/`)).toEqual([]);
    expect(await store.committedOffset()).toBeGreaterThanOrEqual(11_001);
  });

  it('redoes a compaction step that crashed before its commit without duplicating points', async () => {
    const objects = new MemoryObjectStore();
    const ds = newDataset();
    const entry = {
      offset: 12_000,
      batch: {
        datasetId: ds,
        series: [
          gauge({ h: str('x') }, [
            [1, 1],
            [2, 2],
          ]),
        ],
      },
    };
    // The first attempt uploads its block, then the metastore commit fails (a crash at that point).
    const failing = Object.create(metastore) as Metastore;
    Object.defineProperty(failing, 'metricSeries', {
      value: Object.assign(Object.create(metastore.metricSeries), {
        commit: () => Promise.reject(new Error('crash before commit')),
      }),
    });
    const first = await MetricsStore.open(failing, objects);
    first.add(entry);
    await expect(first.compact([entry], () => true)).rejects.toThrow('crash before commit');
    expect(await objects.list(`metrics/${ds}/`)).toHaveLength(1);

    // After a restart the log is replayed and compacted again: same block id, registered once.
    const second = await MetricsStore.open(metastore, objects);
    second.add(entry);
    const blocksBefore = second.stats.blocks;
    await second.compact([entry], () => true);
    expect(second.stats.blocks).toBe(blocksBefore + 1);
    await second.compact([entry], () => true); // a repeated step is a no-op too
    expect(second.stats.blocks).toBe(blocksBefore + 1);
    const reopened = await MetricsStore.open(metastore, objects);
    expect(reopened.stats.blocks).toBe(blocksBefore + 1);
    const got = await collect(reopened, { dataset: ds, metric: 'mem', start: 0, end: 10 });
    expect(got.map(scalarPoints)).toEqual([
      [
        [1, 1],
        [2, 2],
      ],
    ]);
    expect(await objects.list(`metrics/${ds}/`)).toHaveLength(1);
  });

  it('merges the blocks of a finished bucket into one, with the same answers, and deletes the inputs later', async () => {
    const objects = new MemoryObjectStore();
    const store = await MetricsStore.open(metastore, objects, { bucketSeconds: 100 });
    const ds = newDataset();
    // Five compaction steps into bucket [100, 200), one of them rewriting second 110; one into [200, 300).
    const steps: [number, number][][] = [
      [[100, 1]],
      [[110, 2]],
      [[120, 3]],
      [[110, 20]],
      [[130, 4]],
      [[210, 5]],
    ];
    let offset = 13_000;
    for (const points of steps) {
      const entry = { offset: offset++, batch: { datasetId: ds, series: [gauge({ h: str('x') }, points)] } };
      store.add(entry);
      await store.compact([entry], () => true);
    }
    const selection = { dataset: ds, metric: 'mem', start: 0, end: 1000 };
    const before = await collect(store, selection);
    expect(before.map(scalarPoints)).toEqual([
      [
        [100, 1],
        [110, 20],
        [120, 3],
        [130, 4],
        [210, 5],
      ],
    ]);
    const blocksBefore = store.stats.blocks;

    // At t=250 bucket 1 is over (merged), bucket 2 is still being written (left alone).
    expect(await store.mergeBlocks(250, (id) => id === ds)).toBe(1);
    expect(store.stats.blocks).toBe(blocksBefore - 4);
    expect(await collect(store, selection)).toEqual(before);
    expect(await objects.list(`metrics/${ds}/`)).toHaveLength(7); // inputs kept for in-flight queries

    const reopened = await MetricsStore.open(metastore, objects, { bucketSeconds: 100 });
    expect(await collect(reopened, selection)).toEqual(before);
    expect(await store.mergeBlocks(250 + 61, (id) => id === ds)).toBe(0);
    expect(await objects.list(`metrics/${ds}/`)).toHaveLength(2);
    expect(await collect(store, selection)).toEqual(before);
  });

  it('agrees with a simple model for any interleaving of ingest, compaction and merges', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            host: fc.constantFrom('a', 'b', 'c'),
            points: fc.array(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: -5, max: 5 })), {
              maxLength: 6,
            }),
            compactAfter: fc.boolean(),
            mergeAfter: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 200 }),
        async (requests, start, length) => {
          const store = await MetricsStore.open(metastore, new MemoryObjectStore(), { bucketSeconds: 60 });
          const ds = newDataset();
          const model = new Map<string, Map<number, number>>();
          let offset = 20_000;
          let pending: { offset: number; batch: MetricsBatch }[] = [];
          for (const r of requests) {
            const entry = {
              offset: offset++,
              batch: { datasetId: ds, series: [gauge({ host: str(r.host) }, r.points)] },
            };
            store.add(entry);
            pending.push(entry);
            const series = model.get(r.host) ?? new Map<number, number>();
            for (const [t, v] of r.points) series.set(t, v);
            model.set(r.host, series);
            if (r.compactAfter) {
              await store.compact(pending, () => true);
              pending = [];
            }
            if (r.mergeAfter) await store.mergeBlocks(1_000, (id) => id === ds);
          }
          const end = start + length;
          const got = await collect(store, { dataset: ds, metric: 'mem', start, end });
          const actual = Object.fromEntries(got.map((s) => [String(s.tags.host.value), scalarPoints(s)]));
          const expected: Record<string, number[][]> = {};
          for (const [host, points] of model) {
            const inside = [...points].filter(([t]) => t >= start && t < end).sort((x, y) => x[0] - y[0]);
            if (inside.length > 0) expected[host] = inside;
          }
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('MetricsInfo', () => {
  it('lists metrics, tags and typed values, limited to series active in the window', async () => {
    const store = await MetricsStore.open(metastore, new MemoryObjectStore());
    const ds = newDataset();
    store.add({
      offset: 30_000,
      batch: {
        datasetId: ds,
        series: [
          gauge({ host: str('a'), cores: int(4) }, [[100, 1]]),
          gauge({ host: str('d'), cores: int(32) }, [[500, 1]]),
          {
            ...gauge({ route: str('/x'), code: str('200') }, [[100, 1]], 'requests'),
            meta: { type: 'CounterMonotonic', temporality: 'Cumulative', unit: null },
          },
        ],
      },
    });
    const info = new MetricsInfo(store.catalog);
    expect(info.metrics(ds).map(([name, meta]) => [name, meta.type])).toEqual([
      ['mem', 'Gauge'],
      ['requests', 'CounterMonotonic'],
    ]);
    expect(info.metrics(ds, { start: 400, end: 600 }).map(([name]) => name)).toEqual(['mem']);
    expect(info.metricTags(ds, 'mem')).toEqual(['cores', 'host']);
    expect(info.metricTags(ds, 'nope')).toBeNull();
    expect(info.metricTagValues(ds, 'mem', 'host', { start: 0, end: 200 })).toEqual([str('a')]);
    expect(info.metricTagValues(ds, 'mem', 'cores')).toEqual([int(4), int(32)]);
    expect(info.datasetTags(ds)).toEqual(['code', 'cores', 'host', 'route']);
    expect(info.datasetTagValues(ds, 'code')).toEqual([str('200')]);
    expect(info.findMetrics(ds, 32)).toEqual({ mem: ['cores'] });
    expect(info.findMetrics(ds, '200')).toEqual({ requests: ['code'] });
    expect(info.findMetrics(ds, 200)).toEqual({});
  });
});
