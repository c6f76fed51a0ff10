import { invalid } from '@quarry/common';
import { binAutoSizeMs } from '@quarry/query-plan';
import { datasetRef, datetimeLiteral, fieldRef, stringLiteral } from './apl-text';
import { filterToApl } from './legacy-filter';
import { DEFAULT_LEGACY_LIMIT, parseFilter, type LegacyAggregation, type LegacyQuery } from './legacy-query';
import { timeOfRowId } from './row-id';

/** How one legacy aggregation shows up in the result table: `width` columns, read as one value. */
export interface AggregationColumns {
  /** The `op` of the answer's `{op, value}`: the alias when there is one, else the op. */
  label: string;
  /** Result columns it produces (1, or 1 + returned fields for argmin/argmax). */
  width: number;
  /** argmin/argmax: the names of the returned fields, for the value object. */
  fields?: string[];
}

/**
 * Raw rows ordered by `_time` first (the default, newest first): paging is exact by row id. Rows of one
 * `_time` (to the µs) are ordered by their row id, which `_time` alone cannot do, so the service reads
 * every row of a boundary time with `aplAt` — the cursor's time, and the page's last time — and orders
 * and cuts in row-id order (docs/legacy-query.md, "Cursors").
 */
export interface TimeOrderedMatches {
  ascending: boolean;
  limit: number;
  /** The cursor row, when paging: rows at its `_time` come from `aplAt` (the main APL is strict). */
  cursor?: { rowId: string; timeMs: number; include: boolean };
  /** The same rows as the main APL (virtual fields, filter, projection) with `_time` exactly `timeMs`. */
  aplAt(timeMs: number): string;
}

/** Most rows one `_time` (to the µs) may hold for exact paging; more is refused. */
export const MAX_ROWS_AT_ONE_TIME = 10_000;

/** The APL a legacy query runs as (see docs/legacy-query.md). */
export type LegacyTranslation =
  | { kind: 'matches'; apl: string; timeOrdered?: TimeOrderedMatches }
  | {
      kind: 'aggregation';
      /** One row per group over the whole window (`buckets.totals`). */
      totalsApl: string;
      /** The same per time bucket (`buckets.series`): the first column is the bucket's start. */
      seriesApl: string;
      bucketMs: number;
      groupBy: string[];
      aggregations: AggregationColumns[];
    };

/** Most intervals a series may have (the spec's resolution floor: the window / 1000). */
export const MAX_SERIES_INTERVALS = 1000;

const bad = (path: string, problem: string): never => {
  throw invalid(`legacy query: ${path} ${problem}`, { code: 'legacy_query_invalid', details: { path } });
};

/**
 * Translates a validated legacy query into APL text over `dataset` for the window `[startMs, endMs)`.
 * The APL runs through the same parser, planner and executor as any APL query; nothing here evaluates.
 */
export function legacyQueryToApl(
  dataset: string,
  query: LegacyQuery,
  window: { startMs: number; endMs: number },
): LegacyTranslation {
  const source = [datasetRef(dataset), ...sourceSteps(query)];
  if (query.aggregations.length === 0) {
    if (query.groupBy.length > 0) bad('groupBy', 'needs at least one aggregation');
    const apl = [...source, ...matchSteps(query)].join('\n| ');
    return { kind: 'matches', apl, timeOrdered: timeOrderedMatches(dataset, query) };
  }
  const bucketMs = bucketSizeMs(query, window);
  const aggs = aggregationCalls(query.aggregations);
  const keys = query.groupBy.map(fieldRef);
  const summarize = (extraKey?: string) =>
    `summarize ${aggs.map((a) => a.text).join(', ')}` +
    (extraKey || keys.length ? ` by ${[...(extraKey ? [extraKey] : []), ...keys].join(', ')}` : '');
  const totals = [
    ...source,
    summarize(),
    ...totalsOrder(
      query,
      aggs.map((a) => a.column),
    ),
  ];
  if (query.limit !== undefined) totals.push(`take ${query.limit}`);
  return {
    kind: 'aggregation',
    totalsApl: totals.join('\n| '),
    seriesApl: [...source, summarize(`bin(${fieldRef('_time')}, ${bucketMs}ms)`)].join('\n| '),
    bucketMs,
    groupBy: query.groupBy,
    aggregations: aggs.map((a) => a.columns),
  };
}

/** Virtual fields, then the cursor, then the filter. */
function sourceSteps(query: LegacyQuery): string[] {
  const steps: string[] = [];
  if (query.virtualFields.length > 0) {
    steps.push(`extend ${query.virtualFields.map((v) => `${fieldRef(v.alias)} = (${v.expr})`).join(', ')}`);
  }
  const cursor = cursorPredicate(query);
  if (cursor) steps.push(`where ${cursor}`);
  if (query.filter) steps.push(`where ${filterToApl(query.filter)}`);
  return steps;
}

/**
 * Rows after the cursor row's `_time` in the answer's order (newest first unless `_time` is ordered
 * ascending). Strict for raw rows ordered by `_time` (the rows at the cursor's own time are read apart and
 * cut by row id: `TimeOrderedMatches`); otherwise — aggregations, other orders — rows at the cursor's time
 * are kept with `includeCursor` and skipped without.
 */
function cursorPredicate(query: LegacyQuery): string | null {
  if (query.cursor === undefined) return null;
  const timeMs = cursorTimeMs(query.cursor);
  const ascending = isTimeAscending(query);
  const exact = query.aggregations.length === 0 && isTimeOrdered(query);
  const include = query.includeCursor && !exact;
  const op = ascending ? (include ? '>=' : '>') : include ? '<=' : '<';
  return `${fieldRef('_time')} ${op} ${datetimeLiteral(timeMs)}`;
}

function cursorTimeMs(cursor: string): number {
  const timeMs = timeOfRowId(cursor);
  if (timeMs === null) return bad('cursor', `"${cursor}" is not a row id from a previous answer`);
  return timeMs;
}

/** Ordered by `_time` first: no order (newest first), or `_time` as the first key. */
function isTimeOrdered(query: LegacyQuery): boolean {
  return query.order.length === 0 || query.order[0].field === '_time';
}

function isTimeAscending(query: LegacyQuery): boolean {
  const first = query.order[0];
  return first !== undefined && first.field === '_time' && !first.desc;
}

function timeOrderedMatches(dataset: string, query: LegacyQuery): TimeOrderedMatches | undefined {
  if (!isTimeOrdered(query)) return undefined;
  const cursor =
    query.cursor === undefined
      ? undefined
      : { rowId: query.cursor, timeMs: cursorTimeMs(query.cursor), include: query.includeCursor === true };
  return {
    ascending: isTimeAscending(query),
    limit: query.limit ?? DEFAULT_LEGACY_LIMIT,
    cursor,
    aplAt: (timeMs) => {
      const steps = [datasetRef(dataset)];
      if (query.virtualFields.length > 0)
        steps.push(
          `extend ${query.virtualFields.map((v) => `${fieldRef(v.alias)} = (${v.expr})`).join(', ')}`,
        );
      steps.push(`where ${fieldRef('_time')} == ${datetimeLiteral(timeMs)}`);
      if (query.filter) steps.push(`where ${filterToApl(query.filter)}`);
      steps.push(`take ${MAX_ROWS_AT_ONE_TIME + 1}`);
      const projection = projectStep(query);
      if (projection) steps.push(projection);
      return steps.join('\n| ');
    },
  };
}

function matchSteps(query: LegacyQuery): string[] {
  const order = query.order.length ? query.order : [{ field: '_time', desc: true }];
  const steps = [
    `order by ${order.map((o) => `${fieldRef(o.field)} ${o.desc ? 'desc' : 'asc'}`).join(', ')}`,
    `take ${query.limit ?? DEFAULT_LEGACY_LIMIT}`,
  ];
  const projection = projectStep(query);
  if (projection) steps.push(projection);
  return steps;
}

function projectStep(query: LegacyQuery): string | null {
  if (query.project.length === 0) return null;
  // Matches always carry `_time` and `_sysTime` (Entry requires them), projected or not.
  const items = ['_time', '_sysTime']
    .filter((t) => !query.project.some((p) => (p.alias ?? p.field) === t))
    .map(fieldRef);
  for (const p of query.project) {
    items.push(p.alias ? `${fieldRef(p.alias)} = ${fieldRef(p.field)}` : fieldRef(p.field));
  }
  return `project ${items.join(', ')}`;
}

/** The explicit resolution, or `auto` as `bin_auto` would pick it; never more than 1000 intervals. */
function bucketSizeMs(query: LegacyQuery, window: { startMs: number; endMs: number }): number {
  const size = query.resolution === 'auto' ? binAutoSizeMs(window.startMs, window.endMs) : query.resolution;
  const intervals = Math.ceil((window.endMs - window.startMs) / size);
  if (intervals > MAX_SERIES_INTERVALS) {
    bad(
      'resolution',
      `gives ${intervals} intervals over the query's time range; at most ${MAX_SERIES_INTERVALS} ` +
        `(use a resolution of at least ${Math.ceil((window.endMs - window.startMs) / MAX_SERIES_INTERVALS / 1000)}s, or "auto")`,
    );
  }
  return size;
}

interface AggregationCall {
  text: string;
  /** The name of its (first) result column. */
  column: string;
  columns: AggregationColumns;
}

function aggregationCalls(aggregations: LegacyAggregation[]): AggregationCall[] {
  const used = new Set<string>();
  return aggregations.map((a, i) => {
    const path = `aggregations[${i}]`;
    let column = a.alias ?? (a.field === '*' ? a.op : `${a.op}_${a.field}`);
    for (let n = 2; used.has(column); n++) column = `${a.alias ?? a.op}_${n}`;
    used.add(column);
    const call = aggregationCall(a, path);
    return {
      text: `${fieldRef(column)} = ${call.text}`,
      column,
      columns: { label: a.alias ?? a.op, width: 1 + (call.fields?.length ?? 0), ...fieldsOf(a, call) },
    };
  });
}

function fieldsOf(a: LegacyAggregation, call: { fields?: string[] }) {
  return call.fields ? { fields: [a.field, ...call.fields] } : {};
}

/** One legacy aggregation as an APL aggregate call (docs/legacy-query.md has the table). */
function aggregationCall(a: LegacyAggregation, path: string): { text: string; fields?: string[] } {
  const f = fieldRef(a.field);
  switch (a.op) {
    case 'count':
      return { text: 'count()' };
    case 'distinct':
      return { text: `dcount(${f})` };
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
    case 'stdev':
    case 'variance':
    case 'rate':
      return { text: `${a.op}(${f})` };
    case 'topk':
      return { text: `topk(${f}, ${intArgument(a, path, 10, 1)})` };
    case 'histogram':
      return { text: `histogram(${f}, ${intArgument(a, path, 10, 1, 10_000)})` };
    case 'percentiles':
      return { text: `percentiles_array(${f}, ${percentilesArgument(a, path).join(', ')})` };
    case 'makeset':
    case 'makelist': {
      const fn = a.op === 'makeset' ? 'make_set' : 'make_list';
      return {
        text: a.argument === undefined ? `${fn}(${f})` : `${fn}(${f}, ${intArgument(a, path, 0, 1)})`,
      };
    }
    case 'argmin':
    case 'argmax': {
      const fields = fieldListArgument(a, path);
      const fn = a.op === 'argmin' ? 'arg_min' : 'arg_max';
      return { text: `${fn}(${[f, ...fields.map(fieldRef)].join(', ')})`, fields };
    }
    case 'countif':
      return { text: `countif(${predicateArgument(a, path)})` };
    case 'distinctif':
      return { text: `dcountif(${f}, ${predicateArgument(a, path)})` };
    case 'makesetif':
      return { text: `make_set_if(${f}, ${predicateArgument(a, path)})` };
  }
}

function intArgument(
  a: LegacyAggregation,
  path: string,
  fallback: number,
  min: number,
  max = 1_000_000,
): number {
  const value = a.argument ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    bad(`${path}.argument`, `must be an integer from ${min} to ${max} for op "${a.op}"`);
  }
  return value as number;
}

/** `percentiles` takes the percentiles to compute: one number or an array (default 50, 90, 95, 99). */
function percentilesArgument(a: LegacyAggregation, path: string): number[] {
  const value = a.argument ?? [50, 90, 95, 99];
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((p) => typeof p !== 'number' || p < 0 || p > 100)) {
    bad(`${path}.argument`, 'must be a percentile from 0 to 100 or a non-empty array of them');
  }
  return list as number[];
}

/** argmin/argmax return more fields of the row: a field name or an array of names (default none). */
function fieldListArgument(a: LegacyAggregation, path: string): string[] {
  const value = a.argument ?? [];
  const list = Array.isArray(value) ? value : [value];
  if (list.some((f) => typeof f !== 'string' || f === '' || f === '*')) {
    bad(`${path}.argument`, 'must be a field name or an array of field names ("*" is not supported)');
  }
  return list as string[];
}

/** The `*if` ops take their condition as a legacy filter object in `argument`. */
function predicateArgument(a: LegacyAggregation, path: string): string {
  if (a.argument === undefined) bad(`${path}.argument`, `must be a filter object for op "${a.op}"`);
  return filterToApl(parseFilter(a.argument, `${path}.argument`));
}

/** `order` over an aggregation: each field is a groupBy field or an aggregation (by alias or op). */
function totalsOrder(query: LegacyQuery, columns: string[]): string[] {
  if (query.order.length === 0) return [];
  const keys = query.order.map((o, i) => {
    let column: string | undefined;
    if (query.groupBy.includes(o.field)) column = o.field;
    else {
      const at = query.aggregations.findIndex((a) => (a.alias ?? a.op) === o.field);
      column = at >= 0 ? columns[at] : columns.find((c) => c === o.field);
    }
    if (column === undefined) {
      bad(`order[${i}].field`, `${stringLiteral(o.field)} is neither a groupBy field nor an aggregation`);
    }
    return `${fieldRef(column!)} ${o.desc ? 'desc' : 'asc'}`;
  });
  return [`order by ${keys.join(', ')}`];
}
