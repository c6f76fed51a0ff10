import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 17: the query workers forget blocks that are gone. Each query worker caches decoded columns,
 * files, footers and token filters of the blocks it scanned; when blocks leave the index (a dataset
 * deleted, a trim, a merge), the catalog tells every worker to drop them, so their bytes are released
 * at once instead of staying until LRU pressure pushes them out. Without that wiring the workers' cache
 * bytes stay where they were after the delete and the trim, and this suite fails.
 */
describe('query workers drop the cached bytes of blocks that left the index', () => {
  let server: TestServer;
  const hour = 3_600_000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    server = await startTestServer({
      QUARRY_QUERY_WORKERS: '2',
      // Every summarize over two blocks or more goes to the workers.
      QUARRY_QUERY_SPLIT_MIN_ROWS: '1',
      // No merge during the test (merged-away blocks are forgotten after the merger's grace period).
      QUARRY_MERGE_INTERVAL_MS: '3600000',
    });
    for (const name of ['keep', 'gone', 'old'])
      expect((await server.request('POST', '/v2/datasets', { body: { name } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Bytes of every block-reader cache of every query worker, as /metrics reports them. */
  const workerCacheBytes = async (): Promise<number> => {
    const text = await fetch(`${server.url}/metrics`).then((r) => r.text());
    let sum = 0;
    for (const m of text.matchAll(/^quarry_cache_bytes\{thread="query-\d+",cache="\w+"\} (\d+)$/gm))
      sum += Number(m[1]);
    return sum;
  };

  /** What the workers report once their next report is in (they write it every 2 s). */
  const settledCacheBytes = async (): Promise<number> => {
    await sleep(2_500);
    return workerCacheBytes();
  };

  /** Two compactions, so the dataset has at least two blocks (a split needs two). */
  const fill = async (dataset: string, baseMs: number) => {
    for (let round = 0; round < 2; round++) {
      const events = Array.from({ length: 2_000 }, (_, i) => ({
        _time: new Date(baseMs + round * 1000 + i).toISOString(),
        k: `key-${i % 50}`,
        msg: `event ${round}-${i} of ${dataset} ${'x'.repeat(i % 40)}`,
        n: i,
      }));
      const res = await server.request('POST', `/v1/datasets/${dataset}/ingest`, { body: events });
      expect(res.status).toBe(200);
      await server.compact();
    }
    expect(
      server.quarry.storage.blocks.list(server.quarry.storage.registry.getByName(dataset)!.id).length,
    ).toBe(2);
  };

  const summarize = async (dataset: string, fromMs: number) => {
    const splitsBefore = server.quarry.storage.querySplits;
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: {
        apl: `['${dataset}'] | summarize count(), max(n) by k`,
        startTime: new Date(fromMs - hour).toISOString(),
        endTime: new Date(fromMs + hour).toISOString(),
      },
    });
    expect(res.status).toBe(200);
    // The workers scanned the blocks (not the main thread).
    expect(server.quarry.storage.querySplits).toBeGreaterThan(splitsBefore);
    // A search over msg reads its token filters too.
    const search = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: {
        apl: `['${dataset}'] | where msg has "event" | summarize count() by k`,
        startTime: new Date(fromMs - hour).toISOString(),
        endTime: new Date(fromMs + hour).toISOString(),
      },
    });
    expect(search.status).toBe(200);
  };

  const waitFor = async (want: number): Promise<number> => {
    let got = await workerCacheBytes();
    for (let i = 0; i < 40 && got !== want; i++) {
      await sleep(250);
      got = await workerCacheBytes();
    }
    return got;
  };

  it('a deleted dataset and a trim release exactly the bytes their blocks held in the workers', async () => {
    const now = Date.now();
    await fill('keep', now - 2 * 60_000);
    await summarize('keep', now);
    const kept = await settledCacheBytes();
    expect(kept).toBeGreaterThan(0);

    // Deleting a dataset: what its blocks filled in the workers goes, what `keep` filled stays.
    await fill('gone', now - 60_000);
    await summarize('gone', now);
    const withGone = await settledCacheBytes();
    expect(withGone).toBeGreaterThan(kept);
    expect((await server.request('DELETE', '/v2/datasets/gone')).status).toBe(204);
    expect(await waitFor(kept)).toBe(kept);

    // A trim of blocks older than an hour: the same.
    const tenDaysAgo = now - 10 * 24 * hour;
    await fill('old', tenDaysAgo);
    await summarize('old', tenDaysAgo);
    const withOld = await settledCacheBytes();
    expect(withOld).toBeGreaterThan(kept);
    const trim = await server.request('POST', '/v2/datasets/old/trim', { body: { maxDuration: '1h' } });
    expect(trim.status).toBe(204);
    expect(await waitFor(kept)).toBe(kept);
  });
});
