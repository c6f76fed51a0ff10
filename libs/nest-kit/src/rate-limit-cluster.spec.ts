import { Admission } from './admission';
import { loadAdmissionLimits } from './admission-config';
import { FixedWindowCounter } from './rate-limit';
import { ClusterCounterSync } from './rate-limit-cluster';
import { InMemorySharedCounterStore } from './rate-limit-cluster.fake';

const MINUTE = 60_000;
const T0 = 1_700_000_040_000; // a whole minute

/** One node: its counter and its sync over the shared store, on a clock the test moves. */
function node(store: InMemorySharedCounterStore, clock: { ms: number }, limit = 10) {
  const counter = new FixedWindowCounter(limit, MINUTE);
  const sync = new ClusterCounterSync([{ name: 'requests/60000', counter }], store, {
    intervalMs: 1000,
    nowMs: () => clock.ms,
  });
  return { counter, sync };
}

/** Takes one request per call while allowed; how many were admitted out of `tries`. */
function admit(counter: FixedWindowCounter, tries: number, nowMs: number): number {
  let admitted = 0;
  for (let i = 0; i < tries; i++) if (counter.take('tok', 1, nowMs).allowed) admitted++;
  return admitted;
}

describe('FixedWindowCounter collect/settle', () => {
  it('hands out what was consumed since the last sync, once, and judges by the shared total after', () => {
    const counter = new FixedWindowCounter(10, MINUTE);
    counter.take('a', 1, T0);
    counter.take('a', 1, T0);
    const sent = counter.collect(T0);
    expect(sent).toEqual([{ subject: 'a', windowStartMs: T0, windowEndMs: T0 + MINUTE, delta: 2 }]);
    // Consumption during the sync is kept apart and still counts.
    counter.take('a', 1, T0);
    expect(counter.peek('a', T0).remaining).toBe(7);
    // The region used 8 in all (the 2 sent included): 8 + the 1 since = 9.
    counter.settle(sent, new Map([['a', 8]]));
    expect(counter.peek('a', T0).remaining).toBe(1);
    expect(counter.collect(T0)).toEqual([
      { subject: 'a', windowStartMs: T0, windowEndMs: T0 + MINUTE, delta: 1 },
    ]);
  });

  it('puts the deltas back when a sync fails, so nothing consumed is lost', () => {
    const counter = new FixedWindowCounter(10, MINUTE);
    counter.add('a', 4, T0);
    const sent = counter.collect(T0);
    counter.settle(sent, null);
    expect(counter.peek('a', T0).remaining).toBe(6);
    expect(counter.collect(T0)[0].delta).toBe(4);
  });

  it('re-reads a subject seen lately (delta 0) and leaves idle ones alone', () => {
    const counter = new FixedWindowCounter(10, MINUTE);
    counter.add('a', 1, T0);
    counter.add('b', 1, T0);
    counter.settle(
      counter.collect(T0),
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
    counter.peek('a', T0 + 20_000);
    expect(counter.collect(T0 + 30_000, 15_000)).toEqual([
      { subject: 'a', windowStartMs: T0, windowEndMs: T0 + MINUTE, delta: 0 },
    ]);
  });

  it('drops a finished window: a new one starts from zero and old results are ignored', () => {
    const counter = new FixedWindowCounter(10, MINUTE);
    counter.add('a', 5, T0);
    const sent = counter.collect(T0);
    counter.take('a', 1, T0 + MINUTE);
    counter.settle(sent, new Map([['a', 100]]));
    expect(counter.peek('a', T0 + MINUTE).remaining).toBe(9);
  });
});

describe('ClusterCounterSync', () => {
  it('two nodes sharing one limit admit no more than it once synced (per-node counting would admit twice)', async () => {
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const a = node(store, clock);
    const b = node(store, clock);
    expect(admit(a.counter, 6, clock.ms)).toBe(6);
    await a.sync.syncOnce();
    // A node knows a subject's region total from its first sync after it first saw the subject.
    expect(admit(b.counter, 1, clock.ms)).toBe(1);
    await b.sync.syncOnce(); // b learns a's 6 (7 with its own)
    expect(admit(b.counter, 10, clock.ms)).toBe(3);
    await b.sync.syncOnce();
    await a.sync.syncOnce();
    expect(admit(a.counter, 10, clock.ms)).toBe(0);
    expect(store.rows.get(`requests/60000|tok|${T0}`)?.used).toBe(10);
  });

  it('bounds the excess by what the nodes admit between two syncs (the documented slack)', async () => {
    // 3 nodes, each offered r = 5 requests per tick of S, limit 40: however the ticks fall, the region
    // admits at most limit + nodes × r × 2 (a node learns the others' counts within 2·S).
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const nodes = [node(store, clock, 40), node(store, clock, 40), node(store, clock, 40)];
    let admitted = 0;
    for (let tick = 0; tick < 30; tick++) {
      for (const n of nodes) admitted += admit(n.counter, 5, clock.ms);
      // Nodes sync one after another, in a different order each tick.
      for (let i = 0; i < nodes.length; i++) await nodes[(i + tick) % nodes.length].sync.syncOnce();
      clock.ms += 1000;
    }
    expect(admitted).toBeGreaterThanOrEqual(40);
    expect(admitted).toBeLessThanOrEqual(40 + 3 * 5 * 2);
    // Without sharing each node would have admitted its own 40.
    expect(admitted).toBeLessThan(3 * 40);
  });

  it('counts locally while the store is down and publishes what it kept once it is back', async () => {
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const a = node(store, clock);
    store.down = true;
    expect(admit(a.counter, 3, clock.ms)).toBe(3);
    await a.sync.syncOnce();
    expect(a.sync.failed).toBe(1);
    store.down = false;
    await a.sync.syncOnce();
    expect(store.rows.get(`requests/60000|tok|${T0}`)?.used).toBe(3);
  });

  it('publishes the last counts when stopped', async () => {
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const a = node(store, clock);
    a.sync.start();
    admit(a.counter, 2, clock.ms);
    await a.sync.stop();
    expect(store.rows.get(`requests/60000|tok|${T0}`)?.used).toBe(2);
  });

  it('deletes the rows of ended windows every cleanup interval', async () => {
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const counter = new FixedWindowCounter(10, MINUTE);
    const sync = new ClusterCounterSync([{ name: 'requests/60000', counter }], store, {
      intervalMs: 1000,
      cleanupIntervalMs: 5 * MINUTE,
      nowMs: () => clock.ms,
    });
    counter.add('tok', 1, clock.ms);
    await sync.syncOnce();
    expect(store.rows.size).toBe(1);
    clock.ms += 10 * MINUTE;
    await sync.syncOnce();
    expect(store.rows.size).toBe(0);
  });
});

describe('Admission.namedCounters', () => {
  it('names the counters that are on by kind and window', () => {
    const admission = new Admission({
      ...loadAdmissionLimits({}),
      rateLimitPerMinute: 10,
      ingestQuotaBytes: 1000,
      ingestQuotaWindowSeconds: 3600,
    });
    expect(admission.namedCounters.map((c) => c.name)).toEqual(['requests/60000', 'ingest_bytes/3600000']);
    expect(new Admission(loadAdmissionLimits({})).namedCounters).toEqual([]);
  });
});
