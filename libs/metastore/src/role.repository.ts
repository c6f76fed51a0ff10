import { conflict, invalid, notFound, prefixedId, systemClock, type Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, jsonOf } from './sql-values';
import type { DatasetCapabilities, OrgCapabilities, ViewCapabilities } from './token.repository';

/** A custom RBAC role: capabilities like a token's, granted to its members and to the groups holding it. */
export interface RoleRecord {
  id: string;
  name: string;
  description: string;
  orgCapabilities: OrgCapabilities;
  datasetCapabilities: DatasetCapabilities;
  viewCapabilities: ViewCapabilities;
  /** Ids of users the role is assigned to directly (sorted). */
  members: string[];
  createdAt: string;
  updatedAt: string;
}

/** Everything a create or a full update (PUT) sets. */
export interface RoleInput {
  name: string;
  description?: string;
  orgCapabilities?: OrgCapabilities;
  datasetCapabilities?: DatasetCapabilities;
  viewCapabilities?: ViewCapabilities;
  members?: string[];
}

interface RoleRow {
  id: string;
  name: string;
  description: string;
  org_capabilities: unknown;
  dataset_capabilities: unknown;
  view_capabilities: unknown;
  created_at: unknown;
  updated_at: unknown;
  members: string[] | null;
}

const SELECT_ROLES = `
  SELECT r.id, r.name, r.description, r.org_capabilities, r.dataset_capabilities, r.view_capabilities,
         r.created_at, r.updated_at,
         ARRAY(SELECT m.user_id FROM rbac_role_members m WHERE m.role_id = r.id ORDER BY m.user_id) AS members
  FROM rbac_roles r`;

const toRole = (row: RoleRow): RoleRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  orgCapabilities: jsonOf<OrgCapabilities>(row.org_capabilities),
  datasetCapabilities: jsonOf<DatasetCapabilities>(row.dataset_capabilities),
  viewCapabilities: jsonOf<ViewCapabilities>(row.view_capabilities),
  members: [...(row.members ?? [])].sort(),
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** SQLSTATE of a driver error (both PGlite's SqlError and pg's DatabaseError carry `code`). */
export const sqlStateOf = (err: unknown): string | undefined => (err as { code?: string } | null)?.code;

/** Roles under `/v2/rbac/roles`. Names are unique case-insensitively. */
export class RoleRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `conflict` for a taken name, `invalid` when a member is not a user. */
  async create(input: RoleInput): Promise<RoleRecord> {
    const id = prefixedId('role_');
    const now = new Date(this.clock.nowMs()).toISOString();
    return this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO rbac_roles (id, name, description, org_capabilities, dataset_capabilities,
           view_capabilities, created_at, updated_at)
         VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $7) ON CONFLICT DO NOTHING RETURNING id`,
        [id, input.name, input.description ?? '', ...capabilityParams(input), now],
      );
      if (inserted.length === 0) throw roleExists(input.name);
      await setMembers(tx, 'rbac_role_members', 'role_id', id, input.members ?? []);
      return (await getRole(tx, id))!;
    });
  }

  async get(id: string): Promise<RoleRecord | null> {
    return getRole(this.db, id);
  }

  /** All roles, by name. */
  async list(): Promise<RoleRecord[]> {
    const rows = await this.db.query<RoleRow>(`${SELECT_ROLES} ORDER BY lower(r.name), r.id`);
    return rows.map(toRole);
  }

  /** Replaces every field (PUT semantics); `not_found`, `conflict` and `invalid` as for create. */
  async replace(id: string, input: RoleInput): Promise<RoleRecord> {
    return this.db.transaction(async (tx) => {
      let updated: unknown[];
      try {
        updated = await tx.query(
          `UPDATE rbac_roles SET name = $2, description = $3, org_capabilities = $4::jsonb,
             dataset_capabilities = $5::jsonb, view_capabilities = $6::jsonb, updated_at = $7
           WHERE id = $1 RETURNING id`,
          [
            id,
            input.name,
            input.description ?? '',
            ...capabilityParams(input),
            new Date(this.clock.nowMs()).toISOString(),
          ],
        );
      } catch (err) {
        if (sqlStateOf(err) === '23505') throw roleExists(input.name, err);
        throw err;
      }
      if (updated.length === 0) throw roleNotFound(id);
      await setMembers(tx, 'rbac_role_members', 'role_id', id, input.members ?? []);
      return (await getRole(tx, id))!;
    });
  }

  /** Deletes a role (its assignments to users and groups go with it); `not_found` for an unknown id. */
  async delete(id: string): Promise<void> {
    const rows = await this.db.query('DELETE FROM rbac_roles WHERE id = $1 RETURNING id', [id]);
    if (rows.length === 0) throw roleNotFound(id);
  }

  /** Every role a user holds: assigned directly or through any of their groups (each role once). */
  async rolesOfUser(userId: string): Promise<RoleRecord[]> {
    const rows = await this.db.query<RoleRow>(
      `${SELECT_ROLES}
       WHERE r.id IN (
         SELECT role_id FROM rbac_role_members WHERE user_id = $1
         UNION
         SELECT gr.role_id FROM rbac_group_roles gr
           JOIN rbac_group_members gm ON gm.group_id = gr.group_id
         WHERE gm.user_id = $1)
       ORDER BY lower(r.name), r.id`,
      [userId],
    );
    return rows.map(toRole);
  }
}

async function getRole(db: SqlDatabase, id: string): Promise<RoleRecord | null> {
  const rows = await db.query<RoleRow>(`${SELECT_ROLES} WHERE r.id = $1`, [id]);
  return rows.length > 0 ? toRole(rows[0]) : null;
}

function capabilityParams(input: RoleInput): string[] {
  return [
    JSON.stringify(input.orgCapabilities ?? {}),
    JSON.stringify(input.datasetCapabilities ?? {}),
    JSON.stringify(input.viewCapabilities ?? {}),
  ];
}

const roleExists = (name: string, cause?: unknown) =>
  conflict(`role "${name}" already exists`, { code: 'role_exists', cause });
const roleNotFound = (id: string) => notFound(`role "${id}" not found`, { code: 'role_not_found' });

/**
 * Replaces the rows of a membership table for one owner (role or group). Unknown ids are a user mistake:
 * the foreign key rejects them and the message names them.
 */
export async function setMembers(
  tx: SqlDatabase,
  table: 'rbac_role_members' | 'rbac_group_members' | 'rbac_group_roles',
  ownerColumn: 'role_id' | 'group_id',
  ownerId: string,
  memberIds: readonly string[],
): Promise<void> {
  const memberColumn = table === 'rbac_group_roles' ? 'role_id' : 'user_id';
  const what = table === 'rbac_group_roles' ? 'role' : 'user';
  const unique = [...new Set(memberIds)];
  const known = await tx.query<{ id: string }>(
    `SELECT id FROM ${what === 'role' ? 'rbac_roles' : 'users'} WHERE id = ANY($1::text[])`,
    [unique],
  );
  const knownIds = new Set(known.map((r) => r.id));
  const unknown = unique.filter((memberId) => !knownIds.has(memberId));
  if (unknown.length > 0) {
    throw invalid(`unknown ${what} id${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      code: `${what}_unknown`,
    });
  }
  await tx.query(`DELETE FROM ${table} WHERE ${ownerColumn} = $1`, [ownerId]);
  if (unique.length === 0) return;
  await tx.query(`INSERT INTO ${table} (${ownerColumn}, ${memberColumn}) SELECT $1, unnest($2::text[])`, [
    ownerId,
    unique,
  ]);
}
