import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PgDatabase } from '@quarry/metastore';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * The server in cluster shape: metastore on a PostgreSQL server (`QUARRY_METASTORE_URL`), provisioned by
 * .ci/run as `QUARRY_TEST_PG_URL`. Mandatory under CI, so the pg path cannot pass by not running.
 */
const url = process.env.QUARRY_TEST_PG_URL;
const inCi = process.env.CI === 'true' || process.env.CI === '1';

if (!url) {
  if (inCi) {
    it('has a PostgreSQL server to run against (QUARRY_TEST_PG_URL)', () => {
      throw new Error('CI=true but QUARRY_TEST_PG_URL is not set: .ci/run must provision PostgreSQL');
    });
  } else {
    console.warn(
      'metastore-pg.test: QUARRY_TEST_PG_URL is not set; the server-on-PostgreSQL suite did not run',
    );
    it('reports that the server-on-PostgreSQL suite needs QUARRY_TEST_PG_URL', () => {
      expect(url).toBeUndefined();
    });
  }
} else {
  describe('server with its metastore on PostgreSQL', () => {
    const schema = `quarry_e2e_${process.pid}_${Date.now()}`;
    const metastoreUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-e2e-pg-'));
    let server: TestServer | undefined;

    beforeAll(async () => {
      const admin = await PgDatabase.connect(url);
      await admin.exec(`CREATE SCHEMA ${schema}`);
      await admin.close();
    });
    afterAll(async () => {
      await server?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const admin = await PgDatabase.connect(url);
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.close();
    });

    it('stores identity, datasets, RBAC and blocks in PostgreSQL and keeps them across a restart', async () => {
      server = await startTestServer({ QUARRY_METASTORE_URL: metastoreUrl }, dataDir);
      expect((await server.request('POST', '/v2/datasets', { body: { name: 'pg-logs' } })).status).toBe(200);
      const ingest = await server.request('POST', '/v1/datasets/pg-logs/ingest', {
        body: [{ msg: 'a' }, { msg: 'b' }],
      });
      expect(ingest.status).toBe(200);
      await server.quarry.storage.compactor!.flush();
      const role = await (
        await server.request('POST', '/v2/rbac/roles', {
          body: { name: 'pg-readers', orgCapabilities: { datasets: ['read'] } },
        })
      ).json();

      // The rows are in the PostgreSQL schema, not in an embedded database.
      const check = await PgDatabase.connect(metastoreUrl);
      const datasets = await check.query<{ name: string }>('SELECT name FROM datasets');
      expect(datasets.map((d) => d.name)).toEqual(['pg-logs']);
      const blocks = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM blocks');
      expect(blocks[0].n).toBeGreaterThan(0);
      await check.close();
      expect(fs.existsSync(path.join(dataDir, 'meta'))).toBe(false);

      await server.close();
      server = await startTestServer({ QUARRY_METASTORE_URL: metastoreUrl }, dataDir);
      expect((await (await server.request('GET', `/v2/rbac/roles/${role.id}`)).json()).name).toBe(
        'pg-readers',
      );
      const query = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
        body: { apl: "['pg-logs'] | count" },
      });
      expect(query.status).toBe(200);
      expect(rowsOf((await query.json()).tables[0])).toEqual([{ count: 2 }]);
    });
  });
}
