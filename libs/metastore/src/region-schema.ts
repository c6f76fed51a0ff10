import { MIGRATION_LOCK_KEY } from './migrate';
import type { SqlDatabase } from './sql-database.port';

/**
 * The coordination tables of one cluster: Kafka offsets and log epochs (each region has its own Kafka),
 * leases (partition ownership, the merger) and members. Every other table — organization, tokens,
 * datasets, blocks, resources — is the installation's, shared by all regions.
 */
export const REGION_TABLES = [
  'log_offsets',
  'metric_log_offsets',
  'log_epochs',
  'leases',
  'cluster_members',
  'admission_counters',
] as const;

/**
 * Each region other than the home region keeps its coordination tables in a PostgreSQL schema of its
 * own, found first on its connections' `search_path`; the home region uses the public schema. A
 * migration that changes a table of REGION_TABLES must change the region schemas' copies as well.
 */
export function regionSchemaName(region: string): string {
  if (!/^[a-z0-9][a-z0-9.-]{0,39}$/.test(region)) throw new Error(`invalid region name "${region}"`);
  return `region_${region.replace(/[.-]/g, '_')}`;
}

/**
 * Creates the region's schema and its copies of the coordination tables (empty, with the public
 * tables' columns, defaults, keys and indexes) if missing. Idempotent; safe to run from many nodes.
 */
export async function ensureRegionSchema(db: SqlDatabase, schema: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Migrators take the same lock: a schema is never copied from tables a migration is changing.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    for (const table of REGION_TABLES)
      await tx.exec(`CREATE TABLE IF NOT EXISTS ${schema}.${table} (LIKE public.${table} INCLUDING ALL)`);
    await tx.exec(
      `INSERT INTO ${schema}.log_epochs (log, epoch) VALUES ('events', 0), ('metrics', 0) ON CONFLICT DO NOTHING`,
    );
  });
}
