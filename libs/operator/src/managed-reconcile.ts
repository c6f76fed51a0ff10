import type { Clock } from './clock';
import { findCondition, mergeCondition, READY, SYNCED, type ConditionUpdate } from './conditions';
import type { ReadyReason } from '@quarry/k8s-api';
import type { Connection, ConnectionResolver, ManagementApiFactory } from './connection-resolver';
import { ANNOTATIONS, FINALIZER } from './constants';
import {
  DEFAULT_ERROR_TIMING,
  outcomeOfError,
  STALE_CACHE_RETRY_MS,
  type ErrorTiming,
} from './error-outcome';
import { KubeConflictError, type KubeObjects } from './kube-objects.port';
import type { ManagementApi } from './management-api.port';
import { after, done, type ReconcileResult } from './reconcile-result';
import type { AllResources, DeletionPolicy, ManagedKind } from './resources';
import { sameStatus } from './status-equality';
import { WrittenVersions } from './written-versions';

/** Everything a reconciler needs; the app wires real adapters, tests wire fakes. */
export interface ReconcileDeps {
  kube: KubeObjects;
  connections: ConnectionResolver;
  apiFor: ManagementApiFactory;
  clock: Clock;
  /** `QUARRY_OPERATOR_RESYNC` (before jitter): how often each connection resyncs its CRs. */
  resyncMs: number;
  random?: () => number;
  errorTiming?: ErrorTiming;
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
}

export interface ObjectKey {
  namespace?: string;
  name: string;
}

/** The state of one reconcile, handed to the kind's handler. */
export interface ReconcileContext<K extends ManagedKind> {
  /** The newest copy of the object: handlers replace it after each metadata write they make. */
  cr: AllResources[K];
  now: Date;
  kube: KubeObjects;
  connection: Connection;
  api: ManagementApi;
}

/** A finished sync: what `Ready` says, the kind's status fields, and an earlier requeue if one is due. */
export interface SyncOutcome<K extends ManagedKind> {
  ready: ConditionUpdate;
  status: Partial<NonNullable<AllResources[K]['status']>>;
  requeueAfterMs?: number;
}

/** What differs per kind; the loop around it (k8s.md §3.5) is `ManagedReconciler`. */
export interface KindHandler<K extends ManagedKind> {
  readonly kind: K;
  readonly defaultDeletionPolicy: DeletionPolicy;
  /** Checks the API cannot make (name conflicts, expiry in the past): a `Ready=False` update, or nothing. */
  check(ctx: ReconcileContext<K>): Promise<ConditionUpdate | undefined>;
  /** Observe, then create, adopt or update. */
  sync(ctx: ReconcileContext<K>): Promise<SyncOutcome<K>>;
  /** Deletion policy `Delete`: remove the external object; `gone` once it no longer exists. */
  finalize(ctx: ReconcileContext<K>): Promise<'gone' | { retryAfterMs: number }>;
  /** Deletion policy `Orphan`: anything to release besides the finalizer (no API calls). */
  orphan?(cr: AllResources[K], kube: KubeObjects): Promise<void>;
}

const CONFIRM_DELETE_MS = 1_000;

/**
 * The reconcile loop shared by Dataset, Role and Token: read from the cache, honour `paused`, finalize per
 * deletion policy, ensure the finalizer, check, sync, and write status only when it changed. Level
 * triggered: it never looks at which event enqueued the key.
 */
export class ManagedReconciler<K extends ManagedKind> {
  private readonly timing: ErrorTiming;
  private readonly deps: ReconcileDeps;
  /** Versions of our objects this reconciler wrote over: a cache still showing one is behind us. */
  private readonly written = new WrittenVersions();

  constructor(
    private readonly handler: KindHandler<K>,
    deps: ReconcileDeps,
  ) {
    this.deps = { ...deps, kube: this.written.track(deps.kube) };
    this.timing = deps.errorTiming ?? DEFAULT_ERROR_TIMING;
  }

  get kind(): K {
    return this.handler.kind;
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const { kube } = this.deps;
    const found = await kube.get(this.handler.kind, key.namespace, key.name);
    if (!found) {
      this.written.forget(this.handler.kind, key);
      return done();
    }
    // The cache has not caught up with our own last write of this object: acting on it would repeat or
    // undo that write (a second rotation, a sweep of the token just minted). The write's watch event
    // enqueues the key again; the short retry is for a watch that is slow to deliver it.
    if (this.written.isStale(this.handler.kind, found.metadata)) return after(STALE_CACHE_RETRY_MS);
    const state = { cr: found as AllResources[K], now: this.deps.clock.now() };
    try {
      return await this.run(state);
    } catch (err) {
      return this.fail(state, err);
    }
  }

  private async run(state: { cr: AllResources[K]; now: Date }): Promise<ReconcileResult> {
    const { kube } = this.deps;
    const meta = state.cr.metadata;
    if (meta.annotations?.[ANNOTATIONS.paused] === 'true') {
      await this.writeStatus(state, {
        synced: {
          type: SYNCED,
          status: 'False',
          reason: 'ReconcilePaused',
          message: `${ANNOTATIONS.paused} is "true"`,
        },
      });
      return done();
    }
    if (meta.deletionTimestamp) return this.finalize(state);

    const connection = await this.deps.connections.resolve(state.cr.spec.connectionRef);
    if (!meta.finalizers?.includes(FINALIZER))
      state.cr = await kube.addFinalizer(this.handler.kind, state.cr, FINALIZER);
    // The context *is* the state: metadata writes a handler makes are seen by the status write, even
    // when the handler fails halfway.
    const ctx: ReconcileContext<K> = Object.assign(state, {
      kube,
      connection,
      api: this.deps.apiFor(connection),
    });

    const problem = await this.handler.check(ctx);
    if (problem) {
      await this.writeStatus(state, { ready: problem, synced: success() });
      // Looked at again when the spec changes, when a CR sharing the name changes (the app's name
      // index requeues it), and by each connection resync (a not-Ready CR is unsettled).
      return done();
    }
    if (this.refusedThisGeneration(ctx.cr)) return done();

    const outcome = await this.handler.sync(ctx);
    await this.writeStatus(state, { ready: outcome.ready, synced: success(), fields: outcome.status });
    // No timed resync per object: the connection's resync lists each kind once and enqueues only the
    // keys that drifted (resync-scan.ts). Deadlines of the object itself (token expiry) still requeue.
    return outcome.requeueAfterMs === undefined ? done() : after(outcome.requeueAfterMs);
  }

  private async finalize(state: { cr: AllResources[K]; now: Date }): Promise<ReconcileResult> {
    const { kube } = this.deps;
    const { cr } = state;
    if (!cr.metadata.finalizers?.includes(FINALIZER)) return done();
    const policy = cr.spec.deletionPolicy ?? this.handler.defaultDeletionPolicy;
    if (policy === 'Orphan') {
      await this.handler.orphan?.(cr, kube);
      await kube.removeFinalizer(this.handler.kind, cr, FINALIZER);
      await kube.recordEvent(
        this.handler.kind,
        cr,
        'Normal',
        'Orphaned',
        `Left the ${this.handler.kind} in Quarry (deletionPolicy Orphan).`,
      );
      return done();
    }
    const connection = await this.deps.connections.resolve(cr.spec.connectionRef);
    const ctx: ReconcileContext<K> = Object.assign(state, {
      kube,
      connection,
      api: this.deps.apiFor(connection),
    });
    const finalized = await this.handler.finalize(ctx);
    if (finalized === 'gone') {
      await kube.removeFinalizer(this.handler.kind, state.cr, FINALIZER);
      await kube.recordEvent(
        this.handler.kind,
        cr,
        'Normal',
        'Deleted',
        `Deleted the ${this.handler.kind} in Quarry.`,
      );
      return done();
    }
    await this.writeStatus(state, {
      ready: {
        type: READY,
        status: 'False',
        reason: 'Deleting',
        message: 'waiting for Quarry to confirm the deletion',
      },
      synced: success(),
    });
    return after(finalized.retryAfterMs || CONFIRM_DELETE_MS);
  }

  private async fail(state: { cr: AllResources[K]; now: Date }, err: unknown): Promise<ReconcileResult> {
    const outcome = outcomeOfError(err, this.timing);
    const { cr } = state;
    if (!outcome.synced) return outcome.result;
    this.deps.log?.('warn', `Reconcile of ${this.handler.kind} failed`, {
      namespace: cr.metadata.namespace,
      name: cr.metadata.name,
      error: outcome.result.error,
    });
    try {
      const wrote = await this.writeStatus(state, { ready: outcome.ready, synced: outcome.synced });
      if (wrote) {
        await this.deps.kube.recordEvent(
          this.handler.kind,
          cr,
          'Warning',
          outcome.synced.reason,
          outcome.synced.message,
        );
      }
    } catch (statusErr) {
      // The object changed under us (or is gone): the retry reads it afresh.
      if (!(statusErr instanceof KubeConflictError)) throw statusErr;
    }
    return outcome.result;
  }

  /** The API refused this very generation as invalid: do not call it again until the spec changes. */
  private refusedThisGeneration(cr: AllResources[K]): boolean {
    const ready = findCondition(cr.status?.conditions, READY);
    const synced = findCondition(cr.status?.conditions, SYNCED);
    return (
      ready?.reason === 'InvalidSpec' &&
      synced?.reason === 'ReconcileError' &&
      ready.observedGeneration === cr.metadata.generation
    );
  }

  /** Merges conditions and fields into the status and patches it only when it says something new. */
  private async writeStatus(
    state: { cr: AllResources[K]; now: Date },
    change: { ready?: ConditionUpdate; synced: ConditionUpdate; fields?: object },
  ): Promise<boolean> {
    const { cr, now } = state;
    const generation = cr.metadata.generation;
    const previous = cr.status ?? {};
    let conditions = previous.conditions;
    if (change.ready) conditions = mergeCondition(conditions, change.ready, generation, now);
    else if (!findCondition(conditions, READY))
      conditions = mergeCondition(conditions, unknownReady(), generation, now);
    conditions = mergeCondition(conditions, change.synced, generation, now);
    const next = {
      ...previous,
      ...(change.fields ?? {}),
      observedGeneration: generation,
      conditions,
      lastSyncTime: now.toISOString(),
    } as NonNullable<AllResources[K]['status']>;
    if (sameStatus(previous, next)) return false;
    state.cr = await this.deps.kube.patchStatus(this.handler.kind, cr, next);
    return true;
  }
}

const success = (): ConditionUpdate => ({
  type: SYNCED,
  status: 'True',
  reason: 'ReconcileSuccess',
  message: '',
});

/** Every condition is written on the first visit, even when nothing is known yet (k8s.md §1). */
function unknownReady(): ConditionUpdate {
  return { type: READY, status: 'Unknown', reason: 'Creating', message: 'not observed yet' };
}

/** `Ready=True Available`. */
export const available = (message = ''): ConditionUpdate => ({
  type: READY,
  status: 'True',
  reason: 'Available',
  message,
});

export const notReady = (reason: ReadyReason, message: string): ConditionUpdate => ({
  type: READY,
  status: 'False',
  reason,
  message,
});
