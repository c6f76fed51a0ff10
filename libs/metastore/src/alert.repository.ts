import type { Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, jsonOf, numberOf } from './sql-values';

/** One alert state change of a monitor (AlertHistory of the v2 API). */
export interface AlertHistoryRow {
  monitorId: string;
  checkId: string;
  name: string;
  state: 'open' | 'closed';
  timestamp: string;
}

/** A monitor's stored evaluation state and the version a writer must present to replace it. */
export interface StoredMonitorState<T> {
  state: T;
  version: number;
}

export type MonitorRunStatus = 'running' | 'done' | 'failed';

/**
 * Monitor runs, monitor states and alert history (migration 0008). A run is claimed with one
 * statement, so of all the nodes that try to evaluate a monitor's interval exactly one succeeds; the
 * claim can be taken over only once its holder let it go stale (died mid-run).
 */
export class AlertRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the evaluation of `monitorId`'s interval ending at `intervalEnd` for `nodeId`: true when this
   * caller must evaluate it. A claim still 'running' after `staleAfterMs` is taken over.
   */
  async claimRun(
    monitorId: string,
    intervalEnd: string,
    nodeId: string,
    staleAfterMs: number,
  ): Promise<boolean> {
    const now = new Date(this.clock.nowMs()).toISOString();
    const stale = new Date(this.clock.nowMs() - staleAfterMs).toISOString();
    const rows = await this.db.query<{ node_id: string }>(
      `INSERT INTO monitor_runs (monitor_id, interval_end, node_id, status, claimed_at)
       VALUES ($1, $2, $3, 'running', $4)
       ON CONFLICT (monitor_id, interval_end) DO UPDATE
         SET node_id = EXCLUDED.node_id, claimed_at = EXCLUDED.claimed_at
         WHERE monitor_runs.status = 'running' AND monitor_runs.claimed_at < $5
       RETURNING node_id`,
      [monitorId, intervalEnd, nodeId, now, stale],
    );
    return rows.length === 1 && rows[0].node_id === nodeId;
  }

  /** Marks a claimed run finished (`done` or `failed` with why). */
  async finishRun(
    monitorId: string,
    intervalEnd: string,
    status: Exclude<MonitorRunStatus, 'running'>,
    error?: string,
  ): Promise<void> {
    await this.db.query(
      `UPDATE monitor_runs SET status = $3, finished_at = $4, error = $5
       WHERE monitor_id = $1 AND interval_end = $2`,
      [monitorId, intervalEnd, status, new Date(this.clock.nowMs()).toISOString(), error ?? null],
    );
  }

  /** The status of one run, or null when nobody claimed it. */
  async runStatus(monitorId: string, intervalEnd: string): Promise<MonitorRunStatus | null> {
    const rows = await this.db.query<{ status: MonitorRunStatus }>(
      'SELECT status FROM monitor_runs WHERE monitor_id = $1 AND interval_end = $2',
      [monitorId, intervalEnd],
    );
    return rows[0]?.status ?? null;
  }

  async loadState<T>(monitorId: string): Promise<StoredMonitorState<T> | null> {
    const rows = await this.db.query<{ state: unknown; version: unknown }>(
      'SELECT state, version FROM monitor_states WHERE monitor_id = $1',
      [monitorId],
    );
    if (rows.length === 0) return null;
    return { state: jsonOf<T>(rows[0].state), version: numberOf(rows[0].version) };
  }

  /**
   * Replaces the state if it is still at `expectedVersion` (0 = none stored yet): false when another
   * writer got there first.
   */
  async saveState<T>(monitorId: string, state: T, expectedVersion: number): Promise<boolean> {
    const now = new Date(this.clock.nowMs()).toISOString();
    const json = JSON.stringify(state);
    const rows =
      expectedVersion === 0
        ? await this.db.query(
            `INSERT INTO monitor_states (monitor_id, state, version, updated_at) VALUES ($1, $2, 1, $3)
             ON CONFLICT (monitor_id) DO NOTHING RETURNING version`,
            [monitorId, json, now],
          )
        : await this.db.query(
            `UPDATE monitor_states SET state = $2, version = version + 1, updated_at = $3
             WHERE monitor_id = $1 AND version = $4 RETURNING version`,
            [monitorId, json, now, expectedVersion],
          );
    return rows.length === 1;
  }

  async appendHistory(entries: readonly AlertHistoryRow[]): Promise<void> {
    for (const e of entries) {
      await this.db.query(
        'INSERT INTO alert_history (monitor_id, check_id, name, state, at) VALUES ($1, $2, $3, $4, $5)',
        [e.monitorId, e.checkId, e.name, e.state, e.timestamp],
      );
    }
  }

  /** State changes of a monitor with `start <= timestamp <= end`, oldest first. */
  async history(monitorId: string, start: string, end: string): Promise<AlertHistoryRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT monitor_id, check_id, name, state, at FROM alert_history
       WHERE monitor_id = $1 AND at >= $2 AND at <= $3 ORDER BY at, seq`,
      [monitorId, start, end],
    );
    return rows.map((r) => ({
      monitorId: String(r.monitor_id),
      checkId: String(r.check_id),
      name: String(r.name),
      state: r.state as 'open' | 'closed',
      timestamp: isoOf(r.at),
    }));
  }

  /** Forgets a deleted monitor's runs, state and history. */
  async deleteMonitor(monitorId: string): Promise<void> {
    for (const table of ['monitor_runs', 'monitor_states', 'alert_history'])
      await this.db.query(`DELETE FROM ${table} WHERE monitor_id = $1`, [monitorId]);
  }
}
