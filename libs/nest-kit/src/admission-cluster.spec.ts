import { Admission } from './admission';
import { loadAdmissionLimits } from './admission-config';
import { shareAdmissionCounters } from './admission-cluster';
import { FixedWindowCounter } from './rate-limit';
import { ClusterCounterSync } from './rate-limit-cluster';
import { InMemorySharedCounterStore } from './rate-limit-cluster.fake';

const T0 = 1_700_000_040_000; // a whole minute
const MINUTE = 60_000;

function admission(): Admission {
  return new Admission({ ...loadAdmissionLimits({}), rateLimitPerMinute: 100, limitsSyncIntervalMs: 60_000 });
}

describe('what a node reports of its limit syncs (quarry_limits_sync_*)', () => {
  // The cleanup's phase is random (so nodes spread theirs): 0 puts the first one a whole interval away.
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
  afterEach(() => jest.restoreAllMocks());

  it('shareAdmissionCounters hands its sync to the admission, which the metrics read', async () => {
    const a = admission();
    expect(a.limitsSync).toBeNull();
    const sync = shareAdmissionCounters(a, new InMemorySharedCounterStore());
    try {
      expect(sync).not.toBeNull();
      expect(a.limitsSync).toBe(sync);
    } finally {
      await sync?.stop();
    }
    // Every limit off: nothing shared, nothing to report.
    const off = new Admission(loadAdmissionLimits({}));
    expect(shareAdmissionCounters(off, new InMemorySharedCounterStore())).toBeNull();
    expect(off.limitsSync).toBeNull();
  });

  it('counts failed syncs and cleanups while the store is down, and the age grows until one succeeds', async () => {
    const counter = new FixedWindowCounter(100, MINUTE);
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const errors: unknown[] = [];
    const failing = new ClusterCounterSync([{ name: 'requests/60000', counter }], store, {
      intervalMs: 1000,
      cleanupIntervalMs: 120_000,
      nowMs: () => clock.ms,
      onError: (err) => errors.push(err),
    });
    expect(failing.ageSeconds()).toBe(0);
    store.down = true;
    counter.take('tok', 1, clock.ms);
    clock.ms += 5_000;
    await failing.syncOnce();
    expect(failing.failed).toBe(1);
    expect(failing.ageSeconds()).toBe(5);
    // Still down when a cleanup is due (the first is due one cleanup interval after the start).
    clock.ms += 120_000;
    counter.take('tok', 1, clock.ms);
    await failing.syncOnce();
    expect(failing.failed).toBe(2);
    expect(failing.cleanupFailed).toBe(1);
    expect(failing.ageSeconds()).toBe(125);
    expect(errors).toHaveLength(3);
    // Back: the age starts over, the failures stay counted.
    store.down = false;
    clock.ms += 1_000;
    await failing.syncOnce();
    expect(failing.ageSeconds()).toBe(0);
    expect(failing.failed).toBe(2);
    expect(failing.synced).toBe(1);
  });

  it('counts the rows of ended windows its cleanups deleted', async () => {
    const counter = new FixedWindowCounter(100, MINUTE);
    const store = new InMemorySharedCounterStore();
    const clock = { ms: T0 };
    const sync = new ClusterCounterSync([{ name: 'requests/60000', counter }], store, {
      intervalMs: 1000,
      cleanupIntervalMs: 120_000,
      nowMs: () => clock.ms,
    });
    for (const subject of ['one', 'two', 'three']) counter.take(subject, 1, clock.ms);
    await sync.syncOnce();
    expect(store.rows.size).toBe(3);
    // Three minutes on: the one-minute windows ended and a cleanup was due.
    clock.ms += 180_000;
    await sync.syncOnce();
    expect(store.rows.size).toBe(0);
    expect(sync.cleanupDeletedRows).toBe(3);
    expect(sync.cleanupFailed).toBe(0);
  });
});
