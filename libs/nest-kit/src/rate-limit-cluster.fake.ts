import type { SharedCounterDelta, SharedCounterStore, SharedCounterTotal } from './rate-limit-cluster';

/**
 * The metastore's shared counters in memory (the port's fake): the same add-and-return-totals contract
 * as `admission_counters`, plus a switch that makes every call fail (the metastore down).
 */
export class InMemorySharedCounterStore implements SharedCounterStore {
  readonly rows = new Map<string, { windowEndMs: number; used: number }>();
  down = false;
  calls = 0;

  async add(deltas: readonly SharedCounterDelta[]): Promise<SharedCounterTotal[]> {
    this.calls++;
    if (this.down) throw new Error('metastore unreachable');
    const out: SharedCounterTotal[] = [];
    for (const d of deltas) {
      const key = `${d.counter}|${d.subject}|${d.windowStartMs}`;
      const row = this.rows.get(key) ?? { windowEndMs: d.windowEndMs, used: 0 };
      row.used += d.delta;
      this.rows.set(key, row);
      out.push({ counter: d.counter, subject: d.subject, windowStartMs: d.windowStartMs, used: row.used });
    }
    return out;
  }

  async deleteEnded(nowMs: number): Promise<number> {
    if (this.down) throw new Error('metastore unreachable');
    let n = 0;
    for (const [key, row] of this.rows)
      if (row.windowEndMs <= nowMs) {
        this.rows.delete(key);
        n++;
      }
    return n;
  }
}
