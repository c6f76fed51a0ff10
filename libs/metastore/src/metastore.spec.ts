import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isQuarryError, sha256Hex } from '@quarry/common';
import { Metastore } from './metastore';
import { MIGRATIONS } from './migrations';
import { PgliteDatabase } from './pglite-database.adapter';
import { block, metastoreContract, type SqlDatabaseFactory } from './testing/metastore-contract';

// Opening PGlite takes seconds on a cold process (initdb); later opens ~0.5 s.
jest.setTimeout(60_000);

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-metastore-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

// Every backend the metastore runs on. A PostgreSQL server joins with one entry, e.g.
//   process.env.DATABASE_URL && { name: 'postgres', open: () => PostgresDatabase.connect(process.env.DATABASE_URL!) },
const factories: Array<SqlDatabaseFactory | false | undefined> = [
  { name: 'in-memory PGlite', open: () => PgliteDatabase.open(null) },
  { name: 'file-backed PGlite', open: () => PgliteDatabase.open(tmpDir()) },
];
for (const factory of factories) if (factory) metastoreContract(factory);

describe('file-backed PGlite persistence', () => {
  it('keeps everything across close and reopen, and does not migrate twice', async () => {
    const dir = join(tmpDir(), 'nested', 'meta'); // created on open
    const first = await Metastore.open(dir);
    const org = await first.orgs.ensure('acme');
    const user = await first.users.create({ name: 'A', email: 'a@example.com', role: 'owner' });
    const token = await first.tokens.create({
      kind: 'api',
      name: 't',
      secretHash: sha256Hex('xaat-1'),
      userId: user.id,
      datasetCapabilities: { '*': { ingest: ['create'] } },
    });
    const dataset = await first.datasets.create({ name: 'logs', mapFields: ['m'] });
    await first.datasets.mergeFields(dataset.id, [{ name: 'a', type: 'integer' }]);
    const blocks = [block(dataset.id, 0, 9), block(dataset.id, 10, 19)];
    await first.blocks.registerBlocks(blocks, { partition: 0, offset: 20 });
    await first.close();
    await first.close(); // idempotent

    const second = await Metastore.open(dir);
    try {
      expect(await second.orgs.get()).toEqual(org);
      expect(await second.users.list()).toEqual([user]);
      expect(await second.tokens.findByHash(sha256Hex('xaat-1'))).toEqual(token);
      expect(await second.datasets.getByName('logs')).toEqual(dataset);
      expect(await second.datasets.listFields(dataset.id)).toMatchObject([{ name: 'a', type: 'integer' }]);
      expect(await second.blocks.listBlocks(dataset.id)).toEqual(blocks);
      expect(await second.blocks.committedOffset(0)).toBe(20);
      expect(await second.db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version })),
      );
    } finally {
      await second.close();
    }
  });
});

describe('PgliteDatabase', () => {
  it('fails to open with an unavailable QuarryError', async () => {
    const file = join(tmpDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    const err = await Metastore.open(join(file, 'meta')).catch((e: unknown) => e);
    expect(isQuarryError(err) && err.kind === 'unavailable' && err.code === 'metastore_open_failed').toBe(
      true,
    );
  });

  it('reports SQL errors with their SQLSTATE and rejects use after close', async () => {
    const db = await PgliteDatabase.open(null);
    await expect(db.query('SELECT * FROM nope')).rejects.toMatchObject({ name: 'SqlError', code: '42P01' });
    // A statement error inside a transaction that the callback swallows still fails the commit.
    await db.exec('CREATE TABLE t (id int PRIMARY KEY)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1)');
        await tx.query('INSERT INTO t VALUES (1)').catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 0 }]);
    await db.close();
    await expect(db.query('SELECT 1')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
