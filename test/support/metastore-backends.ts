import { createPgSchema } from './pg-schema';
import { startTestServer, type TestServer } from './test-server';

/**
 * The metastores a server-level suite runs on: embedded PGlite always, and a PostgreSQL server when
 * `QUARRY_TEST_PG_URL` is set (.ci/run provisions one; metastore-pg.test.ts fails CI runs without it).
 * A suite runs once per backend with `describe.each(metastoreBackends())('… on $name', (backend) => …)`
 * and starts its server with `backend.startServer()`.
 */
export interface MetastoreBackend {
  name: 'PGlite' | 'PostgreSQL';
  /**
   * Starts a server on a fresh, empty metastore: a new data directory, and on PostgreSQL a schema of its
   * own that `close()` drops again.
   */
  startServer(env?: Record<string, string>): Promise<TestServer>;
}

const pglite: MetastoreBackend = { name: 'PGlite', startServer: (env = {}) => startTestServer(env) };

/** Schema names must differ between servers started in the same millisecond of one process. */
let schemas = 0;

function postgres(serverUrl: string): MetastoreBackend {
  return {
    name: 'PostgreSQL',
    async startServer(env = {}) {
      const schema = await createPgSchema(serverUrl, `quarry_e2e_${++schemas}`);
      let server: TestServer;
      try {
        server = await startTestServer({ ...env, QUARRY_METASTORE_URL: schema.metastoreUrl });
      } catch (err) {
        await schema.drop();
        throw err;
      }
      return {
        ...server,
        async close() {
          await server.close();
          await schema.drop();
        },
      };
    },
  };
}

export function metastoreBackends(): MetastoreBackend[] {
  const url = process.env.QUARRY_TEST_PG_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}
