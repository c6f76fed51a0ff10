import { AlertingService } from '@quarry/alerting';
import { startHttpReceiver, type HttpReceiver } from '@quarry/alerting/testing';
import { exportGauge } from '../support/otlp-json';
import { STORAGE_RUNTIME, type StorageRuntime } from '@quarry/server';
import { startTestServer, type TestServer } from '../support/test-server';

const MINUTE = 60_000;

/**
 * Monitors that run (issue 16), end to end on the standalone server: events are ingested over HTTP,
 * monitors and notifiers created over the v2 API, the scheduler is driven tick by tick with chosen
 * times (QUARRY_ALERTING_ENABLED=false stops its own timer), notifications land on a loopback receiver.
 */
describe('monitors run', () => {
  let server: TestServer;
  let receiver: HttpReceiver;
  let scheduler: AlertingService['scheduler'];
  // A minute boundary half an hour ago: every interval the test evaluates lies in the past.
  const base = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * MINUTE;
  const at = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    server = await startTestServer({ QUARRY_ALERTING_ENABLED: 'false', QUARRY_NOTIFIER_BACKOFF_MS: '1' });
    scheduler = server.quarry.app.get(AlertingService).scheduler;
    expect((await server.request('POST', '/v2/datasets', { body: { name: 'alerts-e2e' } })).status).toBe(200);
    const events = [
      ...Array.from({ length: 5 }, (_, i) => ({ _time: at(base + 10_000 + i), level: 'error', n: i })),
      { _time: at(base + MINUTE + 5_000), level: 'panic', msg: 'out of memory' },
    ];
    const ingest = await server.request('POST', '/v1/datasets/alerts-e2e/ingest', { body: events });
    expect(ingest.status).toBe(200);
    // Two hosts' load, one point a minute over the first five minutes: host a is high in minute 2 only.
    const metrics = await server.request('POST', '/v2/datasets', {
      body: { name: 'alerts-metrics', kind: 'otel:metrics:v1' },
    });
    expect(metrics.status).toBe(200);
    const points = [0, 1, 2, 3, 4].flatMap((m) => [
      { timeMs: base + m * MINUTE + 1000, value: m === 2 ? 95 : 10, tags: { host: 'a' } },
      { timeMs: base + m * MINUTE + 1000, value: 20, tags: { host: 'b' } },
    ]);
    expect(await exportGauge(server, 'alerts-metrics', { name: 'load' }, points)).toBe(200);
    await server.compact();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  async function create(path: string, body: unknown): Promise<{ id: string } & Record<string, unknown>> {
    const res = await server.request('POST', path, { body });
    expect(res.status).toBe(200);
    return res.json();
  }

  async function history(id: string) {
    const q = `startTime=${at(base - 60 * MINUTE)}&endTime=${at(base + 60 * MINUTE)}`;
    const res = await server.request('GET', `/v2/monitors/${id}/history?${q}`);
    expect(res.status).toBe(200);
    return res.json();
  }

  it('fires a threshold monitor once, resolves it once, and serves the history', async () => {
    const notifier = await create('/v2/notifiers', {
      name: 'hook',
      properties: { webhook: { url: `${receiver.url}/threshold` } },
    });
    const monitor = await create('/v2/monitors', {
      name: 'errors',
      type: 'Threshold',
      aplQuery: "['alerts-e2e'] | where level == 'error' | summarize count()",
      operator: 'Above',
      threshold: 3,
      intervalMinutes: 1,
      rangeMinutes: 1,
      notifierIds: [notifier.id],
    });
    for (const minute of [1, 2, 3]) await scheduler.tick(base + minute * MINUTE + 1000);
    const hits = receiver.requests.filter((r) => r.path === '/threshold');
    expect(hits.map((r) => (r.json() as { action: string }).action)).toEqual(['Open', 'Closed']);
    expect(hits[0].json()).toMatchObject({
      event: { monitorID: monitor.id, value: 5, queryStartTime: at(base), queryEndTime: at(base + MINUTE) },
    });
    expect(await history(monitor.id)).toEqual([
      { checkId: monitor.id, name: 'errors', state: 'open', timestamp: at(base + MINUTE + 1000) },
      { checkId: monitor.id, name: 'errors', state: 'closed', timestamp: at(base + 2 * MINUTE + 1000) },
    ]);
    // Ticking the same moment again evaluates nothing twice.
    await scheduler.tick(base + 3 * MINUTE + 1000);
    expect(receiver.requests.filter((r) => r.path === '/threshold')).toHaveLength(2);

    // The run log and the delivery log (Quarry extensions, docs/api-coverage.md), newest first:
    // 'GET /v2/monitors/{id}/runs' and 'GET /v2/notifiers/{id}/deliveries'.
    const runs = await (await server.request('GET', `/v2/monitors/${monitor.id}/runs`)).json();
    expect(
      runs.map((r: { intervalEnd: string; status: string; attempts: number }) => [
        r.intervalEnd,
        r.status,
        r.attempts,
      ]),
    ).toEqual([
      [at(base + 3 * MINUTE), 'done', 1],
      [at(base + 2 * MINUTE), 'done', 1],
      [at(base + MINUTE), 'done', 1],
    ]);
    const window = `startTime=${at(base + 2 * MINUTE)}&endTime=${at(base + 2 * MINUTE)}`;
    expect(
      await (await server.request('GET', `/v2/monitors/${monitor.id}/runs?${window}`)).json(),
    ).toHaveLength(1);
    const deliveries = await (await server.request('GET', `/v2/notifiers/${notifier.id}/deliveries`)).json();
    expect(
      deliveries.map((d: { action: string; status: string; httpStatus: number; attempt: number }) => [
        d.action,
        d.status,
        d.httpStatus,
        d.attempt,
      ]),
    ).toEqual([
      ['Closed', 'delivered', 200, 1],
      ['Open', 'delivered', 200, 1],
    ]);
    expect((await server.request('GET', `/v2/notifiers/${notifier.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await server.request('GET', `/v2/monitors/${monitor.id}/runs?startTime=yesterday`)).status).toBe(
      400,
    );
    expect((await server.request('GET', '/v2/notifiers/ntf_nope/deliveries')).status).toBe(404);

    // Deleting a notifier deletes what it delivered.
    const logged = async () => {
      const db = server.quarry.app.get<StorageRuntime>(STORAGE_RUNTIME).metastore.db;
      const rows = await db.query<{ n: unknown }>(
        'SELECT count(*) AS n FROM notifier_deliveries WHERE notifier_id = $1',
        [notifier.id],
      );
      return Number(rows[0].n);
    };
    expect(await logged()).toBe(2);
    expect((await server.request('DELETE', `/v2/notifiers/${notifier.id}`)).status).toBeLessThan(300);
    expect(await logged()).toBe(0);
  });

  it('notifies each matching event once through a custom webhook whose secret is never shown', async () => {
    const notifier = await create('/v2/notifiers', {
      name: 'custom',
      properties: {
        customWebhook: {
          url: `${receiver.url}/match`,
          body: '{"what":"{{.Action}}","event":{{json .MatchedEvent}}}',
          secretHeaders: { Authorization: 'Bearer top-secret' },
        },
      },
    });
    expect(JSON.stringify(notifier)).not.toContain('top-secret');
    // A client that PUTs back what it read keeps the stored secret.
    const put = await server.request('PUT', `/v2/notifiers/${notifier.id}`, {
      body: { name: notifier.name, properties: notifier.properties },
    });
    expect(put.status).toBe(200);
    const got = await (await server.request('GET', `/v2/notifiers/${notifier.id}`)).json();
    expect(JSON.stringify(got)).not.toContain('top-secret');

    const monitor = await create('/v2/monitors', {
      name: 'panics',
      type: 'MatchEvent',
      aplQuery: "['alerts-e2e'] | where level == 'panic'",
      intervalMinutes: 1,
      rangeMinutes: 5,
      notifierIds: [notifier.id],
    });
    for (const minute of [4, 5]) await scheduler.tick(base + minute * MINUTE + 1000);
    // The second window reads the event again: deduplicated, so nothing new matched and the alert closes.
    const hits = receiver.requests.filter((r) => r.path === '/match');
    expect(hits.map((r) => r.json())).toEqual([
      { what: 'Open', event: expect.objectContaining({ level: 'panic', msg: 'out of memory' }) },
      { what: 'Closed', event: null },
    ]);
    expect(hits[0].headers.authorization).toBe('Bearer top-secret');
    expect((await history(monitor.id)).map((h: { state: string }) => h.state)).toEqual(['open', 'closed']);
  });

  it('runs an MPL monitor per group (notifyByGroup)', async () => {
    const notifier = await create('/v2/notifiers', {
      name: 'slack',
      properties: { slack: { slackUrl: `${receiver.url}/slack` } },
    });
    const monitor = await create('/v2/monitors', {
      name: 'load',
      type: 'Threshold',
      mplQuery: '`alerts-metrics`:load | align to 1m using max',
      operator: 'Above',
      threshold: 90,
      intervalMinutes: 1,
      notifyByGroup: true,
      notifierIds: [notifier.id],
    });
    for (const minute of [2, 3, 4]) await scheduler.tick(base + minute * MINUTE + 30_000);
    const texts = receiver.requests
      .filter((r) => r.path === '/slack')
      .map((r) => (r.json() as { text: string }).text);
    expect(texts).toEqual([
      expect.stringContaining('[Triggered] load (host=a)'),
      expect.stringContaining('[Resolved] load (host=a)'),
    ]);
    const entries = await history(monitor.id);
    expect(entries.map((h: { name: string; state: string }) => [h.name, h.state])).toEqual([
      ['load (host=a)', 'open'],
      ['load (host=a)', 'closed'],
    ]);
    expect(entries[0].checkId).toMatch(new RegExp(`^${monitor.id}:`));
  });

  it('refuses a link-local webhook and counts runs and deliveries in /metrics', async () => {
    const notifier = await create('/v2/notifiers', {
      name: 'metadata',
      properties: { webhook: { url: 'http://169.254.169.254/latest/meta-data' } },
    });
    await create('/v2/monitors', {
      name: 'always',
      type: 'Threshold',
      aplQuery: "['alerts-e2e'] | summarize count()",
      operator: 'AboveOrEqual',
      threshold: 0,
      intervalMinutes: 1,
      notifierIds: [notifier.id],
    });
    await scheduler.tick(base + 10 * MINUTE + 1000);
    const metrics = await (await server.request('GET', '/metrics')).text();
    expect(metrics).toMatch(/quarry_notification_deliveries_total\{channel="webhook",outcome="refused"\} 1/);
    expect(metrics).toMatch(/quarry_monitor_runs_total\{type="Threshold",outcome="ok"\} \d+/);
  });

  it('refuses an email notifier with 400 while SMTP is not configured', async () => {
    const res = await server.request('POST', '/v2/notifiers', {
      body: { name: 'mail', properties: { email: { emails: ['ops@example.test'] } } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/QUARRY_SMTP_URL/);
  });
});
