import { formatRfc3339 } from '@quarry/common';
import type { FieldSchema, QueryOutput } from '@quarry/contracts';
import type { AplRequest } from './query-request';
import { GroupIds, aplGroupLayout, matchesOf, rowCount, seriesOf, totalsOf } from './legacy-entries';

export type ResultFormat = 'tabular' | 'legacy';

export interface FormatContext {
  request: AplRequest;
  output: QueryOutput;
  elapsedMicros: number;
  /** Field schema per dataset queried, for `fieldsMetaMap`. */
  fieldsByDataset: Map<string, FieldSchema[]>;
}

/** The `status` object of both formats (api.md §4.3): elapsedTime in microseconds and never zero. */
export function statusOf(ctx: {
  request: { startMs: number; endMs: number };
  output: QueryOutput;
  elapsedMicros: number;
}) {
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
  return Object.fromEntries(
    [...ctx.fieldsByDataset].map(([dataset, fields]) => [dataset, fieldsMetaOf(fields)]),
  );
}

/** A dataset's fields as `fieldsMeta` entries (`DatasetField`). */
export function fieldsMetaOf(fields: FieldSchema[]) {
  return fields.map((f) => ({ name: f.name, type: f.type, unit: '', hidden: false, description: '' }));
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
 * `buckets.totals` (`{id, group, aggregations: [{op, value}]}`), as the official clients read them. A
 * summarize whose first key is a time bin (`by bin(_time, 1m)`, `bin_auto(_time)`) also fills
 * `buckets.series`: one interval per bucket that has rows, its groups keyed by the other keys.
 */
export function formatLegacy(ctx: FormatContext) {
  const table = ctx.output.tables[0];
  const aggregated = ctx.output.aggregated && table !== undefined;
  const ids = new GroupIds();
  const bucketColumn =
    aggregated && table.buckets ? table.fields.findIndex((f) => f.name === table.buckets!.field) : -1;
  return {
    format: 'legacy',
    status: statusOf(ctx),
    matches: table && !aggregated ? matchesOf(table) : [],
    buckets: {
      series:
        bucketColumn >= 0
          ? seriesOf(table, aplGroupLayout(table, bucketColumn), ids, {
              column: bucketColumn,
              sizeMs: table.buckets!.size / 1e6,
            })
          : [],
      totals: aggregated ? totalsOf(table, aplGroupLayout(table), ids) : [],
    },
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
