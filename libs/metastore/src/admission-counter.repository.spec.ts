import { PgDatabase } from './pg-database.adapter';
import { PgliteDatabase } from './pglite-database.adapter';
import { admissionCounterContract } from './testing/admission-counter-contract';

// Opening PGlite takes seconds on a cold process (initdb).
jest.setTimeout(60_000);

admissionCounterContract({ name: 'in-memory PGlite', open: () => PgliteDatabase.open(null) });

// A real PostgreSQL server when one is provisioned (.ci/run sets QUARRY_TEST_PG_URL; pg-database.spec.ts
// fails CI runs without it). Each run gets its own schema.
const url = process.env.QUARRY_TEST_PG_URL;
if (url) {
  admissionCounterContract({
    name: 'PostgreSQL',
    async open() {
      const schema = `quarry_admission_${process.pid}_${Date.now()}`;
      const admin = await PgDatabase.connect(url);
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await admin.close();
      return PgDatabase.connect(url, { options: `-c search_path=${schema}` });
    },
  });
}
