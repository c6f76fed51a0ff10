/**
 * The pull side of one assigned Kafka partition: records kafkajs fetched (push) and `read` has not taken
 * yet, plus where the reader stands. Pure bookkeeping; the adapter does the Kafka calls (seek, pause).
 *
 * Invariant: every buffered record has offset >= `cursor`, records are in offset order, and the fetcher
 * delivers from `next` on (the offset after the last record it delivered).
 */
import type { LogRecord } from './ingest-log.port';

export interface FetchedMessage {
  offset: string;
  value: Buffer | null;
}

export class PartitionReader {
  /** Offset the next `read` is expected to start at; undefined until the first batch or seek. */
  cursor: number | undefined;
  /** Offset the fetcher delivers next; undefined until positioned. */
  next: number | undefined;
  /** Whether the adapter paused fetching of this partition because the buffer is full. */
  paused = false;
  /** A cursor whose gap to the first buffered record was checked against the log start. */
  gapCheckedAt: number | undefined;
  private records: LogRecord[] = [];
  private head = 0;
  private bufferedBytes = 0;
  private waiters = new Set<() => void>();

  constructor(
    readonly partition: number,
    private readonly maxRecords: number,
    private readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.records.length - this.head;
  }

  get bytes(): number {
    return this.bufferedBytes;
  }

  /** Offset of the first buffered record, or undefined when empty. */
  get firstOffset(): number | undefined {
    return this.size > 0 ? this.records[this.head].offset : undefined;
  }

  get full(): boolean {
    return this.size >= this.maxRecords || this.bufferedBytes >= this.maxBytes;
  }

  /** Below half the limits: fetching may resume. */
  get drained(): boolean {
    return this.size <= this.maxRecords / 2 && this.bufferedBytes <= this.maxBytes / 2;
  }

  /**
   * Adds the messages of one fetched batch (kafkajs already dropped those below `fetchedOffset`). The
   * first batch of an unpositioned partition positions it, so a reader resuming where the group's
   * committed offset left off needs no seek. Messages below `next` (a fetch that raced a seek or a
   * rebalance) are dropped, so nothing is buffered twice.
   */
  push(fetchedOffset: number, messages: FetchedMessage[]): void {
    if (this.next === undefined) {
      this.cursor = fetchedOffset;
      this.next = fetchedOffset;
    }
    for (const message of messages) {
      const offset = Number(message.offset);
      if (offset < this.next) continue;
      const payload = message.value ?? EMPTY;
      this.records.push({ partition: this.partition, offset, payload });
      this.bufferedBytes += payload.length;
      this.next = offset + 1;
    }
    this.wake();
  }

  /** Up to `max` records from the front; the cursor moves past them. */
  take(max: number): LogRecord[] {
    const end = Math.min(this.records.length, this.head + max);
    const out = this.records.slice(this.head, end);
    this.head = end;
    for (const r of out) this.bufferedBytes -= r.payload.length;
    if (out.length > 0) this.cursor = out[out.length - 1].offset + 1;
    // Compact now and then instead of shifting per read.
    if (this.head === this.records.length) {
      this.records = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  /** Drops the buffer and positions the reader at `offset` (the adapter seeks the consumer there too). */
  reset(offset: number): void {
    this.records = [];
    this.head = 0;
    this.bufferedBytes = 0;
    this.cursor = offset;
    this.next = offset;
    this.gapCheckedAt = undefined;
    this.wake();
  }

  /** Resolves on the next push, reset or wake, or after `ms`. */
  waitForChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Wakes waiting readers so they re-check their state (new data, revoked partition, close). */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

const EMPTY = new Uint8Array(0);
