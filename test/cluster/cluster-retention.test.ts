import { rowsOf } from '../support/test-server';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';

/**
 * Dataset retention in the cluster shape: the compactor node holding the merge lease runs the retention
 * sweep over the metastore's block lists; query nodes stop seeing the dropped blocks through their
 * catalog sync. A dataset without retention keeps everything.
 */
const DAY_MS = 86_400_000;

describeCluster('cluster retention', () => {
  let target: ClusterTarget;
  beforeAll(async () => {
    target = await startClusterTarget({ QUARRY_RETENTION_INTERVAL_MS: '300' });
  }, 180_000);
  afterAll(async () => {
    await target?.close();
  }, 120_000);

  const ingest = async (dataset: string, times: number[]) => {
    const events = times.map((t, i) => ({ _time: new Date(t).toISOString(), n: i }));
    const res = await target.request('POST', `/v1/datasets/${dataset}/ingest`, { body: events });
    expect(res.status).toBe(200);
    // Each batch is its own block: the old and the new events never share one.
    await target.compact();
  };
  const count = async (dataset: string) => {
    const res = await target.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: `['${dataset}'] | count`, startTime: 'now-30d', endTime: 'now+1d' },
    });
    const body = await res.json();
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return rowsOf(body.tables[0])[0].count as number;
  };

  it('drops blocks past retentionDays on the lease holder; query nodes stop seeing them', async () => {
    const suffix = Date.now();
    const short = `ret-short-${suffix}`;
    const keep = `ret-keep-${suffix}`;
    for (const body of [{ name: short, retentionDays: 1 }, { name: keep }])
      expect((await target.request('POST', '/v2/datasets', { body })).status).toBe(200);
    const old = Date.now() - 3 * DAY_MS;
    for (const dataset of [short, keep]) {
      await ingest(dataset, [old, old + 1_000, old + 2_000]);
      await ingest(dataset, [Date.now() - 1_000, Date.now()]);
    }
    const deadline = Date.now() + 30_000;
    while ((await count(short)) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await count(short)).toBe(2);
    expect(await count(keep)).toBe(5);
    const shortId = (await target.metastore.datasets.getByName(short))!.id;
    const left = await target.metastore.blocks.listBlocks(shortId);
    expect(left.every((b) => b.maxTime >= Date.now() - DAY_MS)).toBe(true);
  }, 90_000);
});
