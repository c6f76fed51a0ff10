import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import type { DatasetRecord } from '@quarry/metastore';
import { Access, principalOf, STORAGE_RUNTIME, type StorageRuntime } from '@quarry/server';
import { asObject, validateDatasetInput, validateDatasetName } from './dataset-validation';
import { datasetV1, datasetV2 } from './dataset-views';
import { DatasetsService } from './datasets.service';

/** `/v2/datasets` and the `/v1/datasets` equivalents the official clients still call. */
@Controller()
export class DatasetsController {
  constructor(
    private readonly datasets: DatasetsService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {}

  private v2(d: DatasetRecord) {
    return datasetV2(d, this.storage.regions);
  }

  @Get('v2/datasets')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  listV2() {
    return this.datasets.list().map((d) => this.v2(d));
  }

  @Post('v2/datasets')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['datasets', 'create'] })
  async createV2(@Req() request: FastifyRequest) {
    return this.v2(await this.create(request));
  }

  @Get('v2/datasets/:id')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  getV2(@Param('id') id: string) {
    return this.v2(this.datasets.get(id));
  }

  @Put('v2/datasets/:id')
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async updateV2(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.v2(
      await this.datasets.update(id, validateDatasetInput(asObject(jsonBodyOf(request)), false)),
    );
  }

  @Delete('v2/datasets/:id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['datasets', 'delete'] })
  async deleteV2(@Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.datasets.delete(id, principalOf(request).userId);
  }

  @Get('v1/datasets')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  listV1() {
    return this.datasets.list().map(datasetV1);
  }

  @Post('v1/datasets')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['datasets', 'create'] })
  async createV1(@Req() request: FastifyRequest) {
    return datasetV1(await this.create(request));
  }

  @Get('v1/datasets/:id')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  getV1(@Param('id') id: string) {
    return datasetV1(this.datasets.get(id));
  }

  @Put('v1/datasets/:id')
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async updateV1(@Param('id') id: string, @Req() request: FastifyRequest) {
    return datasetV1(
      await this.datasets.update(id, validateDatasetInput(asObject(jsonBodyOf(request)), false)),
    );
  }

  @Delete('v1/datasets/:id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['datasets', 'delete'] })
  async deleteV1(@Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.datasets.delete(id, principalOf(request).userId);
  }

  private create(request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    const name = validateDatasetName(body.name);
    return this.datasets.create(name, validateDatasetInput(body, true), principalOf(request).userId);
  }
}
