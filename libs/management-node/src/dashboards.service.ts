import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { conflict, invalid, isQuarryError, newId, notFound } from '@quarry/common';
import type { ResourceRecord } from '@quarry/metastore';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import {
  EVERYONE,
  mergePatch,
  requireVersion,
  validatePatchedDashboard,
  type ChartPatch,
  type DashboardDocument,
  type DashboardUpsert,
} from './dashboards.input';

type DashboardRecord = ResourceRecord<DashboardDocument>;

/** What a write did, for DashboardWriteResponse and the status code (201 created, 200 updated). */
export interface DashboardWrite {
  record: DashboardRecord;
  status: 'created' | 'updated';
  overwritten: boolean;
}

/**
 * Dashboards (`/v2/dashboards`), addressed by an org-unique `uid`. Every update increments `version`; an
 * update names the version it read and fails with a version conflict (412, `DashboardErrorFilter`) when
 * the dashboard moved on, unless `overwrite`.
 */
@Injectable()
export class DashboardsService {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  /**
   * A dashboard owned by a user (not `X-AXIOM-EVERYONE` or a group) is private to that user: lists made
   * with an API token leave it out (service-spec §4.4), lists made with a PAT show only the caller's own.
   */
  async list(paging: { limit: number; offset: number }, principal: Principal): Promise<DashboardRecord[]> {
    const [all, users] = await Promise.all([
      this.storage.metastore.resources.list<DashboardDocument>('dashboard'),
      this.storage.metastore.users.list(),
    ]);
    const userIds = new Set(users.map((u) => u.id));
    const visible = all.filter((d) => {
      const isPrivate = d.owner !== EVERYONE && userIds.has(d.owner);
      if (!isPrivate) return true;
      return principal.tokenKind === 'personal' && d.owner === principal.userId;
    });
    return visible.slice(paging.offset, paging.offset + paging.limit);
  }

  async get(uid: string): Promise<DashboardRecord> {
    const record = await this.storage.metastore.resources.getByNaturalKey<DashboardDocument>(
      'dashboard',
      uid,
    );
    if (!record) throw dashboardNotFound(uid);
    return record;
  }

  /** POST: creates, or replaces an existing uid when `overwrite` is true (409 otherwise). */
  async create(request: DashboardUpsert, who: string): Promise<DashboardWrite> {
    const uid = request.uid ?? newUid();
    const existing = await this.storage.metastore.resources.getByNaturalKey('dashboard', uid);
    if (existing) {
      if (!request.overwrite)
        throw conflict(`dashboard "${uid}" already exists; set "overwrite" to replace it`, {
          code: 'dashboard_exists',
          details: { uid },
        });
      const record = await this.write(existing.id, uid, request.dashboard, who);
      return { record, status: 'updated', overwritten: true };
    }
    const record = await this.storage.metastore.resources.create(
      'dashboard',
      newId(),
      contentOf(uid, request.dashboard),
      who,
    );
    return { record, status: 'created', overwritten: false };
  }

  /** PUT: replaces the document of an existing dashboard. */
  async update(uid: string, request: DashboardUpsert, who: string): Promise<DashboardWrite> {
    if (request.uid !== undefined && request.uid !== uid)
      throw invalid(
        `invalid dashboard: "uid" (${JSON.stringify(request.uid)}) must equal the uid of the path`,
        {
          code: 'dashboard_invalid',
        },
      );
    const current = await this.get(uid);
    const record = await this.write(current.id, uid, request.dashboard, who, requireVersion(request));
    return { record, status: 'updated', overwritten: request.overwrite };
  }

  /** PATCH a chart: merges `patch.chart` into the chart with this id and bumps the version. */
  async patchChart(uid: string, chartId: string, patch: ChartPatch, who: string): Promise<DashboardWrite> {
    const current = await this.get(uid);
    const charts = current.document.charts ?? [];
    const index = charts.findIndex((c) => c.id === chartId);
    if (index < 0)
      throw notFound(`chart "${chartId}" not found in dashboard "${uid}"`, { code: 'chart_not_found' });
    const patched = mergePatch(charts[index], patch.chart) as Record<string, unknown>;
    const document = { ...current.document, charts: charts.map((c, i) => (i === index ? patched : c)) };
    validatePatchedDashboard(document);
    const record = await this.write(current.id, uid, document, who, requireVersion(patch));
    return { record, status: 'updated', overwritten: patch.overwrite };
  }

  async delete(uid: string): Promise<void> {
    const current = await this.get(uid);
    await this.storage.metastore.resources.delete('dashboard', current.id);
  }

  private async write(
    id: string,
    uid: string,
    document: DashboardDocument,
    who: string,
    expectedVersion?: number,
  ): Promise<DashboardRecord> {
    try {
      return await this.storage.metastore.resources.replace<DashboardDocument>(
        'dashboard',
        id,
        contentOf(uid, document),
        who,
        expectedVersion,
      );
    } catch (err) {
      // The repository names the internal id; clients know the dashboard by its uid.
      if (!isQuarryError(err) || err.code !== 'version_conflict') throw err;
      const currentVersion = err.details?.currentVersion;
      throw conflict(
        `dashboard "${uid}" is at version ${currentVersion}, not ${expectedVersion}: reload it and retry`,
        { code: 'version_conflict', details: { currentVersion, uid } },
      );
    }
  }
}

function contentOf(uid: string, document: DashboardDocument) {
  return { naturalKey: uid, owner: document.owner, document: { ...document, uid } };
}

function dashboardNotFound(uid: string) {
  return notFound(`dashboard "${uid}" not found`, { code: 'dashboard_not_found', details: { uid } });
}

/** A uid for a dashboard created without one: 16 URL-safe characters. */
function newUid(): string {
  return randomBytes(12).toString('base64url');
}
