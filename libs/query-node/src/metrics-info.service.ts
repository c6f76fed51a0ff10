import { Inject, Injectable } from '@nestjs/common';
import { invalid, notFound, parseTimeBound, systemClock, type Clock } from '@quarry/common';
import { metricTagJson } from '@quarry/contracts';
import type { Window } from '@quarry/metrics-store';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME, metricsDataset } from '@quarry/server';

/** `start`/`end` query parameters of the info endpoints (RFC 3339 or now-relative). */
export interface WindowParams {
  start?: string;
  end?: string;
}

type TagJson = string | number | boolean;

/** The six metrics info endpoints over the series catalog (mpl.md §1.4). */
@Injectable()
export class MetricsInfoService {
  private readonly clock: Clock = systemClock;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  metrics(principal: Principal, dataset: string, params: WindowParams): { name: string; meta: object }[] {
    const id = this.datasetId(principal, dataset);
    return this.storage.metrics.info.metrics(id, this.window(params, false)).map(([name, meta]) => ({
      name,
      meta: { type: meta.type, temporality: meta.temporality, unit: meta.unit },
    }));
  }

  findMetrics(
    principal: Principal,
    dataset: string,
    body: unknown,
    params: WindowParams,
  ): Record<string, string[]> {
    const id = this.datasetId(principal, dataset);
    const value = (body as { value?: unknown } | undefined)?.value;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw invalid('body must be {"value": <string, number or boolean>}', {
        code: 'metrics_find_value_invalid',
      });
    }
    return this.storage.metrics.info.findMetrics(id, value, this.window(params, false));
  }

  metricTags(principal: Principal, dataset: string, metric: string, params: WindowParams): string[] {
    const id = this.datasetId(principal, dataset);
    const tags = this.storage.metrics.info.metricTags(id, metric, this.window(params, false));
    if (tags === null) throw metricNotFound(dataset, metric);
    return tags;
  }

  metricTagValues(
    principal: Principal,
    dataset: string,
    metric: string,
    tag: string,
    params: WindowParams,
  ): TagJson[] {
    const id = this.datasetId(principal, dataset);
    const window = this.window(params, true);
    const info = this.storage.metrics.info;
    if (!info.hasMetric(id, metric)) throw metricNotFound(dataset, metric);
    if (!info.metricHasTag(id, metric, tag)) {
      throw notFound(`metric "${metric}" has no tag "${tag}"`, { code: 'metrics_tag_not_found' });
    }
    return info.metricTagValues(id, metric, tag, window).map(metricTagJson);
  }

  datasetTags(principal: Principal, dataset: string, params: WindowParams): string[] {
    return this.storage.metrics.info.datasetTags(
      this.datasetId(principal, dataset),
      this.window(params, false),
    );
  }

  datasetTagValues(principal: Principal, dataset: string, tag: string, params: WindowParams): TagJson[] {
    const id = this.datasetId(principal, dataset);
    if (!this.storage.metrics.info.datasetHasTag(id, tag)) {
      throw notFound(`dataset "${dataset}" has no tag "${tag}"`, { code: 'metrics_tag_not_found' });
    }
    return this.storage.metrics.info.datasetTagValues(id, tag, this.window(params, false)).map(metricTagJson);
  }

  private datasetId(principal: Principal, dataset: string): string {
    return metricsDataset(this.storage, principal, dataset, 'query').id;
  }

  /** The `[start, end)` window in unix seconds; `required` makes both parameters mandatory. */
  private window(params: WindowParams, required: boolean): Window | undefined {
    if (!params.start && !params.end) {
      if (required) {
        throw invalid('the "start" and "end" query parameters are required (RFC 3339)', {
          code: 'metrics_window_missing',
        });
      }
      return undefined;
    }
    const nowMs = this.clock.nowMs();
    const bound = (name: string, value: string | undefined, fallback: number): number => {
      if (!value) {
        if (required)
          throw invalid(`the "${name}" query parameter is required (RFC 3339)`, {
            code: 'metrics_window_missing',
          });
        return fallback;
      }
      const ms = parseTimeBound(value, nowMs);
      if (ms === null) {
        throw invalid(`${name} "${value}" is not an RFC 3339 timestamp or a relative time like now-1h`, {
          code: 'metrics_window_invalid',
        });
      }
      return Math.floor(ms / 1000);
    };
    const start = bound('start', params.start, 0);
    const end = bound('end', params.end, Math.floor(nowMs / 1000) + 1);
    if (end <= start) throw invalid('end must be after start', { code: 'metrics_window_invalid' });
    return { start, end };
  }
}

function metricNotFound(dataset: string, metric: string) {
  return notFound(`metric "${metric}" not found in dataset "${dataset}"`, {
    code: 'metrics_metric_not_found',
  });
}
