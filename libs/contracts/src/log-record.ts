import type { NormalizedEvent } from './events';

/**
 * The payload of one ingest-log record: one accepted batch for one dataset. `datasetId` is the id of the
 * dataset incarnation (a dataset deleted and re-created under the same name gets a new id), so replaying
 * the log never resurrects events of a deleted dataset.
 */
export interface IngestLogRecord {
  v: 1;
  datasetId: string;
  /** `_sysTime` of every event in the batch (epoch ms). */
  sysTime: number;
  events: NormalizedEvent[];
}

/** A record's position in the log. The embedded log has one partition (0). */
export interface LogPosition {
  partition: number;
  offset: number;
}
