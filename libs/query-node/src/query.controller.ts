import { Controller, HttpCode, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { disconnectSignal, jsonBodyOf } from '@quarry/nest-kit';
import {
  Access,
  principalOf,
  EventsReadYourWrites,
  STORAGE_RUNTIME,
  type StorageRuntime,
} from '@quarry/server';
import { forwardQuery } from './region-routing';
import { QueryService } from './query.service';

/** A client that disconnects cancels its query, here and on every node computing a share of it. */
@Controller()
@UseGuards(EventsReadYourWrites)
export class QueryController {
  constructor(
    private readonly queries: QueryService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {}

  /** APL on the main API (service-spec §4.2); PATs allowed. Dataset capabilities are checked per query. */
  @Post('v1/datasets/_apl')
  @HttpCode(200)
  @Access({ tokens: 'any' })
  queryMain(
    @Query('format') format: unknown,
    @Query('explain') explain: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<object> {
    return this.run(request, reply, format, explain, 'main');
  }

  /** APL on the edge (service-spec §4.3): API tokens only. */
  @Post('v1/query/_apl')
  @HttpCode(200)
  @Access({ tokens: 'api' })
  queryEdge(
    @Query('format') format: unknown,
    @Query('explain') explain: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<object> {
    return this.run(request, reply, format, explain, 'edge');
  }

  /**
   * The main API answers for every region (it forwards a query of another region's datasets there);
   * the edge endpoint only for its own region's datasets (else 421 with where they live).
   */
  private run(
    request: FastifyRequest,
    reply: FastifyReply,
    format: unknown,
    explain: unknown,
    endpoint: 'main' | 'edge',
  ) {
    const signal = disconnectSignal(reply);
    return this.queries.query(jsonBodyOf(request), format, principalOf(request), explain, {
      signal,
      elsewhere:
        endpoint === 'main'
          ? (region, dataset) => forwardQuery(this.regions, region, dataset, request, reply, signal)
          : undefined,
    });
  }

  private get regions() {
    return this.storage.regions;
  }
}
