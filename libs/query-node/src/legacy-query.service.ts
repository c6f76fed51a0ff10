import { Injectable } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { QuarryError, isQuarryError, notFound, systemClock, type Clock } from '@quarry/common';
import type { QueryOutput } from '@quarry/contracts';
import { legacyQueryToApl, parseLegacyQuery } from '@quarry/query';
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
