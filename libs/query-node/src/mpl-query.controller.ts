import { Controller, Headers, HttpCode, Options, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MPL_SPEC_MARKDOWN } from '@quarry/mpl';
import { disconnectSignal, jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf, MetricsReadYourWrites } from '@quarry/server';
import { MPL_CONTENT_TYPES, mplFormatOf } from './mpl-request';
import { MplQueryService } from './mpl-query.service';

/** MPL queries on the edge (mpl.md §3): API tokens only; dataset capabilities are checked per query. */
@Controller()
export class MplQueryController {
  constructor(private readonly queries: MplQueryService) {}

  @Post(['v1/query/_mpl', 'v1/query/_metrics'])
  @HttpCode(200)
  @Access({ tokens: 'api' })
  @UseGuards(MetricsReadYourWrites)
  async query(
    @Query() query: Record<string, unknown>,
    @Headers('accept') accept: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const format = mplFormatOf(query.format, accept);
    // A client that goes away stops the query (and the shares other query nodes compute for it).
    const signal = disconnectSignal(reply);
    const result = await this.queries.query(jsonBodyOf(request), query, format, principalOf(request), signal);
    reply.header('content-type', `${MPL_CONTENT_TYPES[format]}; charset=utf-8`);
    return JSON.stringify(result);
  }

  /** The language reference as Markdown, for agents that discover the endpoint (no token needed). */
  @Options(['v1/query/_mpl', 'v1/query/_metrics'])
  @HttpCode(200)
  @Access({ tokens: 'any', public: true })
  spec(@Res({ passthrough: true }) reply: FastifyReply): string {
    reply.header('content-type', 'text/markdown; charset=utf-8');
    return MPL_SPEC_MARKDOWN;
  }
}
