import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { singleParam } from './resource-validation';
import { virtualFieldView } from './vfields.input';
import { VirtualFieldsService } from './vfields.service';

/**
 * `/v2/vfields`. The virtualFields capability is checked by the service: the dataset is named by the
 * query string or the body, or by the stored field.
 */
@Controller('v2/vfields')
export class VirtualFieldsController {
  constructor(private readonly vfields: VirtualFieldsService) {}

  @Get()
  @Access({ tokens: 'any' })
  async list(@Query('dataset') datasetParam: unknown, @Req() request: FastifyRequest) {
    const dataset = singleParam(datasetParam);
    if (!dataset) throw invalid('"dataset" query parameter is required', { code: 'vfield_invalid' });
    return (await this.vfields.list(dataset, principalOf(request))).map(virtualFieldView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any' })
  async create(@Req() request: FastifyRequest) {
    return virtualFieldView(await this.vfields.create(asObject(jsonBodyOf(request)), principalOf(request)));
  }

  @Get(':id')
  @Access({ tokens: 'any' })
  async get(@Param('id') id: string, @Req() request: FastifyRequest) {
    return virtualFieldView(await this.vfields.get(id, principalOf(request)));
  }

  @Put(':id')
  @Access({ tokens: 'any' })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    return virtualFieldView(
      await this.vfields.update(id, asObject(jsonBodyOf(request)), principalOf(request)),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any' })
  async delete(@Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.vfields.delete(id, principalOf(request));
  }
}
