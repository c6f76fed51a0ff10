import { formatRfc3339 } from '@quarry/common';
import type { ResultTable } from '@quarry/contracts';
import { rowIdOf, timeMsOf, type AggregationColumns } from '@quarry/query';

/**
 * The rows of a result table in the legacy shapes (api.md §4.4): raw rows as `matches` entries, grouped
 * rows as `buckets.totals` / `buckets.series` entry groups. Shared by the legacy APL format and the legacy
 * structured query, so both answer alike.
 */

export interface Entry {
  _time: string | null;
  _sysTime: string | null;
  _rowId: string;
  data: Record<string, unknown>;
}

export interface EntryGroup {
  id: number;
  group: Record<string, unknown>;
  aggregations: { op: string; value: unknown }[];
}

export interface Interval {
  startTime: string;
  endTime: string;
  groups: EntryGroup[];
}

export function rowCount(table: ResultTable): number {
  return table.columns.length ? table.columns[0].length : 0;
}

const timeMs = timeMsOf;

/** Raw rows: `_time` and `_sysTime` lifted out of `data`, and a row id that is the same in every answer. */
export function matchesOf(table: ResultTable): Entry[] {
  const names = table.fields.map((f) => f.name);
  const timeIndex = names.indexOf('_time');
  const sysIndex = names.indexOf('_sysTime');
  const rows = rowCount(table);
  const matches: Entry[] = [];
  for (let r = 0; r < rows; r++) {
    const data: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) {
      if (c === timeIndex || c === sysIndex) continue;
      data[names[c]] = table.columns[c][r];
    }
    const time = timeIndex >= 0 ? (table.columns[timeIndex][r] as string | null) : null;
    const sysTime = sysIndex >= 0 ? (table.columns[sysIndex][r] as string | null) : null;
    matches.push({
      _time: time,
      _sysTime: sysTime,
      _rowId: rowIdOf(timeMs(time), timeMs(sysTime), data),
      data,
    });
  }
  return matches;
}

/** Where the parts of a grouped row are: the group-key columns, and each aggregation's first column. */
export interface GroupLayout {
  keyColumns: number[];
  aggregations: { columns: AggregationColumns; at: number }[];
}

/**
 * The layout of a legacy query's summarize: `keys` group-key columns first (after the time bucket when
 * `bucketed`), then the aggregations, each `width` columns wide.
 */
export function legacyGroupLayout(
  keys: number,
  aggregations: AggregationColumns[],
  bucketed: boolean,
): GroupLayout {
  const from = bucketed ? 1 : 0;
  let at = from + keys;
  return {
    keyColumns: Array.from({ length: keys }, (_, k) => from + k),
    aggregations: aggregations.map((columns) => {
      const entry = { columns, at };
      at += columns.width;
      return entry;
    }),
  };
}

/**
 * The layout of an APL summarize: its `by` keys (by name, wherever they are; without the time bucket when
 * `bucketColumn` is given), then one aggregation per other column, labelled with its name.
 */
export function aplGroupLayout(table: ResultTable, bucketColumn?: number): GroupLayout {
  const keyNames = new Set(table.groups.map((g) => g.name));
  const keyColumns: number[] = [];
  const aggregations: GroupLayout['aggregations'] = [];
  table.fields.forEach((f, c) => {
    if (c === bucketColumn) return;
    if (keyNames.has(f.name)) keyColumns.push(c);
    else aggregations.push({ columns: { label: f.name, width: 1 }, at: c });
  });
  return { keyColumns, aggregations };
}

/** Gives each distinct group the same id in `totals` and in every interval of `series`. */
export class GroupIds {
  private readonly ids = new Map<string, number>();

  idOf(group: Record<string, unknown>): number {
    const key = JSON.stringify(Object.entries(group));
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** Entry groups of the given rows of `table`. */
function groupsOf(table: ResultTable, layout: GroupLayout, ids: GroupIds, rows: number[]): EntryGroup[] {
  return rows.map((r) => {
    const group: Record<string, unknown> = {};
    for (const c of layout.keyColumns) group[table.fields[c].name] = table.columns[c][r];
    const aggregations = layout.aggregations.map(({ columns, at }) => ({
      op: columns.label,
      value: valueOf(table, columns, at, r),
    }));
    return { id: ids.idOf(group), group, aggregations };
  });
}

/** One aggregation's value; argmin/argmax span several columns and become one object. */
function valueOf(table: ResultTable, agg: AggregationColumns, column: number, row: number): unknown {
  if (!agg.fields) return table.columns[column][row];
  const value: Record<string, unknown> = {};
  agg.fields.forEach((name, i) => (value[name] = table.columns[column + i][row]));
  return value;
}

export function totalsOf(table: ResultTable, layout: GroupLayout, ids: GroupIds): EntryGroup[] {
  const rows = Array.from({ length: rowCount(table) }, (_, r) => r);
  return groupsOf(table, layout, ids, rows);
}

/**
 * Intervals of a table whose column `bucketColumn` is the time bucket (`bin(_time, size)`). With `fill`,
 * every interval of the window is listed, empty ones with no groups (for charts); otherwise only those
 * with rows.
 */
export function seriesOf(
  table: ResultTable,
  layout: GroupLayout,
  ids: GroupIds,
  bucket: { column: number; sizeMs: number },
  fill?: { startMs: number; endMs: number },
): Interval[] {
  const bucketMs = bucket.sizeMs;
  const byBucket = new Map<number, number[]>();
  for (let r = 0; r < rowCount(table); r++) {
    const start = timeMs(table.columns[bucket.column][r]);
    // A null time bucket (`bin` of a null _time) has no interval to go in; the totals still count it.
    if (!Number.isFinite(start)) continue;
    byBucket.set(start, [...(byBucket.get(start) ?? []), r]);
  }
  const starts = new Set(byBucket.keys());
  if (fill) {
    for (let t = Math.floor(fill.startMs / bucketMs) * bucketMs; t < fill.endMs; t += bucketMs) starts.add(t);
  }
  return [...starts]
    .sort((a, b) => a - b)
    .map((start) => ({
      startTime: formatRfc3339(start),
      endTime: formatRfc3339(start + bucketMs),
      groups: groupsOf(table, layout, ids, byBucket.get(start) ?? []),
    }));
}
