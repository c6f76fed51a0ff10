import type { Clock } from '@quarry/common';
import type { Metastore } from '@quarry/metastore';
import { EMPTY_STATE, step, type AlertChange, type MonitorState } from './alert-state';
import { evaluateAnomaly, evaluateMatchEvent, evaluateThreshold, type Observation } from './evaluate';
import { isPaused, monitorSpecOf, type MonitorSpec } from './monitor-spec';
import type { NotifierConfig, NotifierDelivery } from './notifier-delivery';
import { notificationsOf } from './notification';
import type { MonitorQueryRunner } from './query-runner';
import { dueWindow, shiftedDays, type RunWindow } from './schedule';

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
  metrics?: AlertingMetrics;
  logger?: LoggerLike;
}

/** What one monitor did in a tick. */
export type RunOutcome = 'paused' | 'already-run' | 'claimed-elsewhere' | 'ok' | 'failed';

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

  constructor(private readonly deps: SchedulerDeps) {}

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
    const monitors = await this.deps.metastore.resources.list<Record<string, unknown>>('monitor');
    for (const record of monitors) {
      const spec = monitorSpecOf(record.id, record.document);
      outcomes.set(spec.id, await this.runMonitor(spec, nowMs));
    }
    return outcomes;
  }

  private async runMonitor(spec: MonitorSpec, nowMs: number): Promise<RunOutcome> {
    if (isPaused(spec, nowMs)) return 'paused';
    const window = dueWindow(spec, nowMs);
    if (this.lastClaimed.get(spec.id) === window.intervalEndMs) return 'already-run';
    const intervalEnd = new Date(window.intervalEndMs).toISOString();
    const { metastore, nodeId, staleClaimMs } = this.deps;
    if (!(await metastore.alerts.claimRun(spec.id, intervalEnd, nodeId, staleClaimMs))) {
      // Claimed elsewhere: asked again on later ticks until it is done, in case its node dies mid-run.
      if ((await metastore.alerts.runStatus(spec.id, intervalEnd)) !== 'running')
        this.lastClaimed.set(spec.id, window.intervalEndMs);
      return 'claimed-elsewhere';
    }
    this.lastClaimed.set(spec.id, window.intervalEndMs);
    let changes: AlertChange[];
    try {
      changes = await this.evaluate(spec, window, nowMs);
    } catch (err) {
      const reason = (err as Error).message;
      await metastore.alerts.finishRun(spec.id, intervalEnd, 'failed', reason).catch(() => undefined);
      this.deps.metrics?.monitorRuns.inc({ type: spec.type, outcome: 'failed' });
      this.deps.logger?.warn(
        `monitor ${spec.id} (${spec.name}) failed for the interval ending ${intervalEnd}: ${reason}`,
      );
      return 'failed';
    }
    this.deps.metrics?.monitorRuns.inc({ type: spec.type, outcome: 'ok' });
    await this.notify(spec, changes, window, nowMs);
    return 'ok';
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
      await tx.alerts.finishRun(spec.id, intervalEnd, 'done');
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
        const line =
          `notification ${n.action} of ${n.checkId} via ${notifier.id} (${outcome.channel}): ${outcome.status}` +
          (outcome.status === 'delivered' ? ` after ${outcome.attempts} attempt(s)` : ` (${outcome.reason})`);
        if (outcome.status === 'delivered') this.deps.logger?.log(line);
        else this.deps.logger?.warn(line);
      }
    }
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
