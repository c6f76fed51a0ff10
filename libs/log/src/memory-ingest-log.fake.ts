import { QuarryError } from '@quarry/common';
import type { LogPosition } from '@quarry/contracts';
import type { IngestLog, IngestLogStats, LogRecord } from './ingest-log.port';

/**
 * In-memory `IngestLog` for tests of the ingest path and the compactor. One partition (0), records are
 * "durable" as soon as `append` resolves. It reproduces the adapter's failure semantics on demand, so
 * callers can test their 503/507 mapping without a disk:
 * - `failNextSync()`: the next append fails as if fdatasync returned EIO; the log is failed from then on.
 * - `setDiskFull(true)`: appends reject with `insufficient_storage` until `setDiskFull(false)`.
 * `truncateBefore` drops every record below the offset (as if each record were its own segment).
 */
export class MemoryIngestLog implements IngestLog {
  private records: Uint8Array[] = [];
  /** Offset of `records[0]`. */
  private start = 0;
  private failure: string | undefined;
  private failNext = false;
  private diskFull = false;
  private closed = false;
  private appendedRecords = 0;
  private appendedBytes = 0;
  private syncs = 0;
  private noSpaceRejections = 0;

  failNextSync(): void {
    this.failNext = true;
  }

  setDiskFull(full: boolean): void {
    this.diskFull = full;
  }

  async append(_key: string, payloads: Uint8Array[]): Promise<LogPosition[]> {
    // Yield once, like a real write, so concurrent callers interleave as they would against the adapter.
    await Promise.resolve();
    if (this.failure !== undefined) throw this.failedError();
    if (this.closed) throw new QuarryError('unavailable', 'the ingest log is closed', { code: 'log_closed' });
    if (payloads.length === 0) return [];
    if (this.failNext) {
      this.failNext = false;
      this.failure = 'injected fsync failure (EIO)';
      throw this.failedError();
    }
    if (this.diskFull) {
      this.noSpaceRejections++;
      throw new QuarryError('insufficient_storage', 'the ingest log volume is full', {
        code: 'log_disk_full',
        retryAfterSeconds: 5,
      });
    }
    const positions: LogPosition[] = [];
    for (const payload of payloads) {
      positions.push({ partition: 0, offset: this.start + this.records.length });
      // Copy: the caller may reuse its buffer once we acknowledged.
      this.records.push(Uint8Array.from(payload));
      this.appendedBytes += payload.length;
    }
    this.appendedRecords += payloads.length;
    this.syncs++;
    return positions;
  }

  async read(partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    this.checkPartition(partition);
    if (!Number.isSafeInteger(fromOffset) || fromOffset < 0)
      throw new QuarryError('invalid', `bad offset ${fromOffset}`);
    if (fromOffset < this.start) {
      throw new QuarryError(
        'not_found',
        `log offset ${fromOffset} was truncated (log starts at ${this.start})`,
        {
          code: 'log_offset_truncated',
        },
      );
    }
    const out: LogRecord[] = [];
    for (let i = fromOffset - this.start; i < this.records.length && out.length < maxRecords; i++) {
      out.push({ partition: 0, offset: this.start + i, payload: this.records[i] });
    }
    return out;
  }

  endOffset(partition: number): number {
    this.checkPartition(partition);
    return this.start + this.records.length;
  }

  partitions(): number[] {
    return [0];
  }

  async truncateBefore(partition: number, offset: number): Promise<void> {
    this.checkPartition(partition);
    const drop = Math.min(Math.max(0, offset - this.start), this.records.length);
    this.records = this.records.slice(drop);
    this.start += drop;
  }

  stats(): IngestLogStats {
    return {
      failed: this.failure !== undefined,
      failure: this.failure,
      segments: 1,
      bytes: this.records.reduce((sum, r) => sum + r.length, 0),
      tornTailTruncations: 0,
      appendedRecords: this.appendedRecords,
      appendedBytes: this.appendedBytes,
      fsyncs: this.syncs,
      noSpaceRejections: this.noSpaceRejections,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private failedError(): QuarryError {
    return new QuarryError(
      'unavailable',
      `the ingest log has failed and accepts no writes until restarted: ${this.failure}`,
      {
        code: 'log_failed',
      },
    );
  }

  private checkPartition(partition: number): void {
    if (partition !== 0) {
      throw new QuarryError('invalid', `the log has one partition (0), not ${partition}`, {
        code: 'log_bad_partition',
      });
    }
  }
}
