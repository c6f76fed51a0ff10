import type { Logger } from '@nestjs/common';
import { isQuarryError } from '@quarry/common';

/** A full volume is an operator's condition, not a bug: one line, and retried soon after space returns. */
const FULL_RETRY_CAP_MS = 5_000;

/**
 * A background task run every `intervalMs` (the events compactor, the block merger, the metrics
 * compactor): one run at a time, failures logged and retried with exponential backoff up to a minute,
 * `stop` waits for the run in progress.
 */
export class BackgroundLoop {
  /** Failed runs in a row (0 when healthy); exported as a gauge. */
  consecutiveFailures = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  /** The last failure was a full volume. */
  private full = false;

  constructor(
    private readonly what: string,
    private readonly logger: Logger,
    private readonly run: () => Promise<unknown>,
  ) {}

  /** `hurry` is asked after each run: true runs again at once (e.g. the tail is over its row budget). */
  start(intervalMs: number, hurry: () => boolean = () => false): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.run()
        .then(() => {
          this.consecutiveFailures = 0;
        })
        .catch((err) => {
          this.consecutiveFailures++;
          this.full = isQuarryError(err) && err.kind === 'insufficient_storage';
          if (this.full) {
            this.logger.warn(
              `${this.what} failed (${this.consecutiveFailures} in a row): ${(err as Error).message}; retrying once space is freed`,
            );
          } else {
            this.logger.error(
              `${this.what} failed (${this.consecutiveFailures} in a row): ${(err as Error).stack ?? err}`,
            );
          }
        })
        .finally(() => {
          if (this.stopped) return;
          // Back off while failing (storage outage), up to a minute.
          const delay =
            this.consecutiveFailures > 0
              ? Math.min(this.full ? FULL_RETRY_CAP_MS : 60_000, intervalMs * 2 ** this.consecutiveFailures)
              : intervalMs;
          this.timer = setTimeout(tick, this.consecutiveFailures === 0 && hurry() ? 0 : delay);
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }
}
