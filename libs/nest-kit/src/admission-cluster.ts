import {
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { admissionOf, type Admission } from './admission';
import { ClusterCounterSync, type SharedCounterStore } from './rate-limit-cluster';

/** Admissions already shared: a process running several roles starts one sync, not one per role. */
const SHARED = new WeakSet<Admission>();

/**
 * Shares a node's per-token counters (request rate, ingest quota, query cost) with the other nodes of
 * its region through `store` (the metastore's `admission_counters`), every
 * `limits.limitsSyncIntervalMs`. Null when nothing is to share (every limit off) or it already is.
 */
export function shareAdmissionCounters(
  admission: Admission,
  store: SharedCounterStore,
  onError?: (err: unknown) => void,
): ClusterCounterSync | null {
  const counters = admission.namedCounters;
  if (counters.length === 0 || SHARED.has(admission)) return null;
  SHARED.add(admission);
  const sync = new ClusterCounterSync(counters, store, {
    intervalMs: admission.limits.limitsSyncIntervalMs,
    onError,
  });
  sync.start();
  admission.limitsSync = sync;
  return sync;
}

/**
 * The Nest side of cluster-wide limits: started once the app is up (the admission control is installed
 * on the HTTP instance by then), stopped — with a last sync — before the app shuts down.
 */
export class ClusterLimits implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ClusterLimits');
  private sync: ClusterCounterSync | null = null;
  private lastWarnMs = 0;

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly store: SharedCounterStore | null,
  ) {}

  onApplicationBootstrap(): void {
    if (this.store === null) return;
    const admission = admissionOf(this.host.httpAdapter.getInstance() as object);
    if (admission === undefined) return;
    this.sync = shareAdmissionCounters(admission, this.store, (err) => this.warn(err));
    if (this.sync !== null)
      this.logger.log(
        `rate limits and quotas are shared by the region's nodes (sync every ${admission.limits.limitsSyncIntervalMs} ms)`,
      );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sync?.stop();
  }

  /** One line per minute at most while the metastore is unreachable: limits are per node meanwhile. */
  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarnMs < 60_000) return;
    this.lastWarnMs = now;
    this.logger.warn(
      `cannot sync the shared rate-limit counters (counting on this node until it can): ${(err as Error).message ?? err}`,
    );
  }
}

/**
 * The provider a role module lists: `storeOf` picks the shared store from whatever `storageToken`
 * provides (the node's storage runtime), null in the standalone shape, which keeps its counters local.
 */
export function clusterLimitsProvider<S>(
  storageToken: symbol | string,
  storeOf: (storage: S) => SharedCounterStore | null,
): Provider {
  return {
    provide: ClusterLimits,
    useFactory: (storage: S, host: HttpAdapterHost) => new ClusterLimits(host, storeOf(storage)),
    inject: [storageToken, HttpAdapterHost],
  };
}
