import { Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { notifierView } from './notifiers.input';
import { NotifiersService } from './notifiers.service';

@Controller('v2/notifiers')
export class NotifiersController {
  constructor(private readonly notifiers: NotifiersService) {}

  @Get()
  @Access({ tokens: 'any', org: ['notifiers', 'read'] })
  async list() {
    return (await this.notifiers.list()).map(notifierView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['notifiers', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    return notifierView(await this.notifiers.create(body, principalOf(request).userId));
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['notifiers', 'read'] })
  async get(@Param('id') id: string) {
    return notifierView(await this.notifiers.get(id));
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['notifiers', 'update'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    return notifierView(await this.notifiers.update(id, body, principalOf(request).userId));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['notifiers', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.notifiers.delete(id);
  }
}
