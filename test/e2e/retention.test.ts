import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * Dataset retention (`retentionDays` on `/v2/datasets`) is enforced by the compactor's periodic sweep
 * (QUARRY_RETENTION_INTERVAL_MS): blocks whose newest event is older than the retention are dropped;
 * newer events stay, and a dataset without retention keeps everything.
 */
const DAY_MS = 86_400_000;

describe('dataset retention', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ QUARRY_RETENTION_INTERVAL_MS: '200' });
  });
  afterAll(() => server?.close());

  const ingest = async (dataset: string, times: number[]) => {
    const events = times.map((t, i) => ({ _time: new Date(t).toISOString(), n: i }));
    const res = await server.request('POST', `/v1/datasets/${dataset}/ingest`, { body: events });
    expect(res.status).toBe(200);
    // Each batch becomes its own block (the old and the new events never share one).
    await server.compact();
  };
  const count = async (dataset: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: `['${dataset}'] | count`, startTime: 'now-30d', endTime: 'now+1d' },
    });
    const body = await res.json();
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return rowsOf(body.tables[0])[0].count as number;
  };
  const deletedTotal = async () => {
    const text = await (await server.request('GET', '/metrics')).text();
    const match = /^quarry_retention_blocks_deleted_total (\d+)$/m.exec(text);
    expect(match).not.toBeNull();
    return Number(match![1]);
  };

  it('drops the blocks older than retentionDays and keeps new events and datasets without retention', async () => {
    for (const body of [{ name: 'ret-short', retentionDays: 1 }, { name: 'ret-keep' }]) {
      const res = await server.request('POST', '/v2/datasets', { body });
      expect(res.status).toBe(200);
    }
    const view = await (await server.request('GET', '/v2/datasets/ret-short')).json();
    expect(view).toMatchObject({ retentionDays: 1 });
    expect(await deletedTotal()).toBe(0);

    const old = Date.now() - 3 * DAY_MS;
    for (const dataset of ['ret-short', 'ret-keep']) {
      await ingest(dataset, [old, old + 1_000, old + 2_000]);
      await ingest(dataset, [Date.now() - 1_000, Date.now()]);
    }

    // The sweep runs every 200 ms: wait (bounded) for the old block to go.
    const deadline = Date.now() + 15_000;
    while ((await count('ret-short')) !== 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await count('ret-short')).toBe(2);
    const left = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: `['ret-short'] | where _time < ago(1d) | count`, startTime: 'now-30d', endTime: 'now+1d' },
    });
    expect(rowsOf((await left.json()).tables[0])[0].count).toBe(0);
    expect(await count('ret-keep')).toBe(5);
    expect(await deletedTotal()).toBe(1);

    // Later rounds find nothing more to drop.
    await new Promise((r) => setTimeout(r, 500));
    expect(await count('ret-short')).toBe(2);
    expect(await count('ret-keep')).toBe(5);
    expect(await deletedTotal()).toBe(1);
  }, 40_000);
});
