import { exportGauge } from '../support/otlp-json';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';
import { freePort } from '../support/free-port';

/**
 * Regions (issue 14): two clusters on loopback, `us` (the home region) and `eu`, one installation: one
 * PostgreSQL (started by `us`; `eu` keeps its offsets, leases and members in a schema of its own), each
 * its own Kafka and S3. A dataset lives in one region; the main query API of either region answers for
 * both (forwarding), ingest and edge queries sent to the wrong region are refused with where to go.
 */
describeCluster('regions: two clusters, one installation', () => {
  let us: ClusterTarget;
  let eu: ClusterTarget;
  const counts = { ingest: 1, compactor: 1, query: 1, management: 1 };

  beforeAll(async () => {
    const [usPort, euPort] = [await freePort(), await freePort()];
    const regions = { us: `http://127.0.0.1:${usPort}`, eu: `http://127.0.0.1:${euPort}` };
    // Local Kafka and S3 for each (never the environment's shared ones): their data must stay apart.
    const common = { counts, homeRegion: 'us', regions, external: false };
    us = await startClusterTarget({}, { ...common, region: 'us', port: usPort });
    eu = await startClusterTarget(
      {},
      { ...common, region: 'eu', port: euPort, metastoreUrl: us.cluster.metastoreUrl },
    );
    for (const [body, via] of [
      [{ name: 'logs-us' }, us],
      [{ name: 'logs-eu', edgeDeployment: 'eu' }, us], // management is the installation's: any region
      [{ name: 'metrics-eu', kind: 'otel:metrics:v1', edgeDeployment: 'eu' }, eu],
    ] as const)
      expect((await via.request('POST', '/v2/datasets', { body })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await eu?.close();
    await us?.close();
  }, 120_000);

  const ndjson = (events: object[]) => ({
    body: events.map((e) => JSON.stringify(e)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  const count = async (target: ClusterTarget, apl: string, path = '/v1/datasets/_apl') => {
    const res = await target.request('POST', `${path}?format=tabular`, { body: { apl } });
    const body = await res.json();
    return { status: res.status, body, n: body.tables?.[0]?.columns?.[0]?.[0] as number | undefined };
  };

  it('says where each dataset lives, and refuses a region the installation does not have', async () => {
    const eu1 = await (await us.request('GET', '/v2/datasets/logs-eu')).json();
    expect(eu1).toMatchObject({ edgeDeployment: 'eu', edgeDeploymentUrl: eu.url });
    const us1 = await (await eu.request('GET', '/v2/datasets/logs-us')).json();
    expect(us1).toMatchObject({ edgeDeployment: 'us', edgeDeploymentUrl: us.url });
    const org = await (await eu.request('GET', '/v2/orgs')).json();
    expect(org[0]).toMatchObject({ defaultEdgeDeployment: 'us' });
    expect(org[0].license.edgeDeployments).toEqual(['eu', 'us']);
    const bad = await us.request('POST', '/v2/datasets', { body: { name: 'x', edgeDeployment: 'mars' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/"mars" is not a region of this installation; known: eu, us/);
  });

  it('ingests only in the region that stores the dataset; elsewhere 421 says where to go', async () => {
    expect(
      (await eu.request('POST', '/v1/datasets/logs-eu/ingest', ndjson([{ a: 1 }, { a: 2 }]))).status,
    ).toBe(200);
    expect((await us.request('POST', '/v1/datasets/logs-us/ingest', ndjson([{ b: 1 }]))).status).toBe(200);
    const wrong = await us.request('POST', '/v1/datasets/logs-eu/ingest', ndjson([{ a: 3 }]));
    expect(wrong.status).toBe(421);
    const body = await wrong.json();
    expect(body).toMatchObject({ code: 421, error: 'dataset_in_other_region' });
    expect(body.message).toContain(`dataset "logs-eu" lives in region "eu" (${eu.url}), not "us"`);
    expect(body.detail).toMatchObject({ region: 'eu', url: eu.url });
    // Metrics are edge endpoints too.
    const point = { timeMs: Date.now(), value: 1, tags: { host: 'a' } };
    expect(await exportGauge(us, 'metrics-eu', { name: 'load' }, [point])).toBe(421);
    expect(await exportGauge(eu, 'metrics-eu', { name: 'load' }, [point])).toBe(200);
  });

  it("answers the main query API for either region's datasets, from the region that stores them", async () => {
    // Each region's events are only in its own Kafka and S3: a right answer from the other region's
    // gateway can only have come from the region that stores them.
    expect((await count(us, "['logs-eu'] | count")).n).toBe(2);
    expect((await count(eu, "['logs-us'] | count")).n).toBe(1);
    expect((await count(eu, "['logs-eu'] | count")).n).toBe(2);
    await eu.compact();
    expect((await count(us, "['logs-eu'] | where a == 2 | count")).n).toBe(1);
    // A query error from the other region comes back as it is.
    const bad = await count(us, "['logs-eu'] | summarize nope(a)");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/nope/);
  });

  it('refuses edge queries of another region, and queries that span regions', async () => {
    const edge = await count(us, "['logs-eu'] | count", '/v1/query/_apl');
    expect(edge.status).toBe(421);
    expect(edge.body.message).toContain('lives in region "eu"');
    expect((await count(eu, "['logs-eu'] | count", '/v1/query/_apl')).n).toBe(2);
    const both = await count(us, "union ['logs-us'], ['logs-eu'] | count");
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(
      /one region only.*"logs-us" in us.*"logs-eu" in eu|"logs-eu" in eu.*"logs-us" in us/,
    );
  });

  it('keeps each region its own members and offsets', async () => {
    // Node names repeat across regions (query-1 in each); where they are reached does not.
    const members = async (target: ClusterTarget) =>
      ((await (await target.request('GET', '/v1/cluster')).json()).members as { url: string }[])
        .map((m) => m.url)
        .sort();
    const nodes = (target: ClusterTarget) =>
      target.cluster
        .processes()
        .filter((p) => p.role !== 'gateway')
        .map((p) => p.url)
        .sort();
    expect(await members(us)).toEqual(nodes(us));
    expect(await members(eu)).toEqual(nodes(eu));
    // Both regions' compactors committed their own partitions from offset 0 of their own Kafka.
    expect([...(await eu.metastore.blocks.committedOffsets()).values()].some((o) => o > 0)).toBe(true);
  });
});
