import type { Clock } from './clock';
import { mergeCondition, READY, type ConditionUpdate } from './conditions';
import {
  ConnectionNotReadyError,
  type ConnectionResolver,
  type ManagementApiFactory,
} from './connection-resolver';
import type { KubeObjects } from './kube-objects.port';
import type { ObjectKey } from './managed-reconcile';
import { isManagementError } from './management-api.port';
import { after, done, jittered, type ReconcileResult } from './reconcile-result';
import type { QuarryConnectionStatus } from './resources';
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
}

/**
 * QuarryConnection status (k8s.md §3.1): each resync probes the API with the connection's credentials
 * (an authenticated `GET /v2/datasets`) and reports `Ready`. Nothing is created or deleted, so there is no
 * finalizer. `lastProbeTime` alone never causes a write.
 */
export class ConnectionReconciler {
  constructor(private readonly deps: ConnectionReconcilerDeps) {}

  async reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const { kube, clock } = this.deps;
    const connection = await kube.get('QuarryConnection', undefined, key.name);
    if (!connection) return done();
    const now = clock.now();
    const { ready, result } = await this.probe(key.name);
    this.deps.onProbe?.(key.name, ready.status === 'True');
    const previous = connection.status ?? {};
    const next: QuarryConnectionStatus = {
      ...previous,
      conditions: mergeCondition(previous.conditions, ready, connection.metadata.generation, now),
      observedGeneration: connection.metadata.generation,
      lastProbeTime: now.toISOString(),
    };
    if (!sameStatus(previous, next, ['lastProbeTime']))
      await kube.patchStatus('QuarryConnection', connection, next);
    return result;
  }

  private async probe(name: string): Promise<{ ready: ConditionUpdate; result: ReconcileResult }> {
    const resync = after(jittered(this.deps.resyncMs, this.deps.random));
    try {
      const connection = await this.deps.connections.resolve({ name });
      await this.deps.apiFor(connection).listDatasets();
      return { ready: { type: READY, status: 'True', reason: 'Available', message: '' }, result: resync };
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
