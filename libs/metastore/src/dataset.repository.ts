import { conflict, newId, notFound, systemClock, type Clock } from '@quarry/common';
import type { FieldSchema } from '@quarry/contracts';
import type { SqlDatabase } from './sql-database.port';
import { isoOf } from './sql-values';

export const DEFAULT_DATASET_KIND = 'axiom:events:v1';

export interface DatasetRecord {
  /** Id of this incarnation (UUID): delete + re-create under the same name gives a new id. */
  id: string;
  /** Unique; what the HTTP API calls the dataset id. */
  name: string;
  description: string;
  kind: string;
  /** Id of the creator. */
  who: string;
  createdAt: string;
  updatedAt: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
  /** Never null (Go clients compare create/get/list responses with DeepEqual). */
  mapFields: string[];
  /** The region (edge deployment) whose cluster stores it; '' = the installation's home region. */
  region: string;
}

export interface NewDataset {
  /** Generated (UUID) when omitted. */
  id?: string;
  name: string;
  description?: string;
  kind?: string;
  who?: string;
  retentionDays?: number;
  useRetentionPeriod?: boolean;
  mapFields?: string[];
  /** Default '' (the home region). */
  region?: string;
}

/** Fields `update` may change; `undefined` keeps the value. */
export interface DatasetPatch {
  description?: string;
  retentionDays?: number;
  useRetentionPeriod?: boolean;
  /** Replaces the whole list. */
  mapFields?: string[];
}

export interface DatasetFieldRecord {
  name: string;
  /** A wire type, or a union of several like `integer|string` (sorted, `|`-joined). */
  type: string;
  unit: string;
  description: string;
  hidden: boolean;
}

/** Field metadata `updateField` may change. */
export interface DatasetFieldPatch {
  unit?: string;
  description?: string;
  hidden?: boolean;
}

interface DatasetRow {
  id: string;
  name: string;
  description: string;
  kind: string;
  who: string;
  created_at: unknown;
  updated_at: unknown;
  retention_days: number;
  use_retention_period: boolean;
  map_fields: string[] | null;
  region: string;
}

const COLUMNS =
  'id, name, description, kind, who, created_at, updated_at, retention_days, use_retention_period, map_fields, region';
const FIELD_COLUMNS = 'name, type, unit, description, hidden';

const toDataset = (row: DatasetRow): DatasetRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  kind: row.kind,
  who: row.who,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
  retentionDays: Number(row.retention_days),
  useRetentionPeriod: row.use_retention_period,
  mapFields: row.map_fields ?? [],
  region: row.region,
});

/**
 * Union of wire types: `integer` + `string|float` → `float|integer|string`. Sorted by code unit (the same
 * order as the SQL side, which sorts with the "C" collation), no duplicates.
 */
export function unionType(...types: string[]): string {
  const parts = new Set<string>();
  for (const t of types) for (const p of t.split('|')) if (p !== '') parts.add(p);
  return [...parts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('|');
}

/** Datasets and their field schemas. */
export class DatasetRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Creates a dataset; `conflict` (`dataset "x" already exists`) when the name is taken. */
  async create(dataset: NewDataset): Promise<DatasetRecord> {
    const now = new Date(this.clock.nowMs()).toISOString();
    // ON CONFLICT instead of catching the unique violation: an error would abort a caller's transaction.
    const rows = await this.db.query<DatasetRow>(
      `INSERT INTO datasets (id, name, description, kind, who, created_at, updated_at, retention_days,
         use_retention_period, map_fields, region)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9::text[], $10)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        dataset.id ?? newId(),
        dataset.name,
        dataset.description ?? '',
        dataset.kind ?? DEFAULT_DATASET_KIND,
        dataset.who ?? '',
        now,
        dataset.retentionDays ?? 0,
        dataset.useRetentionPeriod ?? false,
        dataset.mapFields ?? [],
        dataset.region ?? '',
      ],
    );
    if (rows.length === 0) {
      throw conflict(`dataset "${dataset.name}" already exists`, {
        code: 'dataset_exists',
        details: { name: dataset.name },
      });
    }
    return toDataset(rows[0]);
  }

  async getByName(name: string): Promise<DatasetRecord | null> {
    const rows = await this.db.query<DatasetRow>(`SELECT ${COLUMNS} FROM datasets WHERE name = $1`, [name]);
    return rows.length > 0 ? toDataset(rows[0]) : null;
  }

  async getById(id: string): Promise<DatasetRecord | null> {
    const rows = await this.db.query<DatasetRow>(`SELECT ${COLUMNS} FROM datasets WHERE id = $1`, [id]);
    return rows.length > 0 ? toDataset(rows[0]) : null;
  }

  /** All datasets sorted by name (code-unit order, independent of the server's collation). */
  async list(): Promise<DatasetRecord[]> {
    const rows = await this.db.query<DatasetRow>(`SELECT ${COLUMNS} FROM datasets ORDER BY name COLLATE "C"`);
    return rows.map(toDataset);
  }

  /**
   * Changes the given fields and bumps `updatedAt`; `not_found` for an unknown id. Mutations take the id,
   * not the name, so a caller holding a deleted incarnation cannot touch its re-created namesake.
   */
  async update(id: string, patch: DatasetPatch): Promise<DatasetRecord> {
    const rows = await this.db.query<DatasetRow>(
      `UPDATE datasets SET
         description = COALESCE($2, description),
         retention_days = COALESCE($3, retention_days),
         use_retention_period = COALESCE($4, use_retention_period),
         map_fields = COALESCE($5::text[], map_fields),
         updated_at = $6
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [
        id,
        patch.description ?? null,
        patch.retentionDays ?? null,
        patch.useRetentionPeriod ?? null,
        patch.mapFields ?? null,
        new Date(this.clock.nowMs()).toISOString(),
      ],
    );
    if (rows.length === 0) throw datasetNotFound(id);
    return toDataset(rows[0]);
  }

  /**
   * Deletes a dataset and its field schema, and returns the deleted row (its `id` names the blocks to
   * delete: `BlockRepository.deleteBlocksOfDataset`). `not_found` for an unknown id.
   */
  async delete(id: string): Promise<DatasetRecord> {
    const rows = await this.db.query<DatasetRow>(`DELETE FROM datasets WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
    ]);
    if (rows.length === 0) throw datasetNotFound(id);
    return toDataset(rows[0]);
  }

  /**
   * Records the fields seen in new data. A field seen with another type than before gets the union type
   * (`integer|string`). One statement, so concurrent merges cannot lose a type; rows whose type does not
   * change are not rewritten. A no-op when the dataset does not exist (any more): its data is being dropped.
   */
  async mergeFields(datasetId: string, fields: readonly FieldSchema[]): Promise<void> {
    if (fields.length === 0) return;
    // ON CONFLICT may touch a row only once per statement: merge duplicate names first.
    const byName = new Map<string, string>();
    for (const f of fields) byName.set(f.name, unionType(byName.get(f.name) ?? '', f.type));
    const names = [...byName.keys()];
    const types = names.map((n) => byName.get(n)!);
    try {
      await this.db.query(
        `INSERT INTO dataset_fields (dataset_id, name, type)
         SELECT $1, u.name, u.type FROM unnest($2::text[], $3::text[]) AS u(name, type)
         WHERE EXISTS (SELECT 1 FROM datasets WHERE id = $1)
         ON CONFLICT (dataset_id, name) DO UPDATE SET type = (
           SELECT string_agg(DISTINCT p COLLATE "C", '|' ORDER BY p COLLATE "C")
           FROM unnest(string_to_array(dataset_fields.type || '|' || EXCLUDED.type, '|')) AS p
           WHERE p <> '')
         WHERE NOT (string_to_array(EXCLUDED.type, '|') <@ string_to_array(dataset_fields.type, '|'))`,
        [datasetId, names, types],
      );
    } catch (err) {
      // The dataset was deleted between the EXISTS check and the insert (PostgreSQL server only).
      if ((err as { code?: string }).code === '23503') return;
      throw err;
    }
  }

  /** The field schema, sorted by name. */
  async listFields(datasetId: string): Promise<DatasetFieldRecord[]> {
    return this.db.query<DatasetFieldRecord>(
      `SELECT ${FIELD_COLUMNS} FROM dataset_fields WHERE dataset_id = $1 ORDER BY name COLLATE "C"`,
      [datasetId],
    );
  }

  /** Updates a field's metadata (the type is only ever set by `mergeFields`); `not_found` if unknown. */
  async updateField(datasetId: string, name: string, patch: DatasetFieldPatch): Promise<DatasetFieldRecord> {
    const rows = await this.db.query<DatasetFieldRecord>(
      `UPDATE dataset_fields SET
         unit = COALESCE($3, unit), description = COALESCE($4, description), hidden = COALESCE($5, hidden)
       WHERE dataset_id = $1 AND name = $2 RETURNING ${FIELD_COLUMNS}`,
      [datasetId, name, patch.unit ?? null, patch.description ?? null, patch.hidden ?? null],
    );
    if (rows.length === 0) throw notFound(`field "${name}" not found`, { code: 'field_not_found' });
    return rows[0];
  }
}

function datasetNotFound(id: string) {
  return notFound(`dataset with id "${id}" not found`, { code: 'dataset_not_found', details: { id } });
}
