import { PgDatabase } from '@quarry/metastore';

/**
 * A throw-away schema on the PostgreSQL server of `QUARRY_TEST_PG_URL` (provisioned by .ci/run), so a
 * suite can run the server with its metastore there (`QUARRY_METASTORE_URL`) without touching other
 * suites' tables. `metastoreUrl` pins the schema through the connection's search_path.
 */
export interface PgSchema {
  metastoreUrl: string;
  drop(): Promise<void>;
}

export async function createPgSchema(serverUrl: string, prefix: string): Promise<PgSchema> {
  const schema = `${prefix}_${process.pid}_${Date.now()}`;
  const options = encodeURIComponent(`-c search_path=${schema}`);
  const metastoreUrl = `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}options=${options}`;
  const admin = await PgDatabase.connect(serverUrl);
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  return {
    metastoreUrl,
    async drop() {
      const db = await PgDatabase.connect(serverUrl);
      await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
    },
  };
}
