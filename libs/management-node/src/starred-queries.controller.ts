import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { parsePaging, singleParam } from './resource-validation';
import { starredQueryView } from './starred-queries.input';
import { StarredQueriesService } from './starred-queries.service';

/**
 * `/v2/apl-starred-queries`. The starredQueries capability is a dataset capability, checked by the
 * service against the datasets each query is about.
 */
@Controller('v2/apl-starred-queries')
export class StarredQueriesController {
  constructor(private readonly starred: StarredQueriesService) {}

  @Get()
  @Access({ tokens: 'any' })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    const filter = {
      ...parsePaging(query),
      dataset: singleParam(query.dataset),
      who: singleParam(query.who),
      qs: singleParam(query.qs),
    };
    return (await this.starred.list(filter, principalOf(request))).map(starredQueryView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any' })
  async create(@Req() request: FastifyRequest) {
    return starredQueryView(await this.starred.create(asObject(jsonBodyOf(request)), principalOf(request)));
  }

  @Get(':id')
  @Access({ tokens: 'any' })
  async get(@Param('id') id: string, @Req() request: FastifyRequest) {
    return starredQueryView(await this.starred.get(id, principalOf(request)));
  }

  @Put(':id')
  @Access({ tokens: 'any' })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    return starredQueryView(await this.starred.update(id, body, principalOf(request)));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any' })
  async delete(@Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.starred.delete(id, principalOf(request));
  }
}
