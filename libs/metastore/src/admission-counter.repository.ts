import type { SqlDatabase } from './sql-database.port';
import { numberOf } from './sql-values';

/** What one node adds to one shared counter row: its consumption since its previous sync (may be 0). */
export interface AdmissionCounterDelta {
  /** Which limit: e.g. `requests/60000` (the limit's kind and its window in ms). */
  counter: string;
  /** Whom it is charged to (a token hash or a client address, never a token). */
  subject: string;
  windowStartMs: number;
  windowEndMs: number;
  delta: number;
}

/** The region's total of one row after the deltas were added. */
export interface AdmissionCounterTotal {
  counter: string;
  subject: string;
  windowStartMs: number;
  used: number;
}

/**
 * The shared counters behind cluster-wide rate limits, ingest quotas and query-cost budgets (table
 * `admission_counters`, one per region). `add` adds every delta and returns the totals in ONE statement
 * (`INSERT … ON CONFLICT … DO UPDATE … RETURNING`): concurrent nodes never lose each other's additions,
 * and a node learns the region's total in the same round trip that publishes its own consumption.
 */
export class AdmissionCounterRepository {
  constructor(private readonly db: SqlDatabase) {}

  async add(deltas: readonly AdmissionCounterDelta[]): Promise<AdmissionCounterTotal[]> {
    if (deltas.length === 0) return [];
    // ON CONFLICT DO UPDATE may not touch one row twice in a statement: merge duplicate keys first.
    const merged = new Map<string, AdmissionCounterDelta>();
    for (const d of deltas) {
      const key = `${d.counter}\u0000${d.subject}\u0000${d.windowStartMs}`;
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { ...d });
      else seen.delta += d.delta;
    }
    const rows = [...merged.values()];
    const result = await this.db.query<Record<string, unknown>>(
      `INSERT INTO admission_counters AS c (counter, subject, window_start_ms, window_end_ms, used)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
       ON CONFLICT (counter, subject, window_start_ms) DO UPDATE SET used = c.used + EXCLUDED.used
       RETURNING counter, subject, window_start_ms, used`,
      [
        rows.map((r) => r.counter),
        rows.map((r) => r.subject),
        rows.map((r) => String(r.windowStartMs)),
        rows.map((r) => String(r.windowEndMs)),
        rows.map((r) => String(Math.max(0, Math.round(r.delta)))),
      ],
    );
    return result.map((r) => ({
      counter: String(r.counter),
      subject: String(r.subject),
      windowStartMs: numberOf(r.window_start_ms),
      used: numberOf(r.used),
    }));
  }

  /** Deletes the rows of windows that ended before `nowMs`; how many. */
  async deleteEnded(nowMs: number): Promise<number> {
    const rows = await this.db.query<{ n: unknown }>(
      `WITH gone AS (DELETE FROM admission_counters WHERE window_end_ms <= $1 RETURNING 1)
       SELECT count(*) AS n FROM gone`,
      [String(nowMs)],
    );
    return numberOf(rows[0].n);
  }

  /** Rows stored (for tests and operators). */
  async count(): Promise<number> {
    const rows = await this.db.query<{ n: unknown }>('SELECT count(*) AS n FROM admission_counters');
    return numberOf(rows[0].n);
  }
}
