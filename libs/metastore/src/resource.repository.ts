import { conflict, notFound, systemClock, type Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, isoOrNull, isoParam, jsonOf, numberOf } from './sql-values';

/** The management resources stored as documents (table `resources`, migration 0003). */
export type ResourceKind =
  'dashboard' | 'view' | 'vfield' | 'starred_query' | 'annotation' | 'monitor' | 'notifier';

export type ResourceDocument = Record<string, unknown>;

export interface ResourceRecord<D extends ResourceDocument = ResourceDocument> {
  kind: ResourceKind;
  id: string;
  /** Unique within the kind when not null (dashboard uid, `dataset/name` of a virtual field, view name). */
  naturalKey: string | null;
  datasets: string[];
  owner: string;
  startTime: string | null;
  endTime: string | null;
  document: D;
  /** 1 on create, +1 on every replace. */
  version: number;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The typed columns and the document of a resource, as written by create and replace. */
export interface ResourceContent<D extends ResourceDocument = ResourceDocument> {
  naturalKey?: string | null;
  datasets?: string[];
  owner?: string;
  startTime?: string | null;
  endTime?: string | null;
  document: D;
}

export interface ResourceFilter {
  /** Resources sharing at least one of these datasets. */
  datasets?: string[];
  owner?: string;
  /** Resources whose owner is not this one (starred queries `who=team`). */
  ownerNot?: string;
  /** Resources whose [startTime, endTime ?? startTime] range ends at or after this time. */
  endsAtOrAfter?: string;
  /** Resources whose range starts at or before this time. */
  startsAtOrBefore?: string;
  limit?: number;
  offset?: number;
}

interface ResourceRow {
  kind: ResourceKind;
  id: string;
  natural_key: string | null;
  datasets: string[] | null;
  owner: string;
  start_time: unknown;
  end_time: unknown;
  document: unknown;
  version: unknown;
  created_by: string;
  updated_by: string;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS =
  'kind, id, natural_key, datasets, owner, start_time, end_time, document, version, created_by, updated_by, created_at, updated_at';

const UNIQUE_VIOLATION = '23505';

function toRecord<D extends ResourceDocument>(row: ResourceRow): ResourceRecord<D> {
  return {
    kind: row.kind,
    id: row.id,
    naturalKey: row.natural_key,
    datasets: row.datasets ?? [],
    owner: row.owner,
    startTime: isoOrNull(row.start_time),
    endTime: isoOrNull(row.end_time),
    document: jsonOf<D>(row.document),
    version: numberOf(row.version),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

const timeParam = (value: string | null | undefined, what: string) =>
  value == null ? null : isoParam(value, what);

/**
 * One repository for every document-shaped management resource: the services validate and render, this
 * stores a document with its typed columns, enforces uniqueness of natural keys and versions updates.
 */
export class ResourceRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Stores a new resource; `conflict` when the id or the natural key is taken. */
  async create<D extends ResourceDocument>(
    kind: ResourceKind,
    id: string,
    content: ResourceContent<D>,
    who: string,
  ): Promise<ResourceRecord<D>> {
    const now = this.nowIso();
    const rows = await this.db.query<ResourceRow>(
      `INSERT INTO resources (kind, id, natural_key, datasets, owner, start_time, end_time, document,
         version, created_by, updated_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 1, $9, $9, $10, $10)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        kind,
        id,
        content.naturalKey ?? null,
        content.datasets ?? [],
        content.owner ?? '',
        timeParam(content.startTime, 'startTime'),
        timeParam(content.endTime, 'endTime'),
        JSON.stringify(content.document),
        who,
        now,
      ],
    );
    if (rows.length === 0) throw existsError(kind, content.naturalKey ?? id);
    return toRecord<D>(rows[0]);
  }

  async get<D extends ResourceDocument>(kind: ResourceKind, id: string): Promise<ResourceRecord<D> | null> {
    const rows = await this.db.query<ResourceRow>(
      `SELECT ${COLUMNS} FROM resources WHERE kind = $1 AND id = $2`,
      [kind, id],
    );
    return rows.length > 0 ? toRecord<D>(rows[0]) : null;
  }

  async getByNaturalKey<D extends ResourceDocument>(
    kind: ResourceKind,
    naturalKey: string,
  ): Promise<ResourceRecord<D> | null> {
    const rows = await this.db.query<ResourceRow>(
      `SELECT ${COLUMNS} FROM resources WHERE kind = $1 AND natural_key = $2`,
      [kind, naturalKey],
    );
    return rows.length > 0 ? toRecord<D>(rows[0]) : null;
  }

  /** Resources of a kind, oldest first, narrowed by `filter`. */
  async list<D extends ResourceDocument>(
    kind: ResourceKind,
    filter: ResourceFilter = {},
  ): Promise<ResourceRecord<D>[]> {
    const rows = await this.db.query<ResourceRow>(
      `SELECT ${COLUMNS} FROM resources
       WHERE kind = $1
         AND ($2::text[] IS NULL OR datasets && $2::text[])
         AND ($3::text IS NULL OR owner = $3)
         AND ($4::text IS NULL OR owner <> $4)
         AND ($5::timestamptz IS NULL OR COALESCE(end_time, start_time) >= $5::timestamptz)
         AND ($6::timestamptz IS NULL OR start_time <= $6::timestamptz)
       ORDER BY created_at, id
       LIMIT $7 OFFSET $8`,
      [
        kind,
        filter.datasets ?? null,
        filter.owner ?? null,
        filter.ownerNot ?? null,
        timeParam(filter.endsAtOrAfter, 'start'),
        timeParam(filter.startsAtOrBefore, 'end'),
        filter.limit ?? null,
        filter.offset ?? 0,
      ],
    );
    return rows.map((row) => toRecord<D>(row));
  }

  /**
   * Replaces the document and typed columns and increments the version. With `expectedVersion`, the write
   * only happens if the stored version still equals it (`conflict` carrying `currentVersion` otherwise).
   * `not_found` for an unknown id, `conflict` when the new natural key is taken.
   */
  async replace<D extends ResourceDocument>(
    kind: ResourceKind,
    id: string,
    content: ResourceContent<D>,
    who: string,
    expectedVersion?: number,
  ): Promise<ResourceRecord<D>> {
    let rows: ResourceRow[];
    try {
      rows = await this.db.query<ResourceRow>(
        `UPDATE resources SET natural_key = $3, datasets = $4, owner = $5, start_time = $6, end_time = $7,
           document = $8::jsonb, version = version + 1, updated_by = $9, updated_at = $10
         WHERE kind = $1 AND id = $2 AND ($11::bigint IS NULL OR version = $11::bigint)
         RETURNING ${COLUMNS}`,
        [
          kind,
          id,
          content.naturalKey ?? null,
          content.datasets ?? [],
          content.owner ?? '',
          timeParam(content.startTime, 'startTime'),
          timeParam(content.endTime, 'endTime'),
          JSON.stringify(content.document),
          who,
          this.nowIso(),
          expectedVersion ?? null,
        ],
      );
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION)
        throw existsError(kind, content.naturalKey ?? id);
      throw err;
    }
    if (rows.length > 0) return toRecord<D>(rows[0]);
    const current = await this.get(kind, id);
    if (!current) throw resourceNotFound(kind, id);
    throw conflict(
      `${LABELS[kind]} "${id}" is at version ${current.version}, not ${expectedVersion}: reload it and retry`,
      { code: 'version_conflict', details: { currentVersion: current.version } },
    );
  }

  /** Deletes a resource and returns it; `not_found` for an unknown id. */
  async delete<D extends ResourceDocument>(kind: ResourceKind, id: string): Promise<ResourceRecord<D>> {
    const rows = await this.db.query<ResourceRow>(
      `DELETE FROM resources WHERE kind = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [kind, id],
    );
    if (rows.length === 0) throw resourceNotFound(kind, id);
    return toRecord<D>(rows[0]);
  }

  /**
   * Deletes every resource of a kind whose `datasets` name the dataset, and returns them: what belongs to a
   * dataset goes with it (virtual fields).
   */
  async deleteOfDataset<D extends ResourceDocument>(
    kind: ResourceKind,
    dataset: string,
  ): Promise<ResourceRecord<D>[]> {
    const rows = await this.db.query<ResourceRow>(
      `DELETE FROM resources WHERE kind = $1 AND datasets && ARRAY[$2::text] RETURNING ${COLUMNS}`,
      [kind, dataset],
    );
    return rows.map((row) => toRecord<D>(row));
  }

  private nowIso(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }
}

const LABELS: Record<ResourceKind, string> = {
  dashboard: 'dashboard',
  view: 'view',
  vfield: 'virtual field',
  starred_query: 'starred query',
  annotation: 'annotation',
  monitor: 'monitor',
  notifier: 'notifier',
};

function existsError(kind: ResourceKind, key: string) {
  return conflict(`${LABELS[kind]} "${key}" already exists`, { code: `${kind}_exists` });
}

/** The error for an unknown id (clients look for "not found" in the message). */
export function resourceNotFound(kind: ResourceKind, id: string) {
  return notFound(`${LABELS[kind]} "${id}" not found`, { code: `${kind}_not_found` });
}
