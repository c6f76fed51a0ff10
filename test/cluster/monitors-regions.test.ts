import { startHttpReceiver, type HttpReceiver } from '@quarry/alerting/testing';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';
import { freePort } from '../support/free-port';

/**
 * Monitors and regions (issue 16): two clusters, `us` (home) and `eu`, one installation. The monitors
 * are the installation's, but each is run by the management node of the region its dataset lives in —
 * the only region whose query nodes hold that dataset's events — and by no other.
 */
describeCluster('monitors in two regions', () => {
  let us: ClusterTarget;
  let eu: ClusterTarget;
  let receiver: HttpReceiver;
  const counts = { ingest: 1, compactor: 1, query: 1, management: 1 };
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    const [usPort, euPort] = [await freePort(), await freePort()];
    const regions = { us: `http://127.0.0.1:${usPort}`, eu: `http://127.0.0.1:${euPort}` };
    const common = { counts, homeRegion: 'us', regions, external: false };
    const env = { QUARRY_ALERTING_TICK_MS: '500' };
    us = await startClusterTarget(env, { ...common, region: 'us', port: usPort });
    eu = await startClusterTarget(env, {
      ...common,
      region: 'eu',
      port: euPort,
      metastoreUrl: us.cluster.metastoreUrl,
    });
    for (const body of [{ name: 'mon-us' }, { name: 'mon-eu', edgeDeployment: 'eu' }])
      expect((await us.request('POST', '/v2/datasets', { body })).status).toBe(200);
    const events = Array.from({ length: 5 }, (_, i) => ({ _time: ago(120_000 + i), level: 'error', i }));
    expect((await us.request('POST', '/v1/datasets/mon-us/ingest', { body: events })).status).toBe(200);
    expect((await eu.request('POST', '/v1/datasets/mon-eu/ingest', { body: events })).status).toBe(200);
  }, 400_000);
  afterAll(async () => {
    await eu?.close();
    await us?.close();
    await receiver?.close();
  }, 120_000);

  /** Monitor runs this region's management node made, from its own /metrics (not the gateway's). */
  const runsMadeBy = async (target: ClusterTarget): Promise<number> => {
    const [management] = target.cluster.nodesOf('management');
    const text = await (await fetch(`${management.url}/metrics`)).text();
    return [...text.matchAll(/^quarry_monitor_runs_total\{[^}]*\} (\d+)/gm)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
  };

  it("runs each monitor in its dataset's region only", async () => {
    const ids: Record<string, string> = {};
    for (const region of ['us', 'eu']) {
      const notifier = await (
        await us.request('POST', '/v2/notifiers', {
          body: { name: region, properties: { webhook: { url: `${receiver.url}/${region}` } } },
        })
      ).json();
      // Both created through the home region: management is the installation's.
      const monitor = await us.request('POST', '/v2/monitors', {
        body: {
          name: region,
          type: 'Threshold',
          aplQuery: `['mon-${region}'] | where level == 'error' | summarize count()`,
          operator: 'Above',
          threshold: 3,
          intervalMinutes: 1,
          rangeMinutes: 5,
          notifierIds: [notifier.id],
        },
      });
      expect(monitor.status).toBe(200);
      ids[region] = (await monitor.json()).id;
    }
    const deadline = Date.now() + 60_000;
    const hits = (region: string) => receiver.requests.filter((r) => r.path === `/${region}`);
    while ((hits('us').length === 0 || hits('eu').length === 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    for (const region of ['us', 'eu']) {
      expect(hits(region).map((r) => r.json())).toMatchObject([{ action: 'Open', event: { value: 5 } }]);
    }
    // Who ran them: each region's management node made exactly the runs of its own region's monitor
    // (node names repeat across the two clusters, so the count on each node's /metrics tells them apart).
    const runsOf = async (id: string) =>
      (await (await us.request('GET', `/v2/monitors/${id}/runs`)).json()) as {
        status: string;
        attempts: number;
      }[];
    // The counter counts attempts (a run retried after a failed attempt counts each).
    const attemptsOf = (runs: { attempts: number }[]) => runs.reduce((n, r) => n + r.attempts, 0);
    // A minute boundary between reading the run log and the counters would add a run: read again then.
    for (let attempt = 1; ; attempt++) {
      const [usRuns, euRuns] = [await runsOf(ids.us), await runsOf(ids.eu)];
      const made = [await runsMadeBy(us), await runsMadeBy(eu)];
      const attempts = [attemptsOf(usRuns), attemptsOf(euRuns)];
      if (attempt < 3 && (made[0] !== attempts[0] || made[1] !== attempts[1])) continue;
      expect(usRuns.length).toBeGreaterThan(0);
      expect(euRuns.length).toBeGreaterThan(0);
      expect([...usRuns, ...euRuns].every((r) => r.status === 'done')).toBe(true);
      expect(made).toEqual(attempts);
      break;
    }
  });
});
