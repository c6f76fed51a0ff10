import { conflict, newId, notFound, systemClock, type Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf } from './sql-values';

export type UserRole = 'owner' | 'admin' | 'user' | 'read-only' | 'none';

export const USER_ROLES: readonly UserRole[] = ['owner', 'admin', 'user', 'read-only', 'none'];

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  createdAt: string;
}

export interface NewUser {
  /** Generated (UUID) when omitted. */
  id?: string;
  name: string;
  email: string;
  role: UserRole;
}

export interface UserPatch {
  name?: string;
  email?: string;
  role?: UserRole;
}

interface UserRow {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  created_at: unknown;
}

const COLUMNS = 'id, name, email, role, created_at';

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  createdAt: isoOf(row.created_at),
});

/** Users of the org. Emails are unique, compared case-insensitively. */
export class UserRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Creates a user; `conflict` when the id or the email is taken. */
  async create(user: NewUser): Promise<UserRecord> {
    const rows = await this.db.query<UserRow>(
      `INSERT INTO users (id, name, email, role, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [user.id ?? newId(), user.name, user.email, user.role, new Date(this.clock.nowMs()).toISOString()],
    );
    if (rows.length === 0) throw conflict(`user "${user.email}" already exists`, { code: 'user_exists' });
    return toUser(rows[0]);
  }

  async get(id: string): Promise<UserRecord | null> {
    const rows = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return rows.length > 0 ? toUser(rows[0]) : null;
  }

  async getByEmail(email: string): Promise<UserRecord | null> {
    const rows = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [
      email,
    ]);
    return rows.length > 0 ? toUser(rows[0]) : null;
  }

  /** All users, oldest first (ties by id, so the order is stable). */
  async list(): Promise<UserRecord[]> {
    const rows = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, id`);
    return rows.map(toUser);
  }

  /** Updates the given fields; `not_found` for an unknown id, `conflict` for a taken email. */
  async update(id: string, patch: UserPatch): Promise<UserRecord> {
    let rows: UserRow[];
    try {
      rows = await this.db.query<UserRow>(
        `UPDATE users SET name = COALESCE($2, name), email = COALESCE($3, email), role = COALESCE($4, role)
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, patch.name ?? null, patch.email ?? null, patch.role ?? null],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') {
        throw conflict(`user "${patch.email}" already exists`, { code: 'user_exists', cause: err });
      }
      throw err;
    }
    if (rows.length === 0) throw notFound(`user "${id}" not found`, { code: 'user_not_found' });
    return toUser(rows[0]);
  }

  /**
   * Deletes a user and, in the same transaction, their personal access tokens (a PAT acts as its user, so
   * it must not outlive them). API tokens the user created stay. `not_found` for an unknown id.
   */
  async delete(id: string): Promise<UserRecord> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<UserRow>(`DELETE FROM users WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
      if (rows.length === 0) throw notFound(`user "${id}" not found`, { code: 'user_not_found' });
      await tx.query(`DELETE FROM tokens WHERE kind = 'personal' AND user_id = $1`, [id]);
      return toUser(rows[0]);
    });
  }
}
