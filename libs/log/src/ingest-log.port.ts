import type { LogPosition } from '@quarry/contracts';

/** One record as read back from the log. */
export interface LogRecord {
  partition: number;
  offset: number;
  payload: Uint8Array;
}

/** Health and counters, for `/readyz` and metrics (`quarry_log_*`). */
export interface IngestLogStats {
  /** True after the first write/fsync error: the log acknowledges nothing more until restarted. */
  failed: boolean;
  failure?: string;
  segments: number;
  /** Bytes retained on disk (all segments). */
  bytes: number;
  /** Torn or corrupt tails cut off the last segment when the log was opened (`quarry_log_torn_tail_total`). */
  tornTailTruncations: number;
  /** Records acknowledged since open. */
  appendedRecords?: number;
  /** Payload bytes acknowledged since open. */
  appendedBytes?: number;
  /** fdatasync calls that completed (one per group commit, plus one per segment roll). */
  fsyncs?: number;
  /** Append calls rejected because the disk was full. */
  noSpaceRejections?: number;
}

/**
 * The ingest log: the durable buffer between an acknowledged ingest request and the compactor.
 * Adapters: `FileSegmentLog` (embedded, one partition); a Kafka adapter lives elsewhere.
 * Fake: `MemoryIngestLog`. Contract suite: `ingest-log.contract.ts`.
 */
export interface IngestLog {
  /**
   * Appends payloads durably (all to partition `partitionFor(key)`; the embedded log has one partition, 0).
   * Resolves with their positions only after the bytes are fdatasync'd. Concurrent callers share one fsync
   * (group commit: a few-ms / ~1 MiB window). Rejects with QuarryError `unavailable` once the log has
   * failed, `insufficient_storage` when the disk is full (retryable), `too_large` for a payload above the cap.
   */
  append(key: string, payloads: Uint8Array[]): Promise<LogPosition[]>;
  /**
   * Up to `maxRecords` records of `partition` with offset >= fromOffset, in order. Only durable
   * (acknowledged) records are returned. An empty array means the reader is caught up; a short
   * non-empty array does not. QuarryError `not_found` if `fromOffset` was already truncated away.
   */
  read(partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]>;
  /** Offset the next appended record will get (= last durable offset + 1; 0 for an empty log). */
  endOffset(partition: number): number;
  partitions(): number[];
  /** Deletes whole segments all of whose records have offset < `offset` (called once the compactor committed). */
  truncateBefore(partition: number, offset: number): Promise<void>;
  /** Health for /readyz and metrics. */
  stats(): IngestLogStats;
  close(): Promise<void>;
}
