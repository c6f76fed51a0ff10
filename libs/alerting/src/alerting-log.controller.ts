import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { invalid, parseRfc3339, systemClock } from '@quarry/common';
import { resourceNotFound, type ResourceKind } from '@quarry/metastore';
import { Access, STORAGE_RUNTIME, type StorageRuntime } from '@quarry/server';
import { AlertingLog, type DeliveryRow, type MonitorRunRow } from './alerting-log.repository';

const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;

/**
 * What monitors and notifiers did, served as Quarry extensions of the v2 API (docs/monitors.md, "Run
 * log" and "Delivery log"; Axiom has no such routes): `GET /v2/monitors/{id}/runs` and
 * `GET /v2/notifiers/{id}/deliveries`, newest first. Readable by whoever may read the monitor or notifier.
 */
@Controller('v2')
export class AlertingLogController {
  private readonly log: AlertingLog;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {
    this.log = new AlertingLog(storage.metastore.db, systemClock);
  }

  @Get('monitors/:id/runs')
  @Access({ tokens: 'any', org: ['monitors', 'read'] })
  async runs(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<MonitorRunRow[]> {
    await this.exists('monitor', id);
    const { start, end, limit } = window(query, 'monitor_runs_invalid');
    return this.log.runs(id, start, end, limit);
  }

  @Get('notifiers/:id/deliveries')
  @Access({ tokens: 'any', org: ['notifiers', 'read'] })
  async deliveries(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<DeliveryRow[]> {
    await this.exists('notifier', id);
    const { start, end, limit } = window(query, 'notifier_deliveries_invalid');
    return this.log.deliveries(id, start, end, limit);
  }

  private async exists(kind: ResourceKind, id: string): Promise<void> {
    if (!(await this.storage.metastore.resources.get(kind, id))) throw resourceNotFound(kind, id);
  }
}

/** `startTime`/`endTime` (RFC 3339, optional: all time) and `limit` (1…1000, default 100). */
function window(query: Record<string, unknown>, code: string): { start: string; end: string; limit: number } {
  const time = (name: string, fallback: string): string => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const ms = typeof raw === 'string' ? parseRfc3339(raw) : null;
    if (ms === null) throw invalid(`"${name}" must be an RFC 3339 date-time`, { code });
    return new Date(ms).toISOString();
  };
  const start = time('startTime', '1970-01-01T00:00:00.000Z');
  const end = time('endTime', '9999-12-31T23:59:59.999Z');
  if (end < start) throw invalid('"endTime" must not be before "startTime"', { code });
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw invalid(`"limit" must be an integer from 1 to ${MAX_LIMIT}`, { code });
  }
  return { start, end, limit };
}
