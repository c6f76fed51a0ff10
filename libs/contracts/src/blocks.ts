/** A registered immutable block, as the metastore records it. */
export interface BlockRecord {
  /** Deterministic: derived from (datasetId, partition, first offset, last offset). */
  id: string;
  datasetId: string;
  /** Object-store key of the block file. */
  objectKey: string;
  rowCount: number;
  sizeBytes: number;
  /** `_time` range of the rows (epoch ms, inclusive). */
  minTime: number;
  maxTime: number;
  /** Log range the block was built from (inclusive), for idempotent replay. */
  partition: number;
  firstOffset: number;
  lastOffset: number;
  createdAt: string;
}

/**
 * Deterministic block id: a replay of the same log range yields the same id, so registration is
 * idempotent. `logEpoch` counts how often the log was replaced by an empty one (offsets start over, e.g.
 * a development cluster's in-memory Kafka); ids of a later epoch never collide with an earlier one's.
 */
export function blockIdFor(
  datasetId: string,
  partition: number,
  firstOffset: number,
  lastOffset: number,
  logEpoch = 0,
): string {
  const epoch = logEpoch > 0 ? `.e${logEpoch}` : '';
  return `${datasetId}${epoch}.p${partition}.${firstOffset}-${lastOffset}`;
}

/** The log epoch a block id was built in (0 for ids without one). */
export function logEpochOfBlockId(id: string): number {
  const match = /\.e(\d+)\.p\d+\./.exec(id);
  return match ? Number(match[1]) : 0;
}
