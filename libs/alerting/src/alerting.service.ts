import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { systemClock } from '@quarry/common';
import { QuarryMetrics, STORAGE_RUNTIME, VirtualFieldCache, type StorageRuntime } from '@quarry/server';
import { MonitorScheduler } from './monitor-scheduler';
import { OutboundDelivery } from './notifier-delivery';
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
      queries: new StorageQueryRunner(storage, virtualFields),
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
      metrics,
      logger: this.logger,
    });
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
