import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf, MetricsReadYourWrites } from '@quarry/server';
import { MetricsInfoService, type WindowParams } from './metrics-info.service';

const INFO_ACCESS = {
  tokens: 'api',
  dataset: { param: 'dataset', capability: 'query', action: 'read' },
} as const;
const V2_ACCEPT = 'application/vnd.metrics-info.v2+json';

/** `/v1/query/metrics/info/datasets/{dataset}/...` (mpl.md §1.4). */
@Controller('v1/query/metrics/info/datasets/:dataset')
@UseGuards(MetricsReadYourWrites)
export class MetricsInfoController {
  constructor(private readonly info: MetricsInfoService) {}

  /** With the v2 Accept type a map name → {type, temporality, unit}; otherwise an array of names. */
  @Get('metrics')
  @Access(INFO_ACCESS)
  metrics(
    @Param('dataset') dataset: string,
    @Query() window: WindowParams,
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
  ): object {
    const metrics = this.info.metrics(principalOf(request), dataset, window);
    if (accept?.includes(V2_ACCEPT)) return Object.fromEntries(metrics.map((m) => [m.name, m.meta]));
    return metrics.map((m) => m.name);
  }

  /** Find metrics by tag value: `{"value": ...}` → `{metric: [tags whose value matched]}`. */
  @Post('metrics')
  @HttpCode(200)
  @Access(INFO_ACCESS)
  findMetrics(
    @Param('dataset') dataset: string,
    @Query() window: WindowParams,
    @Req() request: FastifyRequest,
  ): object {
    return this.info.findMetrics(principalOf(request), dataset, jsonBodyOf(request), window);
  }

  @Get('metrics/:metric/tags')
  @Access(INFO_ACCESS)
  metricTags(
    @Param('dataset') dataset: string,
    @Param('metric') metric: string,
    @Query() window: WindowParams,
    @Req() request: FastifyRequest,
  ): string[] {
    return this.info.metricTags(principalOf(request), dataset, metric, window);
  }

  /** Typed values of one tag of one metric; `start` and `end` are required (service spec §4.13). */
  @Get('metrics/:metric/tags/:tag/values')
  @Access(INFO_ACCESS)
  metricTagValues(
    @Param('dataset') dataset: string,
    @Param('metric') metric: string,
    @Param('tag') tag: string,
    @Query() window: WindowParams,
    @Req() request: FastifyRequest,
  ): unknown[] {
    return this.info.metricTagValues(principalOf(request), dataset, metric, tag, window);
  }

  @Get('tags')
  @Access(INFO_ACCESS)
  datasetTags(
    @Param('dataset') dataset: string,
    @Query() window: WindowParams,
    @Req() request: FastifyRequest,
  ): string[] {
    return this.info.datasetTags(principalOf(request), dataset, window);
  }

  @Get('tags/:tag/values')
  @Access(INFO_ACCESS)
  datasetTagValues(
    @Param('dataset') dataset: string,
    @Param('tag') tag: string,
    @Query() window: WindowParams,
    @Req() request: FastifyRequest,
  ): unknown[] {
    return this.info.datasetTagValues(principalOf(request), dataset, tag, window);
  }
}
