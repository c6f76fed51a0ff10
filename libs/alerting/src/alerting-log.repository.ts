import type { Clock } from '@quarry/common';
import type { SqlDatabase } from '@quarry/metastore';

/** A monitor run as the run log serves it (`GET /v2/monitors/{id}/runs`). */
export interface MonitorRunRow {
  intervalEnd: string;
  node: string;
  status: 'running' | 'done' | 'failed';
  attempts: number;
  claimedAt: string;
  finishedAt: string | null;
  /** When a failed run is tried again; null when no retry is left (or it did not fail). */
  retryAt: string | null;
  error: string | null;
}

/** One attempt to deliver a notification (`GET /v2/notifiers/{id}/deliveries`). */
export interface DeliveryRow {
  notifierId: string;
  monitorId: string;
  checkId: string;
  action: string;
  channel: string;
  attempt: number;
  status: 'delivered' | 'failed' | 'refused';
  httpStatus: number | null;
  error: string | null;
  timestamp: string;
}

/** What a claim tells its caller: whether to run, and which attempt this is. */
export type Claim = { claimed: true; attempt: number } | { claimed: false };

/**
 * The scheduler's own view of `monitor_runs` (claims that can be retried) and `notifier_deliveries`
 * (metastore migrations 0008 and 0009). Works alike on PostgreSQL and the embedded PGlite; give it the
 * transaction's database inside a transaction.
 */
export class AlertingLog {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }

  /**
   * Claims the run of `monitorId`'s interval for `nodeId` with one statement, so of all the nodes that
   * try exactly one wins: a new run, a 'running' claim older than `staleAfterMs` (its node died), or a
   * 'failed' run whose retry time has come (any node may retry it; the attempt count goes up).
   */
  async claim(monitorId: string, intervalEnd: string, nodeId: string, staleAfterMs: number): Promise<Claim> {
    const now = this.now();
    const stale = new Date(this.clock.nowMs() - staleAfterMs).toISOString();
    const rows = await this.db.query<{ node_id: string; attempts: unknown }>(
      `INSERT INTO monitor_runs (monitor_id, interval_end, node_id, status, claimed_at, attempts)
       VALUES ($1, $2, $3, 'running', $4, 1)
       ON CONFLICT (monitor_id, interval_end) DO UPDATE
         SET node_id = EXCLUDED.node_id, claimed_at = EXCLUDED.claimed_at, status = 'running',
             retry_at = NULL,
             attempts = monitor_runs.attempts + (CASE WHEN monitor_runs.status = 'failed' THEN 1 ELSE 0 END)
         WHERE (monitor_runs.status = 'running' AND monitor_runs.claimed_at < $5)
            OR (monitor_runs.status = 'failed' AND monitor_runs.retry_at IS NOT NULL AND monitor_runs.retry_at <= $4)
       RETURNING node_id, attempts`,
      [monitorId, intervalEnd, nodeId, now, stale],
    );
    if (rows.length !== 1 || rows[0].node_id !== nodeId) return { claimed: false };
    return { claimed: true, attempt: Number(rows[0].attempts) };
  }

  /** Whether the run is settled: done, or failed with no retry left (nobody needs to ask again). */
  async settled(monitorId: string, intervalEnd: string): Promise<boolean> {
    const rows = await this.db.query<{ status: string; retry_at: unknown }>(
      'SELECT status, retry_at FROM monitor_runs WHERE monitor_id = $1 AND interval_end = $2',
      [monitorId, intervalEnd],
    );
    const row = rows[0];
    if (!row) return false;
    return row.status === 'done' || (row.status === 'failed' && row.retry_at === null);
  }

  async done(monitorId: string, intervalEnd: string): Promise<void> {
    await this.db.query(
      `UPDATE monitor_runs SET status = 'done', finished_at = $3, error = NULL, retry_at = NULL
       WHERE monitor_id = $1 AND interval_end = $2`,
      [monitorId, intervalEnd, this.now()],
    );
  }

  /** Marks a run failed; `retryAtMs` null = final (no retry left within the interval). */
  async failed(
    monitorId: string,
    intervalEnd: string,
    error: string,
    retryAtMs: number | null,
  ): Promise<void> {
    await this.db.query(
      `UPDATE monitor_runs SET status = 'failed', finished_at = $3, error = $4, retry_at = $5
       WHERE monitor_id = $1 AND interval_end = $2`,
      [
        monitorId,
        intervalEnd,
        this.now(),
        error,
        retryAtMs === null ? null : new Date(retryAtMs).toISOString(),
      ],
    );
  }

  /** Runs of a monitor whose interval ends in `[start, end]`, newest first, at most `limit`. */
  async runs(monitorId: string, start: string, end: string, limit: number): Promise<MonitorRunRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT interval_end, node_id, status, attempts, claimed_at, finished_at, retry_at, error
       FROM monitor_runs WHERE monitor_id = $1 AND interval_end >= $2 AND interval_end <= $3
       ORDER BY interval_end DESC LIMIT $4`,
      [monitorId, start, end, limit],
    );
    return rows.map((r) => ({
      intervalEnd: iso(r.interval_end)!,
      node: String(r.node_id),
      status: r.status as MonitorRunRow['status'],
      attempts: Number(r.attempts),
      claimedAt: iso(r.claimed_at)!,
      finishedAt: iso(r.finished_at),
      retryAt: iso(r.retry_at),
      error: r.error === null || r.error === undefined ? null : String(r.error),
    }));
  }

  async appendDeliveries(rows: readonly DeliveryRow[]): Promise<void> {
    for (const d of rows) {
      await this.db.query(
        `INSERT INTO notifier_deliveries
           (notifier_id, monitor_id, check_id, action, channel, attempt, status, http_status, error, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          d.notifierId,
          d.monitorId,
          d.checkId,
          d.action,
          d.channel,
          d.attempt,
          d.status,
          d.httpStatus,
          d.error,
          d.timestamp,
        ],
      );
    }
  }

  /** Delivery attempts through a notifier with `start <= timestamp <= end`, newest first, at most `limit`. */
  async deliveries(notifierId: string, start: string, end: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT notifier_id, monitor_id, check_id, action, channel, attempt, status, http_status, error, at
       FROM notifier_deliveries WHERE notifier_id = $1 AND at >= $2 AND at <= $3
       ORDER BY at DESC, seq DESC LIMIT $4`,
      [notifierId, start, end, limit],
    );
    return rows.map((r) => ({
      notifierId: String(r.notifier_id),
      monitorId: String(r.monitor_id),
      checkId: String(r.check_id),
      action: String(r.action),
      channel: String(r.channel),
      attempt: Number(r.attempt),
      status: r.status as DeliveryRow['status'],
      httpStatus: r.http_status === null || r.http_status === undefined ? null : Number(r.http_status),
      error: r.error === null || r.error === undefined ? null : String(r.error),
      timestamp: iso(r.at)!,
    }));
  }

  /** Forgets delivery attempts older than `before` (the log's retention). */
  async pruneDeliveries(before: string): Promise<void> {
    await this.db.query('DELETE FROM notifier_deliveries WHERE at < $1', [before]);
  }

  /** Forgets what a deleted notifier delivered. */
  async deleteNotifier(notifierId: string): Promise<void> {
    await this.db.query('DELETE FROM notifier_deliveries WHERE notifier_id = $1', [notifierId]);
  }
}

/** A timestamptz as PGlite and pg return it (Date or string) in ISO form; null stays null. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
