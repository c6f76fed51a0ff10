import { Injectable } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import {
  QuarryError,
  formatRfc3339,
  invalid,
  isQuarryError,
  notFound,
  systemClock,
  type Clock,
} from '@quarry/common';
import type { QueryOutput } from '@quarry/contracts';
import {
  legacyQueryToApl,
  MAX_ROWS_AT_ONE_TIME,
  parseLegacyQuery,
  timeOfRowId,
  type TimeOrderedMatches,
} from '@quarry/query';
import {
  outcomeOf,
  QuarryMetrics,
  type Principal,
  type RegionalDataset,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { GroupIds, legacyGroupLayout, matchesOf, seriesOf, totalsOf, type Entry } from './legacy-entries';
import { parseTimeWindow } from './query-request';
import { QueryService } from './query.service';
import { routeQuery } from './region-routing';
import { fieldsMetaOf, statusOf } from './result-format';

/** Characters of a row id that encode its `_time` (libs/query/src/legacy-query/row-id.ts). */
const ROW_ID_TIME_WIDTH = 11;

export interface LegacyQueryOptions {
  signal?: AbortSignal;
  /** Answers for a dataset of another region (the request is forwarded there). */
  elsewhere: (region: string, dataset: RegionalDataset) => Promise<unknown>;
}

/**
 * `POST /v1/datasets/{dataset}/query`: the legacy structured query, translated to APL
 * (`legacyQueryToApl` in @quarry/query) and run like any APL query, answered in the legacy `Result` shape
 * (`status, matches, buckets {series, totals}, fieldsMeta, format` — nothing else: Go decodes it strictly).
 */
@Injectable()
export class LegacyQueryService {
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly queries: QueryService,
    private readonly metrics: QuarryMetrics,
  ) {}

  async query(dataset: string, body: unknown, principal: Principal, options: LegacyQueryOptions) {
    try {
      const result = await this.queryOnce(dataset, body, principal, options);
      this.metrics.queryRequests.inc({ outcome: 'ok' });
      return result;
    } catch (err) {
      this.metrics.queryRequests.inc({ outcome: outcomeOf(err) });
      throw err;
    }
  }

  private async queryOnce(dataset: string, body: unknown, principal: Principal, options: LegacyQueryOptions) {
    const nowMs = this.clock.nowMs();
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const window = parseTimeWindow(fields.startTime, fields.endTime, nowMs);
    const query = parseLegacyQuery(body);
    const known = this.storage.registry.getByName(dataset);
    if (!known) throw notFound(`dataset "${dataset}" not found`, { code: 'dataset_not_found' });
    const route = routeQuery(this.storage.regions, [known]);
    if (route.kind === 'remote') return options.elsewhere(route.region, route.dataset);

    const translation = legacyQueryToApl(dataset, query, window);
    const readable = this.queries.readableDatasets(principal);
    const run = (apl: string) =>
      this.queries.execute(apl, window, nowMs, readable, { signal: options.signal }).catch((err: unknown) => {
        throw withApl(err, apl);
      });
    const started = process.hrtime.bigint();
    let output: QueryOutput;
    let matches: Entry[] = [];
    const buckets: { series: unknown[]; totals: unknown[] } = { series: [], totals: [] };
    if (translation.kind === 'matches') {
      output = await run(translation.apl);
      matches = matchesOf(output.tables[0]);
      if (translation.timeOrdered) {
        const at = async (timeMs: number) =>
          matchesOf((await run(translation.timeOrdered!.aplAt(timeMs))).tables[0]);
        matches = await exactPage(matches, translation.timeOrdered, at);
      }
    } else {
      output = await run(translation.totalsApl);
      const series = await run(translation.seriesApl);
      const ids = new GroupIds();
      const keys = translation.groupBy.length;
      buckets.totals = totalsOf(
        output.tables[0],
        legacyGroupLayout(keys, translation.aggregations, false),
        ids,
      );
      buckets.series = seriesOf(
        series.tables[0],
        legacyGroupLayout(keys, translation.aggregations, true),
        ids,
        { column: 0, sizeMs: translation.bucketMs },
        window,
      );
    }
    this.metrics.rowsExamined.inc(output.stats.rowsExamined);
    const elapsedMicros = Number(process.hrtime.bigint() - started) / 1000;
    const source = await this.storage.catalog.getDataset(dataset);
    return {
      format: 'legacy',
      status: { ...statusOf({ request: window, output, elapsedMicros }), ...cursorsOf(matches) },
      matches,
      buckets,
      fieldsMeta: source ? fieldsMetaOf(await source.schema()) : [],
    };
  }
}

/**
 * A page of rows ordered by `_time` made exact: rows of one `_time` (to the µs) come in row-id order, so a
 * page ends, and the next one (`cursor` = its last row id) starts, at one row, whatever the engine's order
 * among equal times. `main` is the engine's page (strictly after the cursor's time); the rows at the
 * cursor's time and at the page's last time are read whole with `rowsAt` and cut by row id.
 */
async function exactPage(
  main: Entry[],
  plan: TimeOrderedMatches,
  rowsAt: (timeMs: number) => Promise<Entry[]>,
): Promise<Entry[]> {
  const timeKey = (e: Entry) => e._rowId.slice(0, ROW_ID_TIME_WIDTH);
  const sign = plan.ascending ? 1 : -1;
  const inOrder = (a: Entry, b: Entry) => sign * (a._rowId < b._rowId ? -1 : a._rowId > b._rowId ? 1 : 0);
  const whole = async (timeMs: number) => {
    const rows = await rowsAt(timeMs);
    if (rows.length > MAX_ROWS_AT_ONE_TIME)
      throw invalid(
        `legacy query: more than ${MAX_ROWS_AT_ONE_TIME} rows share the _time ${formatRfc3339(timeMs)}: ` +
          'cursor paging cannot order them; narrow the filter or page with APL',
        { code: 'legacy_query_invalid', details: { path: 'cursor' } },
      );
    return rows;
  };
  let rows = main;
  // The page's last time may have rows the engine's `take` left out: read them all.
  if (main.length >= plan.limit && main.length > 0) {
    const last = main[main.length - 1];
    const lastKey = timeKey(last);
    const lastMs = timeOfRowId(last._rowId);
    if (lastMs !== null) rows = [...main.filter((e) => timeKey(e) !== lastKey), ...(await whole(lastMs))];
  }
  rows.sort(inOrder);
  if (plan.cursor) {
    const { rowId, timeMs, include } = plan.cursor;
    // Rows at the cursor's own time: those after it in the answer's order (and itself with includeCursor).
    const after = (await whole(timeMs)).filter((e) => {
      const c = sign * (e._rowId < rowId ? -1 : e._rowId > rowId ? 1 : 0);
      return include ? c >= 0 : c > 0;
    });
    rows = [...after.sort(inOrder), ...rows];
  }
  return rows.slice(0, plan.limit);
}

/** `minCursor`/`maxCursor`: the row ids of the oldest and newest rows answered (api.md §4.5). */
function cursorsOf(matches: Entry[]): { minCursor: string; maxCursor: string } {
  if (matches.length === 0) return { minCursor: '', maxCursor: '' };
  let oldest = matches[0];
  let newest = matches[0];
  for (const m of matches) {
    if (m._rowId < oldest._rowId) oldest = m;
    if (m._rowId > newest._rowId) newest = m;
  }
  return { minCursor: oldest._rowId, maxCursor: newest._rowId };
}

/**
 * An error of the APL a legacy query ran as: its positions point into that text, so the text goes along
 * (`detail.apl`) and the message says so.
 */
function withApl(err: unknown, apl: string): unknown {
  if (!isQuarryError(err) || !err.isUserError) return err;
  return new QuarryError(
    err.kind,
    `${err.message} (in the APL this legacy query runs as: ${apl.replace(/\n/g, ' ')})`,
    {
      code: err.code,
      span: err.span,
      details: { ...(err.details ?? {}), apl },
      cause: err,
    },
  );
}
