import { newId, systemClock, type Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf } from './sql-values';

/** The one organization of this installation. */
export interface OrgRecord {
  id: string;
  name: string;
  createdAt: string;
}

interface OrgRow {
  id: string;
  name: string;
  created_at: unknown;
}

const toOrg = (row: OrgRow): OrgRecord => ({ id: row.id, name: row.name, createdAt: isoOf(row.created_at) });

export class OrgRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The org, or null before the first `ensure`. */
  async get(): Promise<OrgRecord | null> {
    const rows = await this.db.query<OrgRow>('SELECT id, name, created_at FROM orgs');
    return rows.length > 0 ? toOrg(rows[0]) : null;
  }

  /**
   * Returns the org, creating it with `name` on first start. An existing org keeps its name (the name is
   * only a default for a fresh installation). Safe under concurrent starts: the singleton constraint lets
   * exactly one insert win.
   */
  async ensure(name: string, id: string = newId()): Promise<OrgRecord> {
    await this.db.query(
      'INSERT INTO orgs (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (singleton) DO NOTHING',
      [id, name, new Date(this.clock.nowMs()).toISOString()],
    );
    return (await this.get())!;
  }

  /** Renames the org; null when there is no org yet. */
  async rename(name: string): Promise<OrgRecord | null> {
    const rows = await this.db.query<OrgRow>('UPDATE orgs SET name = $1 RETURNING id, name, created_at', [
      name,
    ]);
    return rows.length > 0 ? toOrg(rows[0]) : null;
  }
}
