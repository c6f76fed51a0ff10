import { Controller, HttpCode, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf, EventsReadYourWrites } from '@quarry/server';
import { QueryService } from './query.service';

@Controller()
@UseInterceptors(EventsReadYourWrites)
export class QueryController {
  constructor(private readonly queries: QueryService) {}

  /** APL on the main API (service-spec §4.2); PATs allowed. Dataset capabilities are checked per query. */
  @Post('v1/datasets/_apl')
  @HttpCode(200)
  @Access({ tokens: 'any' })
  queryMain(@Query('format') format: unknown, @Req() request: FastifyRequest): Promise<object> {
    return this.queries.query(jsonBodyOf(request), format, principalOf(request));
  }

  /** APL on the edge (service-spec §4.3): API tokens only. */
  @Post('v1/query/_apl')
  @HttpCode(200)
  @Access({ tokens: 'api' })
  queryEdge(@Query('format') format: unknown, @Req() request: FastifyRequest): Promise<object> {
    return this.queries.query(jsonBodyOf(request), format, principalOf(request));
  }
}
