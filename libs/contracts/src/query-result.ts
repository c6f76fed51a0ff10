import type { ScanStats } from './dataset-source';
import type { WireType } from './columns';

/** Description of the aggregation behind a result field (tabular `fields[].agg`). */
export interface FieldAgg {
  name: string;
  fields?: string[];
  args?: unknown[];
}

export interface ResultField {
  name: string;
  type: WireType;
  agg?: FieldAgg;
}

/**
 * One result table, column-major, values JSON-ready: datetimes as RFC 3339 strings, numbers as numbers,
 * nulls as null, dynamic values as JSON.
 */
export interface ResultTable {
  name: string;
  sources: { name: string }[];
  fields: ResultField[];
  order: { field: string; desc: boolean }[];
  /** Group-by keys of a summarize (empty when the query does not group). */
  groups: { name: string }[];
  /** Bucket description when the first group key is a time bin. */
  buckets?: { field: string; size: number };
  columns: unknown[][];
}

export interface QueryOutput {
  tables: ResultTable[];
  datasetNames: string[];
  /** True when the final table is the result of a summarize (legacy format renders it as buckets). */
  aggregated: boolean;
  stats: ScanStats & { rowsMatched: number; numGroups: number };
  /** With `explain`: the optimized logical plan the query ran, as text (one operator per line). */
  plan?: string;
}
