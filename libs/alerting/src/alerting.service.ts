import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { systemClock } from '@quarry/common';
import { datasetsOfMpl } from '@quarry/mpl';
import { QuarryMetrics, STORAGE_RUNTIME, VirtualFieldCache, type StorageRuntime } from '@quarry/server';
import { ClusterQueryRunner } from './cluster-query-runner';
import { MonitorScheduler, type MonitorRecordView } from './monitor-scheduler';
import { OutboundDelivery } from './notifier-delivery';
import type { MonitorQueryRunner } from './query-runner';
import { StorageQueryRunner } from './storage-query-runner';
import { urlPolicy } from './url-policy';

/**
 * The monitor scheduler of a process that serves the management role (the standalone server, every
 * management node): ticks every QUARRY_ALERTING_TICK_MS once the app is up, stops with it. Tests drive
 * `scheduler.tick(nowMs)` themselves with QUARRY_ALERTING_ENABLED=false.
 */
@Injectable()
export class AlertingService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly scheduler: MonitorScheduler;
  private readonly logger = new Logger('alerting');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    metrics: QuarryMetrics,
    virtualFields: VirtualFieldCache,
  ) {
    const { config } = storage;
    const notifiers = config.notifiers;
    this.scheduler = new MonitorScheduler({
      metastore: storage.metastore,
      queries: this.queryRunner(virtualFields),
      delivery: new OutboundDelivery({
        policy: urlPolicy(notifiers.allow, notifiers.deny),
        timeoutMs: notifiers.timeoutMs,
        attempts: notifiers.attempts,
        backoffMs: notifiers.backoffMs,
        smtp: notifiers.smtp && { ...notifiers.smtp, timeoutMs: notifiers.timeoutMs },
      }),
      clock: systemClock,
      nodeId: config.nodeId,
      // Long enough for a slow query and its notifications; a dead node's claim is retried after this.
      staleClaimMs: 5 * 60_000,
      // A failed run is retried on a later tick: the first retry one tick later, then doubling (≤ 1 min).
      retryBackoffMs: config.alerting.tickMs,
      runsHere: (monitor) => this.regionOf(monitor) === storage.regions.here,
      metrics,
      logger: this.logger,
    });
  }

  /**
   * Cluster: a query node of this region runs each query, as it runs a user's (the ingest tail
   * included; a management node follows no log). Standalone: this process, which holds the tail.
   */
  private queryRunner(virtualFields: VirtualFieldCache): MonitorQueryRunner {
    const { membership, config } = this.storage;
    if (membership === null) return new StorageQueryRunner(this.storage, virtualFields);
    if (config.clusterSecret === undefined) {
      this.logger.warn(
        'QUARRY_CLUSTER_SECRET is not set: monitor queries run on this management node, which reads ' +
          'compacted blocks only (events still in the ingest log are not seen); set it on every node',
      );
      return new StorageQueryRunner(this.storage, virtualFields);
    }
    return new ClusterQueryRunner(
      { live: () => membership.live('query') },
      config.clusterSecret,
      // A monitor query is a whole query, not a share: the longer of the RPC timeout and a minute.
      Math.max(config.queryRpcTimeoutMs, 60_000),
    );
  }

  /**
   * The region whose management nodes run a monitor: where the datasets it reads live (a region's data
   * is queried in that region only). A monitor whose datasets are unknown or span regions runs in the
   * home region, where its failure is recorded.
   */
  private regionOf(monitor: MonitorRecordView): string {
    const { regions, registry } = this.storage;
    if (!regions.multiRegion) return regions.here;
    let names = monitor.datasets;
    if (monitor.spec.query.language === 'mpl') {
      try {
        names = datasetsOfMpl(monitor.spec.query.text, {});
      } catch {
        names = [];
      }
    }
    const found = new Set(names.flatMap((n) => registry.getByName(n) ?? []).map((d) => regions.regionOf(d)));
    return found.size === 1 ? [...found][0] : regions.home;
  }

  onApplicationBootstrap(): void {
    const { enabled, tickMs } = this.storage.config.alerting;
    if (!enabled) return;
    this.timer = setInterval(() => {
      this.scheduler
        .tick()
        .catch((err) => this.logger.warn(`monitor tick failed: ${(err as Error).message}`));
    }, tickMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.scheduler.idle();
  }
}
