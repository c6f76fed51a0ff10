import type { Clock } from '@quarry/common';
import type { Metastore } from '@quarry/metastore';
import { AlertingLog, type DeliveryRow } from './alerting-log.repository';
import { EMPTY_STATE, step, type AlertChange, type MonitorState } from './alert-state';
import { evaluateAnomaly, evaluateMatchEvent, evaluateThreshold, type Observation } from './evaluate';
import { isPaused, monitorSpecOf, type MonitorSpec } from './monitor-spec';
import type { DeliveryOutcome, NotifierConfig, NotifierDelivery } from './notifier-delivery';
import { notificationsOf, type AlertNotification } from './notification';
import type { MonitorQueryRunner } from './query-runner';
import { dueWindow, shiftedDays, type RunWindow } from './schedule';

const HOUR = 3_600_000;
/** How long delivery attempts are kept (GET /v2/notifiers/{id}/deliveries). */
export const DELIVERY_RETENTION_MS = 30 * 24 * HOUR;

/** The counters the scheduler reports to (QuarryMetrics has them; tests may pass none). */
export interface AlertingMetrics {
  monitorRuns: { inc(labels: { type: string; outcome: string }): void };
  notificationDeliveries: { inc(labels: { channel: string; outcome: string }): void };
}

export interface LoggerLike {
  log(message: string): void;
  warn(message: string): void;
}

export interface SchedulerDeps {
  metastore: Metastore;
  queries: MonitorQueryRunner;
  delivery: NotifierDelivery;
  clock: Clock;
  /** Name of this node in run claims. */
  nodeId: string;
  /** A claim still running after this long is taken over by another node (its holder died). */
  staleClaimMs: number;
  /**
   * A failed run is tried again (by any node) after `retryBackoffMs × 2^(attempt − 1)` (at most
   * `maxRetryBackoffMs`), while the retry falls before the next interval's run. Defaults: 10 s, 1 min.
   */
  retryBackoffMs?: number;
  maxRetryBackoffMs?: number;
  /**
   * Whether this node's region evaluates the monitor (the region its datasets live in). Absent: every
   * monitor runs here (one region).
   */
  runsHere?: (monitor: MonitorRecordView) => boolean;
  metrics?: AlertingMetrics;
  logger?: LoggerLike;
}

/** What a region decision needs of a stored monitor. */
export interface MonitorRecordView {
  id: string;
  /** The datasets its APL reads, as the management API stored them (empty for MPL). */
  datasets: string[];
  spec: MonitorSpec;
}

/** What one monitor did in a tick. */
export type RunOutcome =
  'paused' | 'other-region' | 'already-run' | 'claimed-elsewhere' | 'ok' | 'retrying' | 'failed';

/**
 * Evaluates every enabled monitor's due interval, once across the cluster: for each monitor, claim the
 * interval (monitor_runs), run the query, step the state machine, then store the new state, the
 * history and the finished claim in one transaction, and only then notify. A node that dies after
 * claiming leaves a 'running' claim another node takes over once it is stale.
 */
export class MonitorScheduler {
  private running: Promise<Map<string, RunOutcome>> | null = null;
  /** The last interval each monitor was claimed for (by any node): spares a claim statement per tick. */
  private readonly lastClaimed = new Map<string, number>();

  private readonly log: AlertingLog;
  private lastPruneMs = 0;

  constructor(private readonly deps: SchedulerDeps) {
    this.log = new AlertingLog(deps.metastore.db, deps.clock);
  }

  /** One pass over all monitors at `nowMs`; a tick that finds one in progress waits for it instead. */
  tick(nowMs: number = this.deps.clock.nowMs()): Promise<Map<string, RunOutcome>> {
    if (this.running) return this.running;
    this.running = this.tickOnce(nowMs).finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once no tick is in progress (for shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async tickOnce(nowMs: number): Promise<Map<string, RunOutcome>> {
    const outcomes = new Map<string, RunOutcome>();
    if (nowMs - this.lastPruneMs > HOUR) {
      this.lastPruneMs = nowMs;
      await this.log
        .pruneDeliveries(new Date(nowMs - DELIVERY_RETENTION_MS).toISOString())
        .catch((err) => this.deps.logger?.warn(`delivery log not pruned: ${(err as Error).message}`));
    }
    const monitors = await this.deps.metastore.resources.list<Record<string, unknown>>('monitor');
    for (const record of monitors) {
      const spec = monitorSpecOf(record.id, record.document);
      const view = { id: record.id, datasets: record.datasets, spec };
      if (this.deps.runsHere && !this.deps.runsHere(view)) {
        outcomes.set(spec.id, 'other-region');
        continue;
      }
      outcomes.set(spec.id, await this.runMonitor(spec, nowMs));
    }
    return outcomes;
  }

  private async runMonitor(spec: MonitorSpec, nowMs: number): Promise<RunOutcome> {
    if (isPaused(spec, nowMs)) return 'paused';
    const window = dueWindow(spec, nowMs);
    if (this.lastClaimed.get(spec.id) === window.intervalEndMs) return 'already-run';
    const intervalEnd = new Date(window.intervalEndMs).toISOString();
    const { nodeId, staleClaimMs } = this.deps;
    const claim = await this.log.claim(spec.id, intervalEnd, nodeId, staleClaimMs);
    if (!claim.claimed) {
      // Claimed elsewhere, or failed and waiting for its retry: asked again on later ticks until it is
      // settled, in case its node dies mid-run or the retry falls to this node.
      if (await this.log.settled(spec.id, intervalEnd)) this.lastClaimed.set(spec.id, window.intervalEndMs);
      return 'claimed-elsewhere';
    }
    let changes: AlertChange[];
    try {
      changes = await this.evaluate(spec, window, nowMs);
    } catch (err) {
      return this.failed(spec, window, claim.attempt, (err as Error).message, nowMs);
    }
    this.lastClaimed.set(spec.id, window.intervalEndMs);
    this.deps.metrics?.monitorRuns.inc({ type: spec.type, outcome: 'ok' });
    await this.notify(spec, changes, window, nowMs);
    return 'ok';
  }

  /**
   * Records a failed attempt (the query failed, its node is down, the state moved meanwhile): with a
   * retry time while one fits before the next interval's run, else as final. Never silent: the run log
   * (`GET /v2/monitors/{id}/runs`), the log and `/metrics` all say so.
   */
  private async failed(
    spec: MonitorSpec,
    window: RunWindow,
    attempt: number,
    reason: string,
    nowMs: number,
  ): Promise<RunOutcome> {
    const intervalEnd = new Date(window.intervalEndMs).toISOString();
    const backoffMs = Math.min(
      (this.deps.retryBackoffMs ?? 10_000) * 2 ** (attempt - 1),
      this.deps.maxRetryBackoffMs ?? 60_000,
    );
    const retryAtMs = nowMs + backoffMs;
    // The next interval's run supersedes this one (only the latest due interval is ever run).
    const retry = retryAtMs < window.intervalEndMs + spec.intervalMs + spec.delayMs;
    await this.log.failed(spec.id, intervalEnd, reason, retry ? retryAtMs : null).catch(() => undefined);
    if (!retry) this.lastClaimed.set(spec.id, window.intervalEndMs);
    this.deps.metrics?.monitorRuns.inc({ type: spec.type, outcome: 'failed' });
    this.deps.logger?.warn(
      `monitor ${spec.id} (${spec.name}) failed for the interval ending ${intervalEnd} ` +
        `(attempt ${attempt}): ${reason}` +
        (retry ? `; retried after ${new Date(retryAtMs).toISOString()}` : '; no retry left in the interval'),
    );
    return retry ? 'retrying' : 'failed';
  }

  /** Query, step, commit. Throws when the query fails or another writer moved the state meanwhile. */
  private async evaluate(spec: MonitorSpec, window: RunWindow, nowMs: number): Promise<AlertChange[]> {
    const observation = await this.observe(spec, window, nowMs);
    const { metastore } = this.deps;
    const intervalEnd = new Date(window.intervalEndMs).toISOString();
    const stored = await metastore.alerts.loadState<MonitorState>(spec.id);
    const { state, changes } = step(spec, stored?.state ?? EMPTY_STATE, observation, window.intervalEndMs);
    const timestamp = new Date(nowMs).toISOString();
    await metastore.transaction(async (tx) => {
      if (!(await tx.alerts.saveState(spec.id, state, stored?.version ?? 0)))
        throw new Error('the monitor state was changed by another run meanwhile');
      await tx.alerts.appendHistory(
        changes
          .filter((c) => c.recorded)
          .map((c) => ({
            monitorId: spec.id,
            checkId: c.checkId,
            name: c.name,
            state: c.kind === 'closed' ? ('closed' as const) : ('open' as const),
            timestamp,
          })),
      );
      await new AlertingLog(tx.db, this.deps.clock).done(spec.id, intervalEnd);
    });
    return changes;
  }

  private async observe(spec: MonitorSpec, window: RunWindow, nowMs: number): Promise<Observation> {
    const run = (w: RunWindow) =>
      this.deps.queries.run({
        ...spec.query,
        startMs: w.startMs,
        endMs: w.endMs,
        nowMs: Math.min(nowMs, w.endMs),
      });
    const current = await run(window);
    if (spec.type === 'Threshold') return evaluateThreshold(spec, current);
    if (spec.type === 'MatchEvent') return evaluateMatchEvent(spec, current);
    const baselines = [];
    for (let day = 1; day <= spec.compareDays; day++) baselines.push(await run(shiftedDays(window, day)));
    return evaluateAnomaly(spec, current, baselines);
  }

  /** Delivers every notification of the run to every notifier of the monitor; logs each outcome. */
  private async notify(
    spec: MonitorSpec,
    changes: AlertChange[],
    window: RunWindow,
    nowMs: number,
  ): Promise<void> {
    const notifications = changes.flatMap((c) => notificationsOf(spec, c, window, nowMs));
    if (notifications.length === 0) return;
    for (const notifierId of spec.notifierIds) {
      const notifier = await this.notifier(notifierId);
      if (!notifier) {
        this.deps.logger?.warn(`monitor ${spec.id}: notifier ${notifierId} does not exist`);
        continue;
      }
      if (notifier.disabledUntil !== undefined && Date.parse(notifier.disabledUntil) > nowMs) continue;
      for (const n of notifications) {
        const outcome = await this.deps.delivery.deliver(notifier, n);
        this.deps.metrics?.notificationDeliveries.inc({ channel: outcome.channel, outcome: outcome.status });
        await this.record(notifier.id, spec.id, n, outcome, nowMs);
        const line =
          `notification ${n.action} of ${n.checkId} via ${notifier.id} (${outcome.channel}): ${outcome.status}` +
          (outcome.status === 'delivered' ? ` after ${outcome.attempts} attempt(s)` : ` (${outcome.reason})`);
        if (outcome.status === 'delivered') this.deps.logger?.log(line);
        else this.deps.logger?.warn(line);
      }
    }
  }

  /** Keeps every attempt of a delivery (a refusal as one row, attempt 0) for the delivery log. */
  private async record(
    notifierId: string,
    monitorId: string,
    n: AlertNotification,
    outcome: DeliveryOutcome,
    nowMs: number,
  ): Promise<void> {
    const base = { notifierId, monitorId, checkId: n.checkId, action: n.action, channel: outcome.channel };
    const rows: DeliveryRow[] =
      outcome.status === 'refused'
        ? [
            {
              ...base,
              attempt: 0,
              status: 'refused',
              httpStatus: null,
              error: outcome.reason,
              timestamp: new Date(nowMs).toISOString(),
            },
          ]
        : outcome.tries.map((t) => ({
            ...base,
            attempt: t.attempt,
            status: t.ok ? 'delivered' : 'failed',
            httpStatus: t.httpStatus ?? null,
            error: t.error ?? null,
            timestamp: new Date(t.atMs).toISOString(),
          }));
    await this.log
      .appendDeliveries(rows)
      .catch((err) =>
        this.deps.logger?.warn(`delivery log of ${notifierId} not stored: ${(err as Error).message}`),
      );
  }

  private async notifier(id: string): Promise<NotifierConfig | null> {
    const record = await this.deps.metastore.resources.get<Record<string, unknown>>('notifier', id);
    if (!record) return null;
    const doc = record.document;
    return {
      id: record.id,
      name: String(doc.name),
      properties: doc.properties as NotifierConfig['properties'],
      disabledUntil: typeof doc.disabledUntil === 'string' ? doc.disabledUntil : undefined,
    };
  }
}
