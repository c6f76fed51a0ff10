import { PgliteDatabase } from './pglite-database.adapter';
import { rbacContract } from './testing/rbac-contract';

jest.setTimeout(60_000);

rbacContract({ name: 'in-memory PGlite', open: () => PgliteDatabase.open(null) });
