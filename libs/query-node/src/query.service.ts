import { Inject, Injectable } from '@nestjs/common';
import { forbidden, invalid, systemClock, type Clock } from '@quarry/common';
import type { FieldSchema, QueryOutput } from '@quarry/contracts';
import { referencedDatasets, runApl } from '@quarry/query';
import {
  hasDatasetCapability,
  outcomeOf,
  QuarryMetrics,
  VirtualFieldCache,
  METRICS_DATASET_KIND,
  type Principal,
  type RegionalDataset,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { parseAplRequest } from './query-request';
import { routeQuery } from './region-routing';
import { formatLegacy, formatTabular, type ResultFormat } from './result-format';

export interface QueryOptions {
  /** Aborts the query (the client went away). */
  signal?: AbortSignal;
  /**
   * Answers a query whose datasets live in another region (the main API forwards it there); absent,
   * such a query is refused with 421 and where its datasets live (the edge endpoint).
   */
  elsewhere?: (region: string, dataset: RegionalDataset) => Promise<unknown>;
}

/** Runs APL for the HTTP endpoints: validate, authorize every dataset the query reads, execute, format. */
@Injectable()
export class QueryService {
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly metrics: QuarryMetrics,
    private readonly virtualFields: VirtualFieldCache,
  ) {}

  /**
   * `explainParam` (`?explain=true`): the response's status also carries the optimized plan the query
   * ran (`status.plan`); where it ran on several query nodes, `status.nodes` says who read what.
   */
  async query(
    body: unknown,
    formatParam: unknown,
    principal: Principal,
    explainParam?: unknown,
    options: QueryOptions = {},
  ): Promise<object> {
    const started = process.hrtime.bigint();
    try {
      const explain = parseExplain(explainParam);
      const result = await this.queryOnce(body, formatParam, principal, explain, options);
      this.metrics.queryRequests.inc({ outcome: 'ok' });
      this.metrics.queryDuration.observe(Number(process.hrtime.bigint() - started) / 1e9);
      return result;
    } catch (err) {
      this.metrics.queryRequests.inc({ outcome: outcomeOf(err) });
      throw err;
    }
  }

  private async queryOnce(
    body: unknown,
    formatParam: unknown,
    principal: Principal,
    explain: boolean,
    { signal, elsewhere }: QueryOptions,
  ): Promise<object> {
    const format = parseFormat(formatParam);
    const nowMs = this.clock.nowMs();
    const request = parseAplRequest(body, nowMs);
    // Name patterns (`union logs*`, a leading `search`) expand only to event datasets this token may read;
    // every dataset the query names explicitly is checked below.
    const readable = this.readableDatasets(principal);
    const names = referencedDatasets(request.apl, readable);
    for (const dataset of names) {
      if (!hasDatasetCapability(principal.datasetCapabilities, dataset, 'query', 'read')) {
        throw forbidden(`this token lacks the query|read capability on dataset "${dataset}"`, {
          code: 'auth_forbidden',
        });
      }
    }
    // Each region scans only its own datasets: another region's query goes there, or is refused.
    const known = names.flatMap((name) => this.storage.registry.getByName(name) ?? []);
    const route = routeQuery(this.storage.regions, known);
    if (route.kind === 'remote') {
      if (!elsewhere) throw this.storage.regions.misdirectedError(route.dataset, 'edge queries');
      return (await elsewhere(route.region, route.dataset)) as object;
    }
    const started = process.hrtime.bigint();
    // The stored fields the query was bound with answer `fieldsMetaMap` (no second catalog lookup).
    const boundFields = new Map<string, FieldSchema[]>();
    const output = await this.execute(request.apl, request, nowMs, readable, {
      explain,
      signal,
      onDatasetSchema: (name, fields) => boundFields.set(name, fields),
    });
    this.metrics.rowsExamined.inc(output.stats.rowsExamined);
    const fieldsByDataset = new Map<string, FieldSchema[]>();
    for (const name of output.datasetNames) {
      const bound = boundFields.get(name);
      if (bound) {
        fieldsByDataset.set(name, bound);
        continue;
      }
      const source = await this.storage.catalog.getDataset(name);
      if (source) fieldsByDataset.set(name, await source.schema());
    }
    const elapsedMicros = Number(process.hrtime.bigint() - started) / 1000;
    const ctx = { request, output, elapsedMicros, fieldsByDataset };
    return format === 'tabular' ? formatTabular(ctx) : formatLegacy(ctx);
  }

  /** The event datasets this principal may read (what name patterns expand to). */
  readableDatasets(principal: Principal): string[] {
    return this.storage.registry
      .list()
      .filter((d) => d.kind !== METRICS_DATASET_KIND)
      .map((d) => d.name)
      .filter((name) => hasDatasetCapability(principal.datasetCapabilities, name, 'query', 'read'));
  }

  /**
   * Runs APL text whose datasets were already authorized, with this node's catalog, limits, virtual
   * fields and offload: the one way every endpoint (APL, legacy structured queries, batches) executes.
   */
  async execute(
    apl: string,
    window: { startMs: number; endMs: number },
    nowMs: number,
    readable: readonly string[],
    {
      explain = false,
      signal,
      onDatasetSchema,
    }: {
      explain?: boolean;
      signal?: AbortSignal;
      onDatasetSchema?: (dataset: string, fields: FieldSchema[]) => void;
    } = {},
  ): Promise<QueryOutput> {
    return runApl(apl, {
      startMs: window.startMs,
      endMs: window.endMs,
      nowMs,
      catalog: this.storage.catalog,
      defaultLimit: this.storage.config.queryDefaultLimit,
      virtualFields: await this.virtualFields.current(),
      datasetNames: readable,
      limits: {
        maxGroups: this.storage.config.queryMaxGroups,
        maxHeldRows: this.storage.config.queryMaxHeldRows,
      },
      offload: this.storage.queryOffload,
      explain,
      signal,
      onDatasetSchema,
    });
  }
}

function parseExplain(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw invalid(`explain must be "true" or "false", not ${JSON.stringify(value)}`, {
    code: 'query_explain_invalid',
  });
}

function parseFormat(value: unknown): ResultFormat {
  if (value === undefined || value === '' || value === 'legacy') return 'legacy';
  if (value === 'tabular') return 'tabular';
  throw invalid(`format must be "legacy" or "tabular", not ${JSON.stringify(value)}`, {
    code: 'query_format_invalid',
  });
}
