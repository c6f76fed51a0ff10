/** A JSON value as ingested (after flattening, objects only remain inside arrays or declared map fields). */
export type FieldValue = string | number | boolean | null | FieldValue[] | { [key: string]: FieldValue };

/**
 * An event after ingest normalization: nested objects flattened to dotted names, `_time` resolved and
 * removed from `fields`, system fields not included. `time` is epoch ms (µs precision).
 */
export interface NormalizedEvent {
  time: number;
  fields: Record<string, FieldValue>;
}

/** One entry of `failures` in the ingest status. */
export interface IngestFailure {
  timestamp: string;
  error: string;
}

/** The ingest status, exactly the six keys Axiom returns (api.md §3.3). */
export interface IngestStatus {
  ingested: number;
  failed: number;
  failures: IngestFailure[];
  processedBytes: number;
  blocksCreated: number;
  walLength: number;
}
