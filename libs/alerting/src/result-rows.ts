/** What a monitor's query returned, as rows: the one shape APL tables and MPL series are turned into. */
export type Row = Record<string, unknown>;

export interface ResultRows {
  rows: Row[];
  /** Columns that identify a group (APL `by` columns, MPL tags); empty for ungrouped results. */
  groupFields: string[];
}

export const SYSTEM_TIME_FIELDS = new Set(['_time', '_sysTime']);
