import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid, parseRfc3339 } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { asObject } from './dataset-validation';
import { monitorView } from './monitors.input';
import { MonitorsService } from './monitors.service';
import { singleParam } from './resource-validation';

@Controller('v2/monitors')
export class MonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  @Access({ tokens: 'any', org: ['monitors', 'read'] })
  async list(@Req() request: FastifyRequest) {
    return (await this.monitors.list(principalOf(request))).map(monitorView);
  }

  @Post()
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['monitors', 'create'] })
  async create(@Req() request: FastifyRequest) {
    return monitorView(
      await this.monitors.create(asObject(jsonBodyOf(request)), principalOf(request).userId),
    );
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['monitors', 'read'] })
  async get(@Param('id') id: string) {
    return monitorView(await this.monitors.get(id));
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['monitors', 'update'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    return monitorView(await this.monitors.update(id, body, principalOf(request).userId));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['monitors', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.monitors.delete(id);
  }

  /** `startTime` and `endTime` are required RFC 3339 date-times. */
  @Get(':id/history')
  @Access({ tokens: 'any', org: ['monitors', 'read'] })
  async history(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    const start = requiredTime(query.startTime, 'startTime');
    const end = requiredTime(query.endTime, 'endTime');
    if (end < start)
      throw invalid('"endTime" must not be before "startTime"', { code: 'monitor_history_invalid' });
    return this.monitors.history(id, start, end);
  }
}

function requiredTime(raw: unknown, name: string): number {
  const text = singleParam(raw);
  const ms = text === undefined ? null : parseRfc3339(text);
  if (ms === null)
    throw invalid(`"${name}" is required and must be an RFC 3339 date-time`, {
      code: 'monitor_history_invalid',
    });
  return ms;
}
