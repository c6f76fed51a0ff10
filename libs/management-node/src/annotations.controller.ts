import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { invalid, parseRfc3339 } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { annotationView } from './annotations.input';
import { AnnotationsService } from './annotations.service';
import { asObject } from './dataset-validation';
import { listParam, singleParam } from './resource-validation';

@Controller('v2/annotations')
export class AnnotationsController {
  constructor(private readonly annotations: AnnotationsService) {}

  /** Filters: `datasets` (`a,b` or repeated), `start` and `end` (RFC 3339; Go's zero time = no bound). */
  @Get()
  @Access({ tokens: 'any', org: ['annotations', 'read'] })
  async list(@Query() query: Record<string, unknown>) {
    const records = await this.annotations.list({
      datasets: listParam(query.datasets),
      start: timeParam(query.start, 'start'),
      end: timeParam(query.end, 'end'),
    });
    return records.map(annotationView);
  }

  @Post()
  @HttpCode(201)
  @Access({ tokens: 'any', org: ['annotations', 'create'] })
  async create(@Req() request: FastifyRequest) {
    const record = await this.annotations.create(asObject(jsonBodyOf(request)), principalOf(request).userId);
    return annotationView(record);
  }

  @Get(':id')
  @Access({ tokens: 'any', org: ['annotations', 'read'] })
  async get(@Param('id') id: string) {
    return annotationView(await this.annotations.get(id));
  }

  @Put(':id')
  @Access({ tokens: 'any', org: ['annotations', 'update'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = asObject(jsonBodyOf(request));
    return annotationView(await this.annotations.update(id, body, principalOf(request).userId));
  }

  @Delete(':id')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['annotations', 'delete'] })
  async delete(@Param('id') id: string): Promise<void> {
    await this.annotations.delete(id);
  }
}

function timeParam(raw: unknown, name: string): string | undefined {
  const text = singleParam(raw);
  if (text === undefined || text === '' || text.startsWith('0001-01-01')) return undefined;
  const ms = parseRfc3339(text);
  if (ms === null)
    throw invalid(`"${name}" must be an RFC 3339 date-time, not ${JSON.stringify(text)}`, {
      code: 'annotation_filter_invalid',
    });
  return new Date(ms).toISOString();
}
