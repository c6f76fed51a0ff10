import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { DashboardErrorFilter } from './dashboard-error.filter';
import { dashboardResource, parseChartPatch, parseDashboardUpsert } from './dashboards.input';
import { DashboardsService, type DashboardWrite } from './dashboards.service';
import { asObject } from './dataset-validation';
import { parsePaging } from './resource-validation';

/** DashboardWriteResponse. */
function writeResponse(write: DashboardWrite) {
  return { status: write.status, dashboard: dashboardResource(write.record), overwritten: write.overwritten };
}

/** Errors in the DashboardError shape of v2.json (docs/management.md). */
@Controller('v2/dashboards')
@UseFilters(DashboardErrorFilter)
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  /** `limit` 1 to 1000 (default 100), `offset` ≥ 0 (default 0); anything else is a 400. */
  @Get()
  @Access({ tokens: 'any', org: ['dashboards', 'read'] })
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return (await this.dashboards.list(parsePaging(query), principalOf(request))).map(dashboardResource);
  }

  /** 201 when created, 200 when an existing uid was overwritten. */
  @Post()
  @Access({ tokens: 'any', org: ['dashboards', 'create'] })
  async create(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const upsert = parseDashboardUpsert('POST /dashboards', asObject(jsonBodyOf(request)));
    const write = await this.dashboards.create(upsert, principalOf(request).userId);
    void reply.status(write.status === 'created' ? 201 : 200);
    return writeResponse(write);
  }

  @Get('uid/:uid')
  @Access({ tokens: 'any', org: ['dashboards', 'read'] })
  async get(@Param('uid') uid: string) {
    return dashboardResource(await this.dashboards.get(uid));
  }

  @Put('uid/:uid')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['dashboards', 'update'] })
  async update(@Param('uid') uid: string, @Req() request: FastifyRequest) {
    const upsert = parseDashboardUpsert('PUT /dashboards/uid/{uid}', asObject(jsonBodyOf(request)));
    return writeResponse(await this.dashboards.update(uid, upsert, principalOf(request).userId));
  }

  @Patch('uid/:uid/charts/:chartId')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['dashboards', 'update'] })
  async patchChart(
    @Param('uid') uid: string,
    @Param('chartId') chartId: string,
    @Req() request: FastifyRequest,
  ) {
    const patch = parseChartPatch(asObject(jsonBodyOf(request)), chartId);
    return writeResponse(await this.dashboards.patchChart(uid, chartId, patch, principalOf(request).userId));
  }

  @Delete('uid/:uid')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['dashboards', 'delete'] })
  async delete(@Param('uid') uid: string): Promise<void> {
    await this.dashboards.delete(uid);
  }
}
