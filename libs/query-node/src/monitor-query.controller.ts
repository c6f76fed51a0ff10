import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '@quarry/common';
import { datasetsOfMpl, runMpl } from '@quarry/mpl';
import { disconnectSignal, rawBodyOf } from '@quarry/nest-kit';
import {
  Access,
  assertClusterCaller,
  decodeRpc,
  encodeRpc,
  METRICS_DATASET_KIND,
  RPC_CONTENT_TYPE,
  STORAGE_RUNTIME,
  type StorageRuntime,
} from '@quarry/server';
import { QueryService } from './query.service';

/** Where management nodes send monitor queries (libs/alerting/src/cluster-query-runner.ts). */
export const MONITOR_QUERY_PATH = '/internal/v1/monitor-query';

/** A monitor's query over its window, as the scheduler sends it (V8-serialized, like the other RPCs). */
export interface MonitorQueryRequest {
  language: 'apl' | 'mpl';
  text: string;
  startMs: number;
  endMs: number;
  nowMs: number;
}

/** The APL result's first table, or the MPL result's series: the scheduler reads them as rows. */
export interface MonitorQueryResponse {
  node: string;
  table?: unknown;
  mpl?: unknown;
}

/**
 * Monitor queries on a query node (issue 16): the management node's scheduler sends each run here, so a
 * monitor sees exactly what a user's query sees — the catalog synced, the ingest tail caught up with the
 * log (read-your-writes), and the same executor (`QueryService.execute`, distributed over the query
 * nodes; MPL split by series) — with the organization's full read access (a monitor is the
 * organization's). Authenticated by the cluster secret like the other internal routes; never a user route.
 */
@Controller()
export class MonitorQueryController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly queries: QueryService,
  ) {}

  @Post('internal/v1/monitor-query')
  @HttpCode(200)
  @Access({ tokens: 'api', public: true })
  async run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    assertClusterCaller(this.storage.config.clusterSecret, request.headers);
    const query = decodeRpc<MonitorQueryRequest>(rawBodyOf(request), 'the request');
    const signal = disconnectSignal(reply);
    await this.storage.syncCatalog();
    await this.storage.readYourWrites(query.language === 'apl' ? 'events' : 'metrics');
    const answer: MonitorQueryResponse = { node: this.storage.config.nodeId };
    if (query.language === 'apl') {
      const datasets = this.storage.registry
        .list()
        .filter((d) => d.kind !== METRICS_DATASET_KIND)
        .map((d) => d.name);
      const output = await this.queries.execute(query.text, query, query.nowMs, datasets, { signal });
      answer.table = output.tables[0];
    } else {
      answer.mpl = await this.runMpl(query, signal);
    }
    reply.header('content-type', RPC_CONTENT_TYPE);
    return encodeRpc(answer);
  }

  private async runMpl(query: MonitorQueryRequest, signal: AbortSignal): Promise<unknown> {
    const { config, registry } = this.storage;
    const idOf = (name: string) => {
      const dataset = registry.getByName(name);
      if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
      return dataset.id;
    };
    const datasetIds: Record<string, string> = {};
    for (const name of datasetsOfMpl(query.text, {})) datasetIds[name] = idOf(name);
    const options = {
      startSec: Math.floor(query.startMs / 1000),
      endSec: Math.floor(query.endMs / 1000),
      nowSec: Math.floor(query.nowMs / 1000),
      params: {},
      limits: {
        maxPoints: config.metricsMaxQueryPoints,
        maxSeries: config.metricsMaxQuerySeries,
        maxCells: config.metricsMaxQueryCells,
      },
    };
    const offload = this.storage.mplOffloadFor({ mpl: query.text, datasetIds, ...options });
    return runMpl(query.text, {
      source: this.storage.metrics.store.sourceFor(idOf),
      offload,
      signal,
      ...options,
    });
  }
}
