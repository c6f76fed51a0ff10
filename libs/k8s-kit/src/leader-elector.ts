import { V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { isNotFound } from './api-errors';

/** The part of `CoordinationV1Api` the elector uses (a port a test can fake). */
export type LeaseApi = Pick<
  CoordinationV1Api,
  'readNamespacedLease' | 'createNamespacedLease' | 'replaceNamespacedLease'
>;

export interface LeaderElectorOptions {
  leases: LeaseApi;
  /** The Lease object all candidates compete for. */
  namespace: string;
  name: string;
  /** This candidate; unique per process (pod name plus a random suffix). */
  identity: string;
  /** How long followers wait after the last observed change before taking over (default 15 s). */
  leaseDurationSeconds?: number;
  /** How long the leader keeps retrying a failing renewal before it gives up leadership (default 10 s). */
  renewDeadlineMs?: number;
  /** Pause between attempts (default 2 s). */
  retryPeriodMs?: number;
  /**
   * Followers wait `retryPeriod × (1 + jitter × random)` between attempts so candidates do not move in
   * lockstep (default 1.2, client-go's JitterFactor); 0 makes timing exact for tests.
   */
  retryJitter?: number;
  /** Clear the Lease when `run` is cancelled so a follower takes over at once (default true). */
  releaseOnCancel?: boolean;
  /** Called on becoming leader; `leadership` aborts when leadership ends for any reason. */
  onStartedLeading: (leadership: AbortSignal) => void | Promise<void>;
  /** Called when leadership ends (lost, or given up on cancel); not called if it never began. */
  onStoppedLeading?: () => void;
  /** Called whenever the observed holder changes (including to this candidate). */
  onNewLeader?: (identity: string) => void;
  /** Told of failed calls (a 409 just means another candidate wrote first) and of onStartedLeading failures. */
  onError?: (error: unknown) => void;
}

/** Why `run` returned: never led before cancel; led and stepped down on cancel; or failed to renew in time. */
export type ElectionOutcome = 'cancelled' | 'stepped-down' | 'lost';

interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTimeMs: number | undefined;
  renewTimeMs: number | undefined;
  leaseTransitions: number;
}

/**
 * Leader election on a `coordination.k8s.io/v1` Lease with client-go's semantics (`tools/leaderelection`):
 * - a candidate takes the Lease when it is free, or when its record has not changed for
 *   `leaseDurationSeconds` by the candidate's own clock (observed time, so clock skew between nodes is harmless);
 * - every write replaces the Lease with the resourceVersion just read, so when two candidates race one
 *   write wins and the other gets a 409;
 * - the leader renews every `retryPeriod`; if no renewal succeeds within `renewDeadline` it stops leading
 *   (`run` resolves `'lost'`; the operator should then exit non-zero so its pod restarts clean);
 * - on cancel it releases the Lease (empty holder) so a follower takes over within one retry period.
 * Hand-over after a leader dies without releasing takes at most lease duration + 2 × retry period (one
 * retry to observe its last renewal, one to notice the expiry), plus jitter.
 */
export class LeaderElector {
  private readonly leaseDurationSeconds: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly retryJitter: number;
  private observed: { record: LeaseRecord; atMs: number } | undefined;
  private leading = false;

  constructor(private readonly options: LeaderElectorOptions) {
    this.leaseDurationSeconds = options.leaseDurationSeconds ?? 15;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.retryJitter = options.retryJitter ?? 1.2;
    if (!Number.isInteger(this.leaseDurationSeconds) || this.leaseDurationSeconds < 1) {
      throw new RangeError('leaseDurationSeconds must be a whole number of seconds, at least 1');
    }
    if (this.leaseDurationSeconds * 1000 <= this.renewDeadlineMs) {
      throw new RangeError('the lease duration must be longer than the renew deadline');
    }
    if (this.renewDeadlineMs <= this.retryPeriodMs * 1.2) {
      throw new RangeError('the renew deadline must be longer than 1.2 × the retry period');
    }
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** The holder of the Lease as last read ('' when free or not read yet). */
  get observedLeader(): string {
    return this.observed?.record.holderIdentity ?? '';
  }

  /** Campaigns until leader, leads until the signal aborts or renewal fails. Never rejects. */
  async run(signal: AbortSignal): Promise<ElectionOutcome> {
    if (!(await this.acquire(signal))) return 'cancelled';
    this.leading = true;
    const leadership = new AbortController();
    try {
      // An async callback's rejection must not become an unhandled rejection that kills the process.
      const started = this.options.onStartedLeading(leadership.signal);
      if (started instanceof Promise) started.catch((error: unknown) => this.options.onError?.(error));
    } catch (error) {
      this.options.onError?.(error);
    }
    const renewal = await this.renewUntilLostOrCancelled(signal);
    leadership.abort();
    this.leading = false;
    if (renewal === 'cancelled' && (this.options.releaseOnCancel ?? true)) await this.release();
    this.options.onStoppedLeading?.();
    return renewal === 'lost' ? 'lost' : 'stepped-down';
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) return true;
      const jittered = this.retryPeriodMs * (1 + this.retryJitter * Math.random());
      await sleep(jittered, signal);
    }
    return false;
  }

  private async renewUntilLostOrCancelled(signal: AbortSignal): Promise<'lost' | 'cancelled'> {
    while (!signal.aborted) {
      const deadline = Date.now() + this.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted && !renewed) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return 'lost';
        // A renewal still in flight at the deadline counts as failed, as in client-go.
        renewed = await withTimeout(this.tryAcquireOrRenew(), remaining, false);
        if (!renewed) await sleep(Math.min(this.retryPeriodMs, Math.max(0, deadline - Date.now())), signal);
      }
      if (signal.aborted) break;
      await sleep(this.retryPeriodMs, signal);
    }
    return 'cancelled';
  }

  /** One round of client-go's `tryAcquireOrRenew`: true when this candidate holds the Lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { leases, namespace, name, identity } = this.options;
    const now = Date.now();
    let lease: V1Lease;
    try {
      lease = await leases.readNamespacedLease({ name, namespace });
    } catch (error) {
      if (!isNotFound(error)) {
        this.options.onError?.(error);
        return false;
      }
      return this.write(() =>
        leases.createNamespacedLease({ namespace, body: this.leaseFor(undefined, undefined, now) }),
      );
    }
    const record = recordOf(lease);
    this.observe(record, now);
    const heldByAnother =
      record.holderIdentity !== '' &&
      record.holderIdentity !== identity &&
      now < this.observed!.atMs + record.leaseDurationSeconds * 1000;
    if (heldByAnother) return false;
    return this.write(() =>
      leases.replaceNamespacedLease({ name, namespace, body: this.leaseFor(lease, record, now) }),
    );
  }

  private async release(): Promise<void> {
    const { leases, namespace, name, identity } = this.options;
    try {
      const lease = await leases.readNamespacedLease({ name, namespace });
      const record = recordOf(lease);
      if (record.holderIdentity !== identity) return;
      const at = new V1MicroTime(Date.now());
      const body: V1Lease = {
        ...lease,
        spec: {
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: at,
          renewTime: at,
          leaseTransitions: record.leaseTransitions,
        },
      };
      await leases.replaceNamespacedLease({ name, namespace, body });
    } catch (error) {
      this.options.onError?.(error); // the lease then simply expires
    }
  }

  /** The Lease to write for holding: keeps acquireTime and transitions when renewing, counts a transition otherwise. */
  private leaseFor(current: V1Lease | undefined, record: LeaseRecord | undefined, now: number): V1Lease {
    const renewing = record?.holderIdentity === this.options.identity;
    const acquireTimeMs = renewing ? (record!.acquireTimeMs ?? now) : now;
    const leaseTransitions =
      record === undefined ? 0 : renewing ? record.leaseTransitions : record.leaseTransitions + 1;
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      // Carrying the resourceVersion just read makes the replace conditional: of two racing candidates one gets a 409.
      metadata: current?.metadata ?? { name: this.options.name, namespace: this.options.namespace },
      spec: {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: this.leaseDurationSeconds,
        acquireTime: new V1MicroTime(acquireTimeMs),
        renewTime: new V1MicroTime(now),
        leaseTransitions,
      },
    };
  }

  private async write(call: () => Promise<V1Lease>): Promise<boolean> {
    try {
      const written = await call();
      this.observe(recordOf(written), Date.now());
      return true;
    } catch (error) {
      this.options.onError?.(error);
      return false;
    }
  }

  /** Remembers the record and when it last changed; followers measure expiry from that local time. */
  private observe(record: LeaseRecord, nowMs: number): void {
    const previous = this.observed?.record;
    if (previous && sameRecord(previous, record)) return;
    this.observed = { record, atMs: nowMs };
    if (previous?.holderIdentity !== record.holderIdentity && record.holderIdentity !== '') {
      this.options.onNewLeader?.(record.holderIdentity);
    }
  }
}

function recordOf(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTimeMs: spec.acquireTime ? new Date(spec.acquireTime).getTime() : undefined,
    renewTimeMs: spec.renewTime ? new Date(spec.renewTime).getTime() : undefined,
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

function sameRecord(a: LeaseRecord, b: LeaseRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTimeMs === b.acquireTimeMs &&
    a.renewTimeMs === b.renewTimeMs &&
    a.leaseTransitions === b.leaseTransitions
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(onTimeout), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
