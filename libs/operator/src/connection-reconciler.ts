import type { Clock } from './clock';
import { mergeCondition, READY, type ConditionUpdate } from './conditions';
import {
  ConnectionNotReadyError,
  type Connection,
  type ConnectionResolver,
  type ManagementApiFactory,
} from './connection-resolver';
import type { KubeObjects } from './kube-objects.port';
import type { ObjectKey } from './managed-reconcile';
import { isManagementError, type ApiDataset, type ManagementApi } from './management-api.port';
import { connectionOf } from './name-claims';
import { after, done, jittered, type ReconcileResult } from './reconcile-result';
import type { ManagedKind, QuarryConnectionStatus } from './resources';
import { resyncConnection, type ResyncReport } from './resync-scan';
import { sameStatus } from './status-equality';

export interface ConnectionReconcilerDeps {
  kube: KubeObjects;
  connections: ConnectionResolver;
  apiFor: ManagementApiFactory;
  clock: Clock;
  resyncMs: number;
  random?: () => number;
  /** Told of each probe's outcome (the `quarry_operator_management_api_up` metric). */
  onProbe?: (connection: string, up: boolean) => void;
  /**
   * Adds a key to a managed kind's work queue. When set, each reconcile of a connection is also the full
   * resync of its CRs (`resync-scan.ts`); without it the reconciler only reports `Ready`.
   */
  enqueue?: (kind: ManagedKind, key: ObjectKey) => void;
  /** Told of each resync (logs, tests). */
  onResync?: (connection: string, report: ResyncReport) => void;
}

const MANAGED_KINDS: ManagedKind[] = ['Dataset', 'Role', 'Token'];

/**
 * QuarryConnection status (k8s.md §3.1): each resync probes the API with the connection's credentials
 * (an authenticated `GET /v2/datasets`) and reports `Ready`. Nothing is created or deleted, so there is no
 * finalizer. `lastProbeTime` alone never causes a write.
 *
 * The connection's timed requeue (every resync, jittered) is also the full resync of its CRs (k8s.md §3.5):
 * after a good probe, one LIST per kind is compared with the CRs and only unsettled, missing or drifted
 * keys are enqueued. A changed spec (new URL, new default region) enqueues every CR of the connection.
 */
export class ConnectionReconciler {
  constructor(private readonly deps: ConnectionReconcilerDeps) {}

  async reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const { kube, clock } = this.deps;
    const connection = await kube.get('QuarryConnection', undefined, key.name);
    if (!connection) return done();
    const now = clock.now();
    const { ready, result, reached } = await this.probe(key.name);
    this.deps.onProbe?.(key.name, ready.status === 'True');
    const previous = connection.status ?? {};
    const specChanged = previous.observedGeneration !== connection.metadata.generation;
    const next: QuarryConnectionStatus = {
      ...previous,
      conditions: mergeCondition(previous.conditions, ready, connection.metadata.generation, now),
      observedGeneration: connection.metadata.generation,
      lastProbeTime: now.toISOString(),
    };
    if (!sameStatus(previous, next, ['lastProbeTime']))
      await kube.patchStatus('QuarryConnection', connection, next);
    await this.resync(key.name, specChanged, reached);
    return result;
  }

  /** Enqueues what the resync found; everything of the connection after a spec change. */
  private async resync(
    name: string,
    specChanged: boolean,
    reached: { connection: Connection; api: ManagementApi; datasets: ApiDataset[] } | undefined,
  ): Promise<void> {
    const { enqueue, kube } = this.deps;
    if (!enqueue) return;
    if (specChanged) {
      for (const kind of MANAGED_KINDS)
        for (const cr of await kube.list(kind))
          if (connectionOf(cr) === name)
            enqueue(kind, { namespace: cr.metadata.namespace, name: cr.metadata.name });
      return;
    }
    // Not reachable: its CRs learn that from their own calls and retries; nothing to compare with.
    if (!reached) return;
    const report = await resyncConnection(reached.connection, reached.api, kube, reached.datasets);
    for (const target of report.targets) enqueue(target.kind, target.key);
    this.deps.onResync?.(name, report);
  }

  private async probe(name: string): Promise<{
    ready: ConditionUpdate;
    result: ReconcileResult;
    reached?: { connection: Connection; api: ManagementApi; datasets: ApiDataset[] };
  }> {
    const resync = after(jittered(this.deps.resyncMs, this.deps.random));
    try {
      const connection = await this.deps.connections.resolve({ name });
      const api = this.deps.apiFor(connection);
      // The probe is the resync's LIST of datasets.
      const datasets = await api.listDatasets();
      return {
        ready: { type: READY, status: 'True', reason: 'Available', message: '' },
        result: resync,
        reached: { connection, api, datasets },
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const notReady = (reason: string): ConditionUpdate => ({
        type: READY,
        status: 'False',
        reason,
        message,
      });
      if (err instanceof ConnectionNotReadyError)
        return { ready: notReady('ConnectionNotReady'), result: after(30_000) };
      if (isManagementError(err, 'Unauthorized')) return { ready: notReady('Unauthorized'), result: resync };
      if (isManagementError(err, 'Unavailable'))
        return {
          ready: notReady('ManagementAPIUnavailable'),
          result: { requeue: 'backoff', error: message },
        };
      return { ready: notReady('ReconcileError'), result: { requeue: 'backoff', error: message } };
    }
  }
}
