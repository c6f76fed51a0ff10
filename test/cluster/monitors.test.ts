import { startHttpReceiver, type HttpReceiver } from '@quarry/alerting/testing';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';

/**
 * Monitors in a cluster (issue 16): the management node's scheduler sends each run to a query node, so
 * a monitor sees what a user's query sees — here, events still in the ingest log's tail (compaction is
 * turned off: no block ever holds them). A run whose query node is down is retried with backoff within
 * its interval and recorded in the run log; the notifier's delivery attempts are served by the API.
 */
describeCluster('monitors in a cluster', () => {
  let target: ClusterTarget;
  let receiver: HttpReceiver;
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    target = await startClusterTarget(
      {
        // No compaction while the test runs: a monitor that reads blocks only would see nothing.
        QUARRY_COMPACT_INTERVAL_MS: '3600000',
        QUARRY_ALERTING_TICK_MS: '500',
        QUARRY_NOTIFIER_BACKOFF_MS: '10',
        QUARRY_HEARTBEAT_MS: '500',
      },
      { counts: { ingest: 1, compactor: 1, query: 1, management: 1 } },
    );
    expect((await target.request('POST', '/v2/datasets', { body: { name: 'mon-tail' } })).status).toBe(200);
    // Two minutes ago: inside the 5-minute window of whichever interval is due when the monitors run.
    const events = Array.from({ length: 5 }, (_, i) => ({ _time: ago(120_000 + i), level: 'error', i }));
    expect((await target.request('POST', '/v1/datasets/mon-tail/ingest', { body: events })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await target?.close();
    await receiver?.close();
  }, 120_000);

  async function create(path: string, body: unknown): Promise<{ id: string }> {
    const res = await target.request('POST', path, { body });
    expect(res.status).toBe(200);
    return res.json();
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const monitorOn = (name: string, notifierId: string) => ({
    name,
    type: 'Threshold',
    aplQuery: "['mon-tail'] | where level == 'error' | summarize count()",
    operator: 'Above',
    threshold: 3,
    intervalMinutes: 1,
    rangeMinutes: 5,
    notifierIds: [notifierId],
  });

  const hits = (path: string) => receiver.requests.filter((r) => r.path === path);

  it('fires on events only the ingest tail holds, and serves the run and delivery logs', async () => {
    const dataset = await target.metastore.datasets.getByName('mon-tail');
    const notifier = await create('/v2/notifiers', {
      name: 'tail-hook',
      properties: { webhook: { url: `${receiver.url}/tail` } },
    });
    receiver.failNext(503); // the first attempt fails: the delivery log shows both
    const monitor = await create('/v2/monitors', monitorOn('tail', notifier.id));
    const [hit] = await until('the notification', async () =>
      hits('/tail').length > 0 ? hits('/tail') : undefined,
    );
    expect(hit.json()).toMatchObject({ action: 'Open', event: { monitorID: monitor.id, value: 5 } });
    // Still in no block: only the query node's tail could have answered.
    const blocks = await target.metastore.blocks.listBlocksOf([dataset!.id]);
    expect(blocks.get(dataset!.id) ?? []).toEqual([]);

    const runs = await (await target.request('GET', `/v2/monitors/${monitor.id}/runs`)).json();
    expect(runs[0]).toMatchObject({ status: 'done', attempts: 1, error: null });
    const deliveries = await until('the delivery log', async () => {
      const res = await target.request('GET', `/v2/notifiers/${notifier.id}/deliveries`);
      const rows = await res.json();
      return rows.length >= 2 ? rows : undefined;
    });
    expect(
      deliveries.map((d: { attempt: number; status: string; httpStatus: number }) => [
        d.attempt,
        d.status,
        d.httpStatus,
      ]),
    ).toEqual([
      [2, 'delivered', 200],
      [1, 'failed', 503],
    ]);
    expect(deliveries[0]).toMatchObject({
      monitorId: monitor.id,
      checkId: monitor.id,
      action: 'Open',
      channel: 'webhook',
    });
  });

  it('retries a run while its query node is down, records the failure, and fires once it is back', async () => {
    const notifier = await create('/v2/notifiers', {
      name: 'retry-hook',
      properties: { webhook: { url: `${receiver.url}/retry` } },
    });
    const [queryNode] = target.cluster.nodesOf('query');
    await queryNode.stop();
    const monitor = await create('/v2/monitors', monitorOn('retry', notifier.id));
    const failed = await until('a failed attempt in the run log', async () => {
      const runs = await (await target.request('GET', `/v2/monitors/${monitor.id}/runs`)).json();
      return runs.find((r: { error: string | null }) => r.error !== null);
    });
    expect(failed.error).toMatch(/query node/);
    expect(hits('/retry')).toHaveLength(0);
    await queryNode.start();
    await until(
      'the notification after the restart',
      async () => (hits('/retry').length > 0 ? true : undefined),
      120_000,
    );
    expect(hits('/retry').map((r) => (r.json() as { action: string }).action)).toEqual(['Open']);
    const runs = await (await target.request('GET', `/v2/monitors/${monitor.id}/runs`)).json();
    // The run that fired was a retry — or, when an interval boundary passed meanwhile, the one before
    // it gave up with the error recorded.
    expect(
      runs.some((r: { attempts: number; status: string }) => r.attempts > 1 || r.status === 'failed'),
    ).toBe(true);
    expect(runs[0]).toMatchObject({ status: 'done' });
  }, 180_000);
});
