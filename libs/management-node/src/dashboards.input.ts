import { invalid } from '@quarry/common';
import type { ResourceRecord } from '@quarry/metastore';
import { validateBody } from './openapi-validation';
import { BodyReader, isPlainObject } from './resource-validation';

/** The dashboard document (v2.json `Dashboard`), stored as sent with `uid` set to the resource's uid. */
export type DashboardDocument = Record<string, unknown> & {
  owner: string;
  charts: Record<string, unknown>[];
};

/** Shares a dashboard with the whole organization (v2.json `Owner`). */
export const EVERYONE = 'X-AXIOM-EVERYONE';

const UID_RE = /^[A-Za-z0-9_-]{1,128}$/;

/** A validated DashboardUpsertRequest (POST and PUT). */
export interface DashboardUpsert {
  dashboard: DashboardDocument;
  uid?: string;
  /** The version the client last read; required for updates unless `overwrite`. */
  version?: number;
  overwrite: boolean;
}

/** A validated DashboardChartPatchRequest. */
export interface ChartPatch {
  chart: Record<string, unknown>;
  version?: number;
  overwrite: boolean;
}

export function parseDashboardUpsert(operation: string, body: Record<string, unknown>): DashboardUpsert {
  // The schema checks the whole document: charts by type, layout bounds, refreshTime, schemaVersion, ...
  validateBody(operation, body);
  const reader = new BodyReader(body);
  const uid = reader.string('uid', { pattern: UID_RE });
  const version = reader.number('version', { integer: true, min: 1 });
  const overwrite = reader.boolean('overwrite') ?? false;
  const dashboard = body.dashboard as DashboardDocument;
  if (uid !== undefined && typeof dashboard.uid === 'string' && dashboard.uid !== uid)
    reader.problem('dashboard.uid', `must equal "uid" (${JSON.stringify(uid)}) when both are given`);
  reader.finish('dashboard', 'dashboard_invalid');
  return { dashboard, uid: uid ?? (dashboard.uid as string | undefined), version, overwrite };
}

export function parseChartPatch(body: Record<string, unknown>, chartId: string): ChartPatch {
  validateBody('PATCH /dashboards/uid/{uid}/charts/{chartId}', body);
  const reader = new BodyReader(body);
  const version = reader.number('version', { integer: true, min: 1 });
  const overwrite = reader.boolean('overwrite') ?? false;
  const chart = body.chart as Record<string, unknown>;
  if (chart.id !== undefined && chart.id !== chartId)
    reader.problem('chart.id', `must equal the chart id of the path (${JSON.stringify(chartId)})`);
  reader.finish('chart patch', 'dashboard_invalid');
  return { chart, version, overwrite };
}

/** The dashboard after a chart patch must still be a valid document. */
export function validatePatchedDashboard(dashboard: DashboardDocument): void {
  validateBody('PUT /dashboards/uid/{uid}', { dashboard });
}

/** An update without `overwrite` must say which version it changes. */
export function requireVersion(request: { version?: number; overwrite: boolean }): number | undefined {
  if (request.overwrite) return undefined;
  if (request.version === undefined)
    throw invalid('invalid dashboard: "version" is required unless "overwrite" is true', {
      code: 'dashboard_invalid',
    });
  return request.version;
}

/** RFC 7386 JSON merge patch: objects merge member by member, `null` deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** DashboardResource. */
export function dashboardResource(record: ResourceRecord<DashboardDocument>) {
  return {
    id: record.id,
    uid: record.naturalKey!,
    version: record.version,
    dashboard: record.document,
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
    updatedBy: record.updatedBy,
  };
}
