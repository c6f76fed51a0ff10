import type { Clock } from '@quarry/common';
import { Metastore } from '@quarry/metastore';
import { AlertingLog } from './alerting-log.repository';
import { MonitorScheduler } from './monitor-scheduler';
import type { AlertNotification } from './notification';
import type { DeliveryOutcome, NotifierConfig, NotifierDelivery } from './notifier-delivery';
import type { MonitorQuery, MonitorQueryRunner } from './query-runner';
import type { ResultRows } from './result-rows';

// Opening PGlite takes seconds on a cold process (initdb).
jest.setTimeout(60_000);

const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

class FakeClock implements Clock {
  ms = T0;
  nowMs(): number {
    return this.ms;
  }
}

/** Answers each query from a function of its window; records every query. */
class FakeQueries implements MonitorQueryRunner {
  readonly seen: MonitorQuery[] = [];
  constructor(public answer: (q: MonitorQuery) => ResultRows) {}
  async run(q: MonitorQuery): Promise<ResultRows> {
    this.seen.push(q);
    return this.answer(q);
  }
}

class FakeDelivery implements NotifierDelivery {
  readonly sent: { notifier: string; n: AlertNotification }[] = [];
  async deliver(notifier: NotifierConfig, n: AlertNotification): Promise<DeliveryOutcome> {
    this.sent.push({ notifier: notifier.id, n });
    return { status: 'delivered', channel: Object.keys(notifier.properties)[0], attempts: 1, tries: [] };
  }
}

describe('monitor scheduler', () => {
  let store: Metastore;
  const clock = new FakeClock();

  beforeAll(async () => {
    store = await Metastore.open(null, { clock });
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await store.db.exec(
      'TRUNCATE resources, monitor_runs, monitor_states, alert_history, notifier_deliveries',
    );
    clock.ms = T0;
    await store.resources.create(
      'notifier',
      'ntf_1',
      { document: { name: 'hook', properties: { webhook: { url: 'http://x' } } } },
      'u',
    );
  });

  const scheduler = (queries: MonitorQueryRunner, delivery: NotifierDelivery, nodeId = 'node-a') =>
    new MonitorScheduler({ metastore: store, queries, delivery, clock, nodeId, staleClaimMs: 5 * MINUTE });

  const monitor = (id: string, doc: Record<string, unknown>) =>
    store.resources.create(
      'monitor',
      id,
      { document: { name: id, notifierIds: ['ntf_1'], aplQuery: 'x', ...doc } },
      'u',
    );

  /** A count per interval end (minutes after T0); 0 when unset. */
  const countsByMinute = (counts: Record<number, number>) => (q: MonitorQuery) => ({
    rows: [{ count_: counts[(q.endMs - T0) / MINUTE] ?? 0 }],
    groupFields: [],
  });

  it('fires once, resolves once, and records both in the history', async () => {
    await monitor('mon_t', {
      type: 'Threshold',
      operator: 'Above',
      threshold: 10,
      intervalMinutes: 1,
      secondDelay: 30,
    });
    const queries = new FakeQueries(countsByMinute({ 1: 20, 2: 30 }));
    const delivery = new FakeDelivery();
    const s = scheduler(queries, delivery);
    for (let minute = 1; minute <= 4; minute++) {
      clock.ms = T0 + minute * MINUTE + 31_000; // just after the delay of the interval ending at `minute`
      expect((await s.tick()).get('mon_t')).toBe('ok');
      expect((await s.tick()).get('mon_t')).toBe('already-run'); // the same interval never runs twice
    }
    // secondDelay: the run at 12:01:31 covers [12:00, 12:01).
    expect(queries.seen[0]).toMatchObject({ startMs: T0, endMs: T0 + MINUTE });
    expect(delivery.sent.map((d) => d.n.action)).toEqual(['Open', 'Closed']);
    const history = await store.alerts.history(
      'mon_t',
      new Date(T0).toISOString(),
      new Date(T0 + 10 * MINUTE).toISOString(),
    );
    expect(history.map((h) => [h.state, h.timestamp])).toEqual([
      ['open', new Date(T0 + MINUTE + 31_000).toISOString()],
      ['closed', new Date(T0 + 3 * MINUTE + 31_000).toISOString()],
    ]);
  });

  it('evaluates each interval exactly once across nodes', async () => {
    await monitor('mon_t', { type: 'Threshold', threshold: 10, intervalMinutes: 1 });
    const queries = new FakeQueries(countsByMinute({ 1: 20 }));
    const delivery = new FakeDelivery();
    const nodes = ['a', 'b', 'c'].map((id) => scheduler(queries, delivery, id));
    for (let minute = 1; minute <= 3; minute++) {
      clock.ms = T0 + minute * MINUTE + 1000;
      const outcomes = await Promise.all(nodes.map((n) => n.tick()));
      expect(outcomes.filter((o) => o.get('mon_t') === 'ok')).toHaveLength(1);
    }
    expect(queries.seen).toHaveLength(3);
    expect(delivery.sent.map((d) => d.n.action)).toEqual(['Open', 'Closed']);
  });

  it('catches up the last missed interval after a restart, not every one', async () => {
    await monitor('mon_t', { type: 'Threshold', threshold: 10, intervalMinutes: 5 });
    const queries = new FakeQueries(countsByMinute({}));
    clock.ms = T0 + 5 * MINUTE + 1000;
    await scheduler(queries, new FakeDelivery()).tick();
    // Down for 17 minutes: intervals ending at 10, 15 and 20 were missed; a new process runs 20.
    clock.ms = T0 + 22 * MINUTE;
    await scheduler(queries, new FakeDelivery(), 'restarted').tick();
    expect(queries.seen.map((q) => (q.endMs - T0) / MINUTE)).toEqual([5, 20]);
  });

  it('takes over a run whose node died after claiming it', async () => {
    await monitor('mon_t', { type: 'Threshold', threshold: 10, intervalMinutes: 10 });
    clock.ms = T0 + 10 * MINUTE;
    await store.alerts.claimRun('mon_t', new Date(T0 + 10 * MINUTE).toISOString(), 'dead', 5 * MINUTE);
    const queries = new FakeQueries(countsByMinute({}));
    const s = scheduler(queries, new FakeDelivery());
    expect((await s.tick()).get('mon_t')).toBe('claimed-elsewhere');
    expect(queries.seen).toHaveLength(0);
    clock.ms += 6 * MINUTE; // the claim is stale; the interval ending at 10 is still the due one
    expect((await s.tick()).get('mon_t')).toBe('ok');
    expect(queries.seen.map((q) => (q.endMs - T0) / MINUTE)).toEqual([10]);
  });

  it('skips disabled monitors and those disabled until later', async () => {
    await monitor('mon_off', { type: 'Threshold', threshold: 10, disabled: true });
    await monitor('mon_later', {
      type: 'Threshold',
      threshold: 10,
      disabledUntil: new Date(T0 + 60 * MINUTE).toISOString(),
    });
    clock.ms = T0 + 2 * MINUTE;
    const outcomes = await scheduler(new FakeQueries(countsByMinute({})), new FakeDelivery()).tick();
    expect(outcomes.get('mon_off')).toBe('paused');
    expect(outcomes.get('mon_later')).toBe('paused');
  });

  it('notifies every matching event once (MatchEvent)', async () => {
    await monitor('mon_m', { type: 'MatchEvent', intervalMinutes: 1, rangeMinutes: 2 });
    const byMinute: Record<number, string[]> = { 1: ['e1'], 2: ['e1', 'e2'], 3: ['e2'] };
    const queries = new FakeQueries((q) => ({
      rows: (byMinute[(q.endMs - T0) / MINUTE] ?? []).map((id) => ({ id })),
      groupFields: [],
    }));
    const delivery = new FakeDelivery();
    const s = scheduler(queries, delivery);
    for (let minute = 1; minute <= 4; minute++) {
      clock.ms = T0 + minute * MINUTE;
      await s.tick();
    }
    expect(delivery.sent.map((d) => [d.n.action, d.n.matchedEvent])).toEqual([
      ['Open', { id: 'e1' }],
      ['Open', { id: 'e2' }],
      ['Closed', null],
    ]);
  });

  it('runs AnomalyDetection against compareDays baselines', async () => {
    await monitor('mon_a', { type: 'AnomalyDetection', compareDays: 2, tolerance: 50, intervalMinutes: 1 });
    const queries = new FakeQueries((q) => ({ rows: [{ n: q.endMs > T0 ? 300 : 100 }], groupFields: [] }));
    const delivery = new FakeDelivery();
    clock.ms = T0 + MINUTE;
    await scheduler(queries, delivery).tick();
    expect(queries.seen.map((q) => Math.round((q.endMs - (T0 + MINUTE)) / 86_400_000))).toEqual([0, -1, -2]);
    expect(delivery.sent.map((d) => d.n.action)).toEqual(['Open']);
  });

  it('retries a failed run with backoff within its interval, on any node, and records every attempt', async () => {
    await monitor('mon_bad', { type: 'Threshold', threshold: 1, intervalMinutes: 5 });
    let failures = 2;
    const flaky: MonitorQueryRunner = {
      run: () =>
        failures-- > 0
          ? Promise.reject(new Error('no query node could run the query (q1: connection refused)'))
          : Promise.resolve({ rows: [{ n: 5 }], groupFields: [] }),
    };
    const delivery = new FakeDelivery();
    const make = (node: string) =>
      new MonitorScheduler({
        metastore: store,
        queries: flaky,
        delivery,
        clock,
        nodeId: node,
        staleClaimMs: 5 * MINUTE,
        retryBackoffMs: 10_000,
      });
    const [a, b] = [make('node-a'), make('node-b')];
    const end = new Date(T0 + 5 * MINUTE).toISOString();
    clock.ms = T0 + 5 * MINUTE;
    expect((await a.tick()).get('mon_bad')).toBe('retrying');
    // Not before its backoff (10 s), then by whichever node ticks first; the next wait doubles (20 s).
    clock.ms += 5_000;
    expect((await b.tick()).get('mon_bad')).toBe('claimed-elsewhere');
    clock.ms += 5_000;
    expect((await b.tick()).get('mon_bad')).toBe('retrying');
    clock.ms += 19_000;
    expect((await a.tick()).get('mon_bad')).toBe('claimed-elsewhere');
    clock.ms += 1_000;
    expect((await a.tick()).get('mon_bad')).toBe('ok');
    expect((await b.tick()).get('mon_bad')).toBe('claimed-elsewhere'); // b learns it is done…
    expect((await b.tick()).get('mon_bad')).toBe('already-run'); // …and stops asking
    expect(delivery.sent.map((d) => d.n.action)).toEqual(['Open']);
    const log = new AlertingLog(store.db, clock);
    const [run] = await log.runs('mon_bad', end, end, 10);
    expect(run).toMatchObject({ status: 'done', attempts: 3, node: 'node-a', error: null, retryAt: null });
  });

  it('gives up when no retry fits before the next interval, and says why in the run log', async () => {
    await monitor('mon_bad', { type: 'Threshold', threshold: 1, intervalMinutes: 1 });
    const failing: MonitorQueryRunner = { run: () => Promise.reject(new Error('dataset "x" not found')) };
    const s = new MonitorScheduler({
      metastore: store,
      queries: failing,
      delivery: new FakeDelivery(),
      clock,
      nodeId: 'node-a',
      staleClaimMs: 5 * MINUTE,
      retryBackoffMs: 20_000,
    });
    clock.ms = T0 + MINUTE;
    expect((await s.tick()).get('mon_bad')).toBe('retrying'); // retry at +20 s
    clock.ms += 20_000;
    expect((await s.tick()).get('mon_bad')).toBe('failed'); // the next would be at +60 s: the next interval's
    clock.ms += 40_000;
    expect((await s.tick()).get('mon_bad')).toBe('retrying'); // the next interval starts over
    const log = new AlertingLog(store.db, clock);
    const runs = await log.runs(
      'mon_bad',
      new Date(T0).toISOString(),
      new Date(T0 + 9 * MINUTE).toISOString(),
      10,
    );
    expect(runs.map((r) => [(Date.parse(r.intervalEnd) - T0) / MINUTE, r.status, r.attempts])).toEqual([
      [2, 'failed', 1],
      [1, 'failed', 2],
    ]);
    expect(runs[1]).toMatchObject({ error: 'dataset "x" not found', retryAt: null });
  });

  it('runs only the monitors of its region', async () => {
    await monitor('mon_here', { type: 'Threshold', threshold: 10 });
    await monitor('mon_there', { type: 'Threshold', threshold: 10 });
    const queries = new FakeQueries(countsByMinute({}));
    const s = new MonitorScheduler({
      metastore: store,
      queries,
      delivery: new FakeDelivery(),
      clock,
      nodeId: 'node-a',
      staleClaimMs: 5 * MINUTE,
      runsHere: (m) => m.id !== 'mon_there',
    });
    clock.ms = T0 + MINUTE;
    const outcomes = await s.tick();
    expect([outcomes.get('mon_here'), outcomes.get('mon_there')]).toEqual(['ok', 'other-region']);
    expect(queries.seen).toHaveLength(1);
  });

  it('keeps every delivery attempt in the delivery log', async () => {
    await monitor('mon_t', { type: 'Threshold', threshold: 10, intervalMinutes: 1 });
    const delivery: NotifierDelivery = {
      deliver: async (notifier) => ({
        status: 'delivered',
        channel: Object.keys(notifier.properties)[0],
        attempts: 2,
        tries: [
          { attempt: 1, atMs: T0 + 1, ok: false, httpStatus: 503, error: 'POST http://x/… answered 503' },
          { attempt: 2, atMs: T0 + 2, ok: true, httpStatus: 200 },
        ],
      }),
    };
    clock.ms = T0 + MINUTE;
    await scheduler(new FakeQueries(countsByMinute({ 1: 20 })), delivery).tick();
    const log = new AlertingLog(store.db, clock);
    const rows = await log.deliveries(
      'ntf_1',
      new Date(T0).toISOString(),
      new Date(T0 + MINUTE).toISOString(),
      10,
    );
    expect(rows.map((r) => [r.attempt, r.status, r.httpStatus, r.error, r.monitorId, r.action])).toEqual([
      [2, 'delivered', 200, null, 'mon_t', 'Open'],
      [1, 'failed', 503, 'POST http://x/… answered 503', 'mon_t', 'Open'],
    ]);
  });
});
