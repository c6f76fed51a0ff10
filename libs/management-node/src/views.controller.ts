import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { viewView } from './views.input';
import { ViewsService } from './views.service';

@Controller('v2/views')
export class ViewsController {
  constructor(private readonly views: ViewsService) {}

  @Get()
  @Access({ tokens: 'any', org: ['views', 'read'] })
  async list() {
    return (await this.views.list()).map(viewView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['views', 'create'] })
  async create(@Req() request: FastifyRequest) {
    return viewView(await this.views.create(asObject(jsonBodyOf(request)), principalOf(request).userId));
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['views', 'read'] })
  async get(@Param('id') id: string) {
    return viewView(await this.views.get(id));
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['views', 'update'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    return viewView(await this.views.update(id, asObject(jsonBodyOf(request)), principalOf(request).userId));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['views', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.views.delete(id);
  }
}
