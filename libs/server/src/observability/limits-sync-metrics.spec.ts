import { Registry } from 'prom-client';
import {
  Admission,
  ClusterCounterSync,
  loadAdmissionLimits,
  type SharedCounterDelta,
  type SharedCounterStore,
  type SharedCounterTotal,
} from '@quarry/nest-kit';
import { registerLimitsSyncMetrics } from './metrics';

const T0 = 1_700_000_040_000; // a whole minute

/** The metastore's shared counters in memory, with a switch that makes every call fail. */
class FlakyStore implements SharedCounterStore {
  readonly rows = new Map<string, { windowEndMs: number; used: number }>();
  down = false;

  async add(deltas: readonly SharedCounterDelta[]): Promise<SharedCounterTotal[]> {
    if (this.down) throw new Error('metastore unreachable');
    return deltas.map((d) => {
      const key = `${d.counter}|${d.subject}|${d.windowStartMs}`;
      const row = this.rows.get(key) ?? { windowEndMs: d.windowEndMs, used: 0 };
      row.used += d.delta;
      this.rows.set(key, row);
      return { counter: d.counter, subject: d.subject, windowStartMs: d.windowStartMs, used: row.used };
    });
  }

  async deleteEnded(nowMs: number): Promise<number> {
    if (this.down) throw new Error('metastore unreachable');
    let deleted = 0;
    for (const [key, row] of this.rows)
      if (row.windowEndMs <= nowMs) {
        this.rows.delete(key);
        deleted++;
      }
    return deleted;
  }
}

/** The value of one sample in Prometheus text, or undefined when it is absent. */
async function sample(registry: Registry, name: string): Promise<number | undefined> {
  const text = await registry.metrics();
  const escaped = name.replace(/[{}"]/g, (c) => `\\${c}`);
  const match = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}

describe('/metrics of the cluster-wide limit sync', () => {
  beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
  afterEach(() => jest.restoreAllMocks());

  it('exports 0s where the node counts alone (standalone, limits off)', async () => {
    const registry = new Registry();
    registerLimitsSyncMetrics(registry, new Admission(loadAdmissionLimits({})));
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="sync"}')).toBe(0);
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="cleanup"}')).toBe(0);
    expect(await sample(registry, 'quarry_limits_sync_age_seconds')).toBe(0);
    expect(await sample(registry, 'quarry_limits_cleanup_deleted_rows_total')).toBe(0);
  });

  it('counts failures and a growing age while the store fails, and the age falls back once it answers', async () => {
    const admission = new Admission({ ...loadAdmissionLimits({}), rateLimitPerMinute: 100 });
    const store = new FlakyStore();
    const clock = { ms: T0 };
    const sync = new ClusterCounterSync(admission.namedCounters, store, {
      intervalMs: 1000,
      cleanupIntervalMs: 120_000,
      nowMs: () => clock.ms,
    });
    admission.limitsSync = sync;
    const registry = new Registry();
    registerLimitsSyncMetrics(registry, admission);
    const counter = admission.namedCounters[0].counter;

    store.down = true;
    for (let i = 0; i < 3; i++) {
      clock.ms += 1_000;
      counter.take('tok', 1, clock.ms);
      await sync.syncOnce();
    }
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="sync"}')).toBe(3);
    expect(await sample(registry, 'quarry_limits_sync_age_seconds')).toBe(3);
    // A cleanup is due two minutes after the start: it fails too.
    clock.ms += 120_000;
    counter.take('tok', 1, clock.ms);
    await sync.syncOnce();
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="sync"}')).toBe(4);
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="cleanup"}')).toBe(1);
    expect(await sample(registry, 'quarry_limits_sync_age_seconds')).toBe(123);

    store.down = false;
    clock.ms += 1_000;
    await sync.syncOnce();
    expect(await sample(registry, 'quarry_limits_sync_age_seconds')).toBe(0);
    expect(await sample(registry, 'quarry_limits_sync_failures_total{operation="sync"}')).toBe(4);
    // Two minutes later the next cleanup deletes the row of the window that ended.
    clock.ms += 120_000;
    await sync.syncOnce();
    expect(await sample(registry, 'quarry_limits_cleanup_deleted_rows_total')).toBe(1);
  });
});
