import { Controller, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { disconnectSignal, jsonBodyOf } from '@quarry/nest-kit';
import {
  Access,
  EventsReadYourWrites,
  principalOf,
  STORAGE_RUNTIME,
  type StorageRuntime,
} from '@quarry/server';
import { LegacyQueryService } from './legacy-query.service';
import { forwardQuery } from './region-routing';

/**
 * The legacy structured query (api.md §4.2, docs/legacy-query.md) on the main API; PATs allowed. The query
 * params `saveAsKind`, `streaming-duration` and `nocache` are accepted and change nothing: Quarry keeps no
 * query history, streams nothing and caches no results.
 */
@Controller()
@UseGuards(EventsReadYourWrites)
export class LegacyQueryController {
  constructor(
    private readonly queries: LegacyQueryService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {}

  @Post('v1/datasets/:dataset/query')
  @HttpCode(200)
  @Access({ tokens: 'any', dataset: { param: 'dataset', capability: 'query', action: 'read' } })
  query(
    @Param('dataset') dataset: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const signal = disconnectSignal(reply);
    return this.queries.query(dataset, jsonBodyOf(request), principalOf(request), {
      signal,
      elsewhere: (region, where) => forwardQuery(this.storage.regions, region, where, request, reply, signal),
    });
  }
}
