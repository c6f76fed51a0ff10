import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What `/metrics` shows: reconcile counts, errors and durations per kind, queue depth, leadership. */
export class OperatorMetrics {
  readonly registry = new Registry();
  private readonly reconciles: Counter<'kind' | 'result'>;
  private readonly errors: Counter<'kind'>;
  private readonly duration: Histogram<'kind'>;
  private readonly leader: Gauge;
  private readonly apiUp: Gauge<'connection'>;
  private readonly depthSources = new Map<string, () => number>();
  private readonly restartSources = new Map<string, () => number>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'quarry_operator_' });
    this.reconciles = new Counter({
      name: 'quarry_operator_reconcile_total',
      help: 'Reconciles run, by kind and result (success, error).',
      labelNames: ['kind', 'result'],
      registers: [this.registry],
    });
    this.errors = new Counter({
      name: 'quarry_operator_reconcile_errors_total',
      help: 'Reconciles that ended in an error (management API down, refused, a Kubernetes write failed).',
      labelNames: ['kind'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'quarry_operator_reconcile_duration_seconds',
      help: 'Time one reconcile took, by kind.',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    const depthSources = this.depthSources;
    new Gauge({
      name: 'quarry_operator_work_queue_depth',
      help: 'Keys waiting in the work queue, by kind.',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        for (const [kind, depth] of depthSources) this.set({ kind }, depth());
      },
    });
    const restartSources = this.restartSources;
    new Gauge({
      name: 'quarry_operator_informer_restarts',
      help: 'Times a watch of this kind failed and was restarted (k8s-kit ResilientInformer).',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        for (const [kind, restarts] of restartSources) this.set({ kind }, restarts());
      },
    });
    this.apiUp = new Gauge({
      name: 'quarry_operator_management_api_up',
      help: '1 when the last probe of the connection (authenticated GET /v2/datasets) succeeded.',
      labelNames: ['connection'],
      registers: [this.registry],
    });
    this.leader = new Gauge({
      name: 'quarry_operator_leader',
      help: '1 while this process holds the leader Lease and reconciles.',
      registers: [this.registry],
    });
  }

  reconciled(kind: string, seconds: number, failed: boolean): void {
    this.reconciles.inc({ kind, result: failed ? 'error' : 'success' });
    if (failed) this.errors.inc({ kind });
    this.duration.observe({ kind }, seconds);
  }

  watchQueue(kind: string, depth: () => number): void {
    this.depthSources.set(kind, depth);
  }

  watchInformer(kind: string, restarts: () => number): void {
    this.restartSources.set(kind, restarts);
  }

  setManagementApiUp(connection: string, up: boolean): void {
    this.apiUp.set({ connection }, up ? 1 : 0);
  }

  setLeader(leading: boolean): void {
    this.leader.set(leading ? 1 : 0);
  }
}
