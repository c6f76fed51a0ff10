import { internal } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { MIGRATIONS, type Migration } from './migrations';

/** Arbitrary constant: the advisory lock key that serializes migrators sharing one PostgreSQL server. */
export const MIGRATION_LOCK_KEY = 7_311_042;

export interface MigrateResult {
  /** Versions applied by this call (empty when the schema was already current). */
  applied: number[];
  /** The schema version after the call. */
  version: number;
}

/**
 * Brings the schema up to date. Idempotent: each migration runs in its own transaction together with its
 * `schema_migrations` row, so a crash leaves the schema at a migration boundary. Several processes may
 * migrate one PostgreSQL server at once: the advisory lock makes them take turns and the version check
 * inside the lock makes the losers skip.
 */
export async function migrate(
  db: SqlDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  checkOrder(migrations);
  await db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version     integer PRIMARY KEY,
      name        text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
  const applied: number[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  const rows = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  const version = Number(rows[0]?.version ?? 0);
  const known = migrations.length > 0 ? migrations[migrations.length - 1].version : 0;
  if (version > known) {
    // A newer release migrated this database; running old code against it could corrupt it.
    throw internal(`metastore schema version ${version} is newer than this release knows (${known})`, {
      code: 'metastore_schema_too_new',
    });
  }
  return { applied, version };
}

function checkOrder(migrations: readonly Migration[]): void {
  for (let i = 0; i < migrations.length; i++) {
    const expected = i === 0 ? migrations[i].version > 0 : migrations[i].version > migrations[i - 1].version;
    if (!expected)
      throw internal(`migration versions must be positive and increasing (at ${migrations[i].name})`);
  }
}
