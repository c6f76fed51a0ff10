import { Inject, Injectable } from '@nestjs/common';
import { systemClock, type Clock } from '@quarry/common';
import { datasetsOfMpl, renderMpl, runMpl, type MplFormat } from '@quarry/mpl';
import {
  type Principal,
  outcomeOf,
  QuarryMetrics,
  type StorageRuntime,
  STORAGE_RUNTIME,
  metricsDataset,
} from '@quarry/server';
import { parseMplRequest } from './mpl-request';

/** Runs MPL for `/v1/query/_mpl`: validate, authorize every dataset the query reads, execute, render. */
@Injectable()
export class MplQueryService {
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly metrics: QuarryMetrics,
  ) {}

  async query(
    body: unknown,
    query: Record<string, unknown>,
    format: MplFormat,
    principal: Principal,
    signal?: AbortSignal,
  ): Promise<unknown> {
    try {
      const result = await this.queryOnce(body, query, format, principal, signal);
      this.metrics.queryRequests.inc({ outcome: 'ok' });
      return result;
    } catch (err) {
      this.metrics.queryRequests.inc({ outcome: outcomeOf(err) });
      throw err;
    }
  }

  private async queryOnce(
    body: unknown,
    query: Record<string, unknown>,
    format: MplFormat,
    principal: Principal,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const nowMs = this.clock.nowMs();
    const request = parseMplRequest(body, query, nowMs);
    // Authorize before running: every dataset named by the query (or by a Dataset param).
    const datasetIds: Record<string, string> = {};
    for (const name of datasetsOfMpl(request.mpl, request.params)) {
      datasetIds[name] = metricsDataset(this.storage, principal, name, 'query').id;
    }
    const source = this.storage.metrics.store.sourceFor(
      (name) => metricsDataset(this.storage, principal, name, 'query').id,
    );
    const options = {
      startSec: request.startSec,
      endSec: request.endSec,
      nowSec: Math.floor(nowMs / 1000),
      params: request.params ?? {},
      limits: {
        maxPoints: this.storage.config.metricsMaxQueryPoints,
        maxSeries: this.storage.config.metricsMaxQuerySeries,
        maxCells: this.storage.config.metricsMaxQueryCells,
      },
    };
    // In a cluster, large metrics are read by every query node, each its own series.
    const offload = this.storage.mplOffloadFor({ mpl: request.mpl, datasetIds, ...options });
    const result = await runMpl(request.mpl, { source, offload, signal, ...options });
    return renderMpl(result, format);
  }
}
