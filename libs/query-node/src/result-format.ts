import { formatRfc3339 } from '@quarry/common';
import type { FieldSchema, QueryOutput, ResultTable } from '@quarry/contracts';
import type { AplRequest } from './query-request';

export type ResultFormat = 'tabular' | 'legacy';

export interface FormatContext {
  request: AplRequest;
  output: QueryOutput;
  elapsedMicros: number;
  /** Field schema per dataset queried, for `fieldsMetaMap`. */
  fieldsByDataset: Map<string, FieldSchema[]>;
}

/** The `status` object of both formats (api.md §4.3): elapsedTime in microseconds and never zero. */
function statusOf(ctx: FormatContext) {
  const { stats } = ctx.output;
  return {
    elapsedTime: Math.max(1, Math.round(ctx.elapsedMicros)),
    minCursor: '',
    maxCursor: '',
    blocksExamined: stats.blocksExamined,
    blocksCached: stats.blocksCached,
    blocksMatched: stats.blocksMatched,
    rowsExamined: stats.rowsExamined,
    rowsMatched: stats.rowsMatched,
    numGroups: stats.numGroups,
    isPartial: false,
    cacheStatus: 1,
    minBlockTime: formatRfc3339(stats.minBlockTime ?? ctx.request.startMs),
    maxBlockTime: formatRfc3339(stats.maxBlockTime ?? ctx.request.endMs),
    // Only when asked (`?explain=true`): strict clients (Go's DisallowUnknownFields) refuse keys they do
    // not know, so an ordinary answer carries exactly Axiom's status. Then the plan, and on a cluster
    // which query node read how much (docs/architecture.md, "Distributed queries").
    ...(ctx.output.plan !== undefined ? { plan: ctx.output.plan, nodes: stats.nodes ?? [] } : {}),
  };
}

function fieldsMetaMap(ctx: FormatContext) {
  const map: Record<
    string,
    { name: string; type: string; unit: string; hidden: boolean; description: string }[]
  > = {};
  for (const [dataset, fields] of ctx.fieldsByDataset) {
    map[dataset] = fields.map((f) => ({
      name: f.name,
      type: f.type,
      unit: '',
      hidden: false,
      description: '',
    }));
  }
  return map;
}

export function formatTabular(ctx: FormatContext) {
  return {
    format: 'tabular',
    status: statusOf(ctx),
    tables: ctx.output.tables.map((table) => ({
      name: table.name,
      sources: table.sources,
      fields: table.fields,
      order: table.order,
      groups: table.groups,
      range: {
        field: '_time',
        start: formatRfc3339(ctx.request.startMs),
        end: formatRfc3339(ctx.request.endMs),
      },
      ...(table.buckets ? { buckets: table.buckets } : {}),
      columns: table.columns,
    })),
    datasetNames: ctx.output.datasetNames,
    fieldsMetaMap: fieldsMetaMap(ctx),
  };
}

/**
 * The legacy shape: raw rows become `matches` (`{_time, _sysTime, _rowId, data}`), an aggregation becomes
 * `buckets.totals` (`{group, aggregations: [{op, value}]}`), as the official clients read them.
 */
export function formatLegacy(ctx: FormatContext) {
  const table = ctx.output.tables[0];
  const aggregated = ctx.output.aggregated && table !== undefined;
  return {
    format: 'legacy',
    status: statusOf(ctx),
    matches: table && !aggregated ? matchesOf(table) : [],
    buckets: { series: [], totals: aggregated ? totalsOf(table) : [] },
    datasetNames: ctx.output.datasetNames,
    fieldsMetaMap: fieldsMetaMap(ctx),
    request: {
      startTime: formatRfc3339(ctx.request.startMs),
      endTime: formatRfc3339(ctx.request.endMs),
      resolution: 'auto',
      limit: table ? rowCount(table) : 0,
    },
  };
}

function rowCount(table: ResultTable): number {
  return table.columns.length ? table.columns[0].length : 0;
}

function matchesOf(table: ResultTable) {
  const names = table.fields.map((f) => f.name);
  const timeIndex = names.indexOf('_time');
  const sysIndex = names.indexOf('_sysTime');
  const rows = rowCount(table);
  const matches = [];
  for (let r = 0; r < rows; r++) {
    const data: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) {
      if (c === timeIndex || c === sysIndex) continue;
      data[names[c]] = table.columns[c][r];
    }
    matches.push({
      _time: timeIndex >= 0 ? table.columns[timeIndex][r] : null,
      _sysTime: sysIndex >= 0 ? table.columns[sysIndex][r] : null,
      _rowId: `${r}`,
      data,
    });
  }
  return matches;
}

function totalsOf(table: ResultTable) {
  const groupNames = new Set(table.groups.map((g) => g.name));
  const rows = rowCount(table);
  const totals = [];
  for (let r = 0; r < rows; r++) {
    const group: Record<string, unknown> = {};
    const aggregations: { op: string; value: unknown }[] = [];
    table.fields.forEach((field, c) => {
      if (groupNames.has(field.name)) group[field.name] = table.columns[c][r];
      else aggregations.push({ op: field.name, value: table.columns[c][r] });
    });
    totals.push({ id: r, group, aggregations });
  }
  return totals;
}
