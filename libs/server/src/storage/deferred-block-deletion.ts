import type { Logger } from '@nestjs/common';
import type { ObjectStore } from '@quarry/objstore';

/**
 * Deletes block objects a grace period after they left the block index (merged away, past retention):
 * a query that listed them before may still be reading them. At the end of the grace the query workers
 * forget their cached columns (`forget`) and the object is deleted; a restart in between leaves the
 * object to the merger's orphan sweep at the next start.
 */
export class DeferredBlockDeletion {
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly objects: ObjectStore,
    private readonly forget: (objectKey: string) => void,
    private readonly logger: Logger,
    private readonly graceMs: number,
    /** What the blocks are, for the log line of a failed delete ("merged-away block"). */
    private readonly what: string,
  ) {}

  schedule(objectKeys: readonly string[]): void {
    if (objectKeys.length === 0) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      for (const key of objectKeys) {
        this.forget(key);
        this.objects.delete(key).catch((err) => {
          this.logger.warn(`could not delete ${this.what} ${key}: ${(err as Error).message}`);
        });
      }
    }, this.graceMs);
    timer.unref();
    this.pending.add(timer);
  }

  /** Stops the timers (a stopping node): the objects stay for the next start's orphan sweep. */
  cancelAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
