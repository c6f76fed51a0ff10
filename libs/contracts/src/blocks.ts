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

/** Deterministic block id: a replay of the same log range yields the same id, so registration is idempotent. */
export function blockIdFor(
  datasetId: string,
  partition: number,
  firstOffset: number,
  lastOffset: number,
): string {
  return `${datasetId}.p${partition}.${firstOffset}-${lastOffset}`;
}
