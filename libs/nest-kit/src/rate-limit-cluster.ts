import type { FixedWindowCounter } from './rate-limit';

/** One row of the shared counters: what a node adds to it (`delta`, may be 0). */
export interface SharedCounterDelta {
  counter: string;
  subject: string;
  windowStartMs: number;
  windowEndMs: number;
  delta: number;
}

/** The region's total of one row after the deltas were added. */
export interface SharedCounterTotal {
  counter: string;
  subject: string;
  windowStartMs: number;
  used: number;
}

/**
 * Where a region's nodes share their counters: the metastore's `admission_counters`
 * (`AdmissionCounterRepository` of @quarry/metastore fits as it is). `add` must add every delta and
 * return the totals atomically (one `INSERT … ON CONFLICT … DO UPDATE … RETURNING`).
 */
export interface SharedCounterStore {
  add(deltas: readonly SharedCounterDelta[]): Promise<SharedCounterTotal[]>;
  /** Deletes the rows of windows that ended at or before `nowMs`. */
  deleteEnded(nowMs: number): Promise<number>;
}

/** A counter and the name its rows carry (its kind and window, so nodes configured differently never mix). */
export interface NamedCounter {
  name: string;
  counter: FixedWindowCounter;
}

export interface ClusterCounterSyncOptions {
  /** How often local consumption is published and the region's totals read back (S). */
  intervalMs: number;
  /** How often this node deletes the rows of ended windows (any node may; deleting twice is harmless). */
  cleanupIntervalMs?: number;
  /** A failed sync or cleanup (the metastore is down): the counts stay local and are sent again later. */
  onError?: (err: unknown) => void;
  nowMs?: () => number;
}

/**
 * How a node's sharing of its limits is going, for /metrics (`quarry_limits_sync_*`): a node whose syncs
 * fail counts on its own (fail open), so these say when the region's limits are per node instead.
 */
export interface LimitsSyncStats {
  /** Syncs (add + read back) that failed since start. */
  readonly failed: number;
  /** Cleanups of ended windows that failed since start. */
  readonly cleanupFailed: number;
  /** Rows of ended windows this node deleted since start. */
  readonly cleanupDeletedRows: number;
  /**
   * Seconds since the last successful sync; before the first one, since the sync was created (a node
   * that never reached the store shows a growing age, not 0).
   */
  ageSeconds(nowMs?: number): number;
}

/**
 * Cluster-wide rate limits and quotas (issue 17): every `intervalMs` (S) this node adds what each of its
 * counters consumed since the previous sync to the region's shared rows and takes back the totals, in one
 * statement; between syncs a node admits while (last known total + its own consumption since) is under
 * the limit. So a node learns another's consumption at most 2·S (plus a round trip) after it happened —
 * the other publishes within S, this node reads within S after that — and a region's nodes together can
 * pass a limit by at most what they admit in that time: nodes × per-node rate × 2·S (plus the requests
 * already admitted when the limit was reached). While the metastore is unreachable each node counts on
 * its own (fail open) and publishes what it kept once the metastore is back.
 */
export class ClusterCounterSync implements LimitsSyncStats {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastCleanupMs = 0;
  private readonly nowMs: () => number;
  /** Syncs that completed and failed (for tests and metrics). */
  synced = 0;
  failed = 0;
  cleanupFailed = 0;
  cleanupDeletedRows = 0;
  /** When the last sync succeeded (this node's clock); at first, when the sync was created. */
  private lastSuccessMs: number;

  constructor(
    private readonly counters: readonly NamedCounter[],
    private readonly store: SharedCounterStore,
    private readonly options: ClusterCounterSyncOptions,
  ) {
    this.nowMs = options.nowMs ?? Date.now;
    this.lastSuccessMs = this.nowMs();
    // Spread the nodes' cleanups: each starts its period at a random point.
    this.lastCleanupMs = this.nowMs() - Math.random() * (options.cleanupIntervalMs ?? 600_000);
  }

  start(): void {
    if (this.timer !== null || this.counters.length === 0) return;
    this.timer = setInterval(() => void this.syncOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and publishes what is left (a node leaving must not take its counts with it). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.syncOnce();
  }

  /** One sync; a sync still running when the next is due is not doubled (the next tick catches up). */
  syncOnce(): Promise<void> {
    if (this.running !== null) return this.running;
    this.running = this.sync().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sync(): Promise<void> {
    const now = this.nowMs();
    const batches = this.counters.map(({ name, counter }) => ({ name, counter, sent: counter.collect(now) }));
    const deltas: SharedCounterDelta[] = [];
    for (const { name, sent } of batches) for (const d of sent) deltas.push({ counter: name, ...d });
    try {
      const totals = deltas.length === 0 ? [] : await this.store.add(deltas);
      const byCounter = new Map<string, Map<string, number>>();
      for (const t of totals) {
        let subjects = byCounter.get(t.counter);
        if (subjects === undefined) byCounter.set(t.counter, (subjects = new Map()));
        subjects.set(t.subject, t.used);
      }
      for (const { name, counter, sent } of batches)
        counter.settle(sent, byCounter.get(name) ?? new Map<string, number>());
      this.synced++;
      this.lastSuccessMs = this.nowMs();
    } catch (err) {
      for (const { counter, sent } of batches) counter.settle(sent, null);
      this.failed++;
      this.options.onError?.(err);
    }
    const cleanupEvery = this.options.cleanupIntervalMs ?? 600_000;
    if (now - this.lastCleanupMs >= cleanupEvery) {
      this.lastCleanupMs = now;
      try {
        this.cleanupDeletedRows += await this.store.deleteEnded(now);
      } catch (err) {
        this.cleanupFailed++;
        this.options.onError?.(err);
      }
    }
  }

  ageSeconds(nowMs = this.nowMs()): number {
    return Math.max(0, nowMs - this.lastSuccessMs) / 1000;
  }
}
