import type { SqlDatabase } from './sql-database.port';
import { numberOf } from './sql-values';

/**
 * What the processes of a cluster share besides the catalog rows: version counters that tell a node
 * its in-memory copy is stale, and leases for work one node at a time may do.
 */
export class ClusterRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** Moves with every insert, update or delete of a dataset row (trigger `datasets_epoch`). */
  async datasetsEpoch(): Promise<number> {
    const rows = await this.db.query<{ version: unknown }>(
      "SELECT version FROM catalog_epochs WHERE name = 'datasets'",
    );
    return rows.length > 0 ? numberOf(rows[0].version) : 0;
  }

  /**
   * Takes or renews the lease `name` for `holder` for `ttlMs`: true when `holder` holds it afterwards.
   * A lease held by someone else is taken only once it expired, so two nodes never hold it at once as
   * long as each stops the leased work before its own lease runs out (renew well within the TTL).
   */
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query<{ holder: string }>(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE leases.holder = EXCLUDED.holder OR leases.expires_at < now()
       RETURNING holder`,
      [name, holder, ttlMs],
    );
    return rows.length === 1 && rows[0].holder === holder;
  }

  /** Gives the lease up early (a clean shutdown), if `holder` has it. */
  async releaseLease(name: string, holder: string): Promise<void> {
    await this.db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  /** Who holds `name` now, if anyone (for /v1/cluster and tests). */
  async leaseHolder(name: string): Promise<string | null> {
    const rows = await this.db.query<{ holder: string }>(
      'SELECT holder FROM leases WHERE name = $1 AND expires_at >= now()',
      [name],
    );
    return rows.length > 0 ? rows[0].holder : null;
  }
}
