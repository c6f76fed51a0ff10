import { conflict, notFound, prefixedId, systemClock, type Clock } from '@quarry/common';
import { setMembers, sqlStateOf } from './role.repository';
import type { SqlDatabase } from './sql-database.port';
import { isoOf } from './sql-values';

/** An RBAC group: its members hold the union of its roles' capabilities. */
export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  /** User ids (sorted). */
  members: string[];
  /** Role ids (sorted). */
  roles: string[];
  createdAt: string;
  updatedAt: string;
}

export interface GroupInput {
  name: string;
  description?: string;
  members?: string[];
  roles?: string[];
}

interface GroupRow {
  id: string;
  name: string;
  description: string;
  created_at: unknown;
  updated_at: unknown;
  members: string[] | null;
  roles: string[] | null;
}

const SELECT_GROUPS = `
  SELECT g.id, g.name, g.description, g.created_at, g.updated_at,
         ARRAY(SELECT m.user_id FROM rbac_group_members m WHERE m.group_id = g.id ORDER BY m.user_id) AS members,
         ARRAY(SELECT r.role_id FROM rbac_group_roles r WHERE r.group_id = g.id ORDER BY r.role_id) AS roles
  FROM rbac_groups g`;

const toGroup = (row: GroupRow): GroupRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  members: [...(row.members ?? [])].sort(),
  roles: [...(row.roles ?? [])].sort(),
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** Groups under `/v2/rbac/groups`. Names are unique case-insensitively. */
export class GroupRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** `conflict` for a taken name, `invalid` when a member is not a user or a role id is unknown. */
  async create(input: GroupInput): Promise<GroupRecord> {
    const id = prefixedId('grp_');
    const now = new Date(this.clock.nowMs()).toISOString();
    return this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO rbac_groups (id, name, description, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING RETURNING id`,
        [id, input.name, input.description ?? '', now],
      );
      if (inserted.length === 0) throw groupExists(input.name);
      await this.setRelations(tx, id, input);
      return (await getGroup(tx, id))!;
    });
  }

  async get(id: string): Promise<GroupRecord | null> {
    return getGroup(this.db, id);
  }

  async list(): Promise<GroupRecord[]> {
    const rows = await this.db.query<GroupRow>(`${SELECT_GROUPS} ORDER BY lower(g.name), g.id`);
    return rows.map(toGroup);
  }

  /** Replaces every field (PUT semantics). */
  async replace(id: string, input: GroupInput): Promise<GroupRecord> {
    return this.db.transaction(async (tx) => {
      let updated: unknown[];
      try {
        updated = await tx.query(
          `UPDATE rbac_groups SET name = $2, description = $3, updated_at = $4 WHERE id = $1 RETURNING id`,
          [id, input.name, input.description ?? '', new Date(this.clock.nowMs()).toISOString()],
        );
      } catch (err) {
        if (sqlStateOf(err) === '23505') throw groupExists(input.name, err);
        throw err;
      }
      if (updated.length === 0) throw groupNotFound(id);
      await this.setRelations(tx, id, input);
      return (await getGroup(tx, id))!;
    });
  }

  async delete(id: string): Promise<void> {
    const rows = await this.db.query('DELETE FROM rbac_groups WHERE id = $1 RETURNING id', [id]);
    if (rows.length === 0) throw groupNotFound(id);
  }

  private async setRelations(tx: SqlDatabase, id: string, input: GroupInput): Promise<void> {
    await setMembers(tx, 'rbac_group_members', 'group_id', id, input.members ?? []);
    await setMembers(tx, 'rbac_group_roles', 'group_id', id, input.roles ?? []);
  }
}

async function getGroup(db: SqlDatabase, id: string): Promise<GroupRecord | null> {
  const rows = await db.query<GroupRow>(`${SELECT_GROUPS} WHERE g.id = $1`, [id]);
  return rows.length > 0 ? toGroup(rows[0]) : null;
}

const groupExists = (name: string, cause?: unknown) =>
  conflict(`group "${name}" already exists`, { code: 'group_exists', cause });
const groupNotFound = (id: string) => notFound(`group "${id}" not found`, { code: 'group_not_found' });
