import { Logger } from '@nestjs/common';
import { unavailable } from '@quarry/common';
import type { IngestLog, LogRecord } from '@quarry/log';

/** A log whose current end can be asked for (Kafka: the partitions' high watermarks). */
export interface FollowableLog extends IngestLog {
  fetchEndOffsets(): Promise<Map<number, number>>;
}

const BATCH_RECORDS = 2_000;
/** How long the loop sleeps when every partition is caught up (a catch-up request wakes it at once). */
const IDLE_MS = 25;

/**
 * Reads a log forward, partition by partition, and hands every record to `onRecord` — a query node's
 * way to hold the acknowledged but not yet compacted data in memory (Grafana Mimir's ingest storage).
 * Each partition starts at `startOffset(partition)` (the committed offset of the catalog snapshot the
 * node applied) and never goes back; when compaction has moved past the follower, it jumps ahead.
 *
 * `catchUp(ends)` is read-your-writes: a query first asks the log for its end offsets and waits until
 * the follower has handed over everything below them, so every event acknowledged before the query
 * started is in the answer (bounded; past the bound the query answers 503).
 */
export class LogFollower {
  private readonly logger: Logger;
  private readonly positions = new Map<number, number>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private readonly waiters = new Set<() => void>();
  private lastError: Error | null = null;
  /** Records handed over since start (for /metrics). */
  records = 0;

  constructor(
    readonly name: string,
    private readonly log: FollowableLog,
    private readonly startOffset: (partition: number) => number,
    private readonly onRecord: (record: LogRecord) => void,
  ) {
    this.logger = new Logger(`follower:${name}`);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** The log's end offsets now (one round trip to the brokers). */
  fetchEndOffsets(): Promise<Map<number, number>> {
    return this.log.fetchEndOffsets();
  }

  /** Next offset the follower will read, per partition it has read. */
  position(partition: number): number {
    return Math.max(this.positions.get(partition) ?? 0, this.startOffset(partition));
  }

  /**
   * Resolves once every record below `ends` (partition → end offset) has been handed over; rejects with
   * QuarryError `unavailable` after `timeoutMs`.
   */
  async catchUp(ends: Map<number, number>, timeoutMs: number): Promise<void> {
    const behind = () => [...ends].some(([partition, end]) => this.position(partition) < end);
    if (!behind()) return;
    const deadline = Date.now() + timeoutMs;
    this.wake?.();
    while (behind()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        const lag = [...ends]
          .map(([p, end]) => `partition ${p}: ${Math.max(0, end - this.position(p))} records behind`)
          .join(', ');
        throw unavailable(
          `this query node has not caught up with the ${this.name} log within ${timeoutMs} ms (${lag})` +
            (this.lastError ? `; last error: ${this.lastError.message}` : ''),
          { code: 'read_your_writes_timeout', retryAfterSeconds: 2 },
        );
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 100));
        this.waiters.add(done);
      });
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let progressed = false;
      try {
        for (const partition of this.log.partitions()) {
          const from = this.position(partition);
          const records = await this.log.read(partition, from, BATCH_RECORDS);
          if (records.length === 0) continue;
          for (const record of records) this.onRecord(record);
          this.records += records.length;
          this.positions.set(partition, records[records.length - 1].offset + 1);
          progressed = true;
        }
        this.lastError = null;
      } catch (err) {
        const details = (err as { details?: { logStart?: unknown; partition?: unknown } }).details;
        const logStart = details?.logStart;
        const truncatedAt = typeof details?.partition === 'number' ? details.partition : undefined;
        if ((err as { code?: string }).code === 'log_offset_truncated' && typeof logStart === 'number') {
          // Retention deleted records this node never read: they are lost to it (the compactors say
          // whether they are lost altogether). Go on from the log's start.
          this.logger.error(`${(err as Error).message}: continuing from offset ${logStart}`);
          for (const partition of this.log.partitions())
            if (
              this.position(partition) < logStart &&
              (truncatedAt === undefined || truncatedAt === partition)
            )
              this.positions.set(partition, logStart);
          continue;
        }
        this.lastError = err as Error;
        this.logger.warn(`reading the ${this.name} log failed: ${(err as Error).message}`);
        await this.sleep(1000);
        continue;
      }
      for (const notify of [...this.waiters]) notify();
      if (!progressed) await this.sleep(IDLE_MS);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
