/**
 * The behaviour every `SqlDatabase` backing the metastore must show, written once and run against each
 * backend (in-memory PGlite, file-backed PGlite, later a PostgreSQL server). Not part of the build: it
 * uses jest globals.
 */
import { isQuarryError, sha256Hex, type Clock } from '@quarry/common';
import { blockIdFor, type BlockRecord } from '@quarry/contracts';
import { Metastore } from '../metastore';
import { migrate } from '../migrate';
import { MIGRATIONS } from '../migrations';
import type { SqlDatabase } from '../sql-database.port';
import { unionType } from '../dataset.repository';

export interface SqlDatabaseFactory {
  name: string;
  /** A database the suite may own: it is migrated, truncated between tests and closed at the end. */
  open(): Promise<SqlDatabase>;
}

/** A clock the tests move by hand. */
export class ManualClock implements Clock {
  constructor(public ms = Date.UTC(2024, 4, 1, 12)) {}
  nowMs(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

const ALL_TABLES = 'orgs, users, tokens, datasets, dataset_fields, blocks, log_offsets';

/** Resolves to the QuarryError `promise` rejects with (fails the test when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ kind: string; code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isQuarryError(err)) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

export function block(
  datasetId: string,
  firstOffset: number,
  lastOffset: number,
  over: Partial<BlockRecord> = {},
) {
  const id = blockIdFor(datasetId, 0, firstOffset, lastOffset);
  const record: BlockRecord = {
    id,
    datasetId,
    objectKey: `blocks/${id}.qb`,
    rowCount: lastOffset - firstOffset + 1,
    sizeBytes: 4096,
    minTime: Date.UTC(2024, 4, 1) + firstOffset * 1000 + 0.123,
    maxTime: Date.UTC(2024, 4, 1) + lastOffset * 1000 + 0.456,
    partition: 0,
    firstOffset,
    lastOffset,
    createdAt: '2024-05-01T12:00:00.000Z',
    ...over,
  };
  return record;
}

export function metastoreContract(factory: SqlDatabaseFactory): void {
  describe(`metastore on ${factory.name}`, () => {
    let db: SqlDatabase;
    let store: Metastore;
    const clock = new ManualClock();

    beforeAll(async () => {
      db = await factory.open();
      store = await Metastore.over(db, { clock });
    });

    afterAll(async () => {
      await store?.close();
    });

    beforeEach(async () => {
      // One database per suite (opening one costs ~0.4 s); tests start from empty tables instead.
      // CASCADE: tables of later migrations (RBAC memberships, ...) reference users and datasets.
      await db.exec(`TRUNCATE ${ALL_TABLES} CASCADE`);
      clock.ms = Date.UTC(2024, 4, 1, 12);
    });

    describe('migrations and transactions', () => {
      it('migrate is idempotent', async () => {
        const again = await migrate(db);
        expect(again).toEqual({ applied: [], version: MIGRATIONS[MIGRATIONS.length - 1]!.version });
        const rows = await db.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        );
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      });

      it('refuses a schema newer than the release', async () => {
        const err = await rejection(migrate(db, []));
        expect(err.code).toBe('metastore_schema_too_new');
      });

      it('rolls back a failed transaction and a failed savepoint only', async () => {
        await expect(
          db.transaction(async (tx) => {
            await tx.query(`INSERT INTO log_offsets (partition, committed_offset) VALUES (1, 5)`);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.blocks.committedOffset(1)).toBe(0);

        await db.transaction(async (tx) => {
          await tx.query(`INSERT INTO log_offsets (partition, committed_offset) VALUES (1, 5)`);
          await expect(
            tx.transaction(async (inner) => {
              await inner.query(`UPDATE log_offsets SET committed_offset = 9 WHERE partition = 1`);
              throw new Error('inner');
            }),
          ).rejects.toThrow('inner');
        });
        expect(await store.blocks.committedOffset(1)).toBe(5);
      });

      it('binds every repository of Metastore.transaction to one transaction', async () => {
        await expect(
          store.transaction(async (tx) => {
            const dataset = await tx.datasets.create({ name: 'in-tx' });
            await tx.blocks.registerBlocks([block(dataset.id, 0, 9)], { partition: 0, offset: 10 });
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.datasets.getByName('in-tx')).toBeNull();
        expect(await store.blocks.committedOffset(0)).toBe(0);

        const committed = await store.transaction(async (tx) => {
          const dataset = await tx.datasets.create({ name: 'in-tx' });
          await tx.blocks.registerBlocks([block(dataset.id, 0, 9)], { partition: 0, offset: 10 });
          return dataset;
        });
        expect(await store.datasets.getByName('in-tx')).toEqual(committed);
        expect(await store.blocks.listBlocks(committed.id)).toHaveLength(1);
      });

      it('serializes concurrent transactions', async () => {
        await store.blocks.commitOffset({ partition: 0, offset: 0 });
        // Read-modify-write in each transaction: without isolation/serialization increments would be lost.
        await Promise.all(
          Array.from({ length: 5 }, () =>
            db.transaction(async (tx) => {
              const [row] = await tx.query<{ o: number }>(
                'SELECT committed_offset AS o FROM log_offsets WHERE partition = 0 FOR UPDATE',
              );
              await tx.query('UPDATE log_offsets SET committed_offset = $1 WHERE partition = 0', [
                Number(row.o) + 1,
              ]);
            }),
          ),
        );
        expect(await store.blocks.committedOffset(0)).toBe(5);
      });
    });

    describe('OrgRepository', () => {
      it('creates the org once and keeps its name on later ensures', async () => {
        expect(await store.orgs.get()).toBeNull();
        const org = await store.orgs.ensure('acme');
        expect(org).toEqual({ id: expect.any(String), name: 'acme', createdAt: '2024-05-01T12:00:00.000Z' });
        expect(await store.orgs.ensure('other')).toEqual(org);
        expect(await store.orgs.rename('acme2')).toEqual({ ...org, name: 'acme2' });
        expect(await store.orgs.get()).toEqual({ ...org, name: 'acme2' });
      });

      it('rejects a second org row', async () => {
        await store.orgs.ensure('a');
        await expect(
          db.query(`INSERT INTO orgs (id, name, created_at) VALUES ('x', 'b', now())`),
        ).rejects.toBeDefined();
      });
    });

    describe('UserRepository', () => {
      it('creates, reads, lists, updates and deletes users', async () => {
        const alice = await store.users.create({ name: 'Alice', email: 'alice@example.com', role: 'owner' });
        expect(alice).toEqual({
          id: expect.any(String),
          name: 'Alice',
          email: 'alice@example.com',
          role: 'owner',
          createdAt: '2024-05-01T12:00:00.000Z',
        });
        clock.advance(1000);
        const bob = await store.users.create({
          id: 'u-bob',
          name: 'Bob',
          email: 'bob@example.com',
          role: 'user',
        });
        expect(bob.id).toBe('u-bob');
        expect(await store.users.get(alice.id)).toEqual(alice);
        expect(await store.users.getByEmail('ALICE@example.com')).toEqual(alice);
        expect(await store.users.get('nope')).toBeNull();
        expect(await store.users.list()).toEqual([alice, bob]);

        const updated = await store.users.update('u-bob', { role: 'admin', name: 'Robert' });
        expect(updated).toEqual({ ...bob, role: 'admin', name: 'Robert' });
        expect(await store.users.get('u-bob')).toEqual(updated);

        expect(await store.users.delete('u-bob')).toEqual(updated);
        expect(await store.users.list()).toEqual([alice]);
      });

      it('reports conflicts and unknown users as QuarryErrors', async () => {
        await store.users.create({ name: 'A', email: 'a@example.com', role: 'user' });
        const dup = await rejection(store.users.create({ name: 'B', email: 'A@Example.com', role: 'user' }));
        expect(dup.kind).toBe('conflict');
        const b = await store.users.create({ name: 'B', email: 'b@example.com', role: 'user' });
        expect((await rejection(store.users.update(b.id, { email: 'a@example.com' }))).kind).toBe('conflict');
        expect((await rejection(store.users.update('nope', { name: 'x' }))).kind).toBe('not_found');
        expect((await rejection(store.users.delete('nope'))).kind).toBe('not_found');
      });

      it('deletes a user together with their personal tokens, not their API tokens', async () => {
        const u = await store.users.create({ name: 'A', email: 'a@example.com', role: 'admin' });
        await store.tokens.create({
          kind: 'personal',
          name: 'pat',
          secretHash: sha256Hex('p'),
          userId: u.id,
        });
        const api = await store.tokens.create({
          kind: 'api',
          name: 'api',
          secretHash: sha256Hex('a'),
          userId: u.id,
        });
        await store.users.delete(u.id);
        expect(await store.tokens.list()).toEqual([api]);
      });
    });

    describe('TokenRepository', () => {
      const caps = {
        orgCapabilities: { datasets: ['create', 'read'], apiTokens: ['read'] },
        datasetCapabilities: { '*': { ingest: ['create'], query: ['read'] }, logs: { trim: ['update'] } },
        viewCapabilities: { v1: { query: ['read'] } },
      };

      it('stores tokens by hash and finds them by hash', async () => {
        const secret = 'xaat-8b4d2f0a-1c9e-4d7b-b3a5-6f2e8c1d9a70';
        const token = await store.tokens.create({
          kind: 'api',
          name: 'ingest',
          description: 'for the agent',
          secretHash: sha256Hex(secret),
          userId: 'u1',
          ...caps,
          expiresAt: '2025-01-01T00:00:00Z',
        });
        expect(token).toEqual({
          id: expect.any(String),
          kind: 'api',
          name: 'ingest',
          description: 'for the agent',
          secretHash: sha256Hex(secret),
          userId: 'u1',
          ...caps,
          expiresAt: '2025-01-01T00:00:00.000Z',
          createdAt: '2024-05-01T12:00:00.000Z',
          updatedAt: '2024-05-01T12:00:00.000Z',
        });
        expect(await store.tokens.findByHash(sha256Hex(secret))).toEqual(token);
        expect(await store.tokens.findByHash(sha256Hex('other'))).toBeNull();
        expect(await store.tokens.get(token.id)).toEqual(token);
        expect(await store.tokens.get('nope')).toBeNull();
        // The plaintext is nowhere in the table.
        const dump = JSON.stringify(await db.query('SELECT * FROM tokens'));
        expect(dump).not.toContain(secret);
      });

      it('defaults optional fields and rejects plaintext secrets and duplicate hashes', async () => {
        const t = await store.tokens.create({
          kind: 'personal',
          name: 'pat',
          secretHash: sha256Hex('s'),
          userId: 'u',
        });
        expect(t).toMatchObject({
          description: '',
          userId: 'u',
          orgCapabilities: {},
          datasetCapabilities: {},
          viewCapabilities: {},
          expiresAt: null,
        });
        const plain = await rejection(
          store.tokens.create({ kind: 'api', name: 'x', secretHash: 'xaat-secret', userId: 'u' }),
        );
        expect(plain).toMatchObject({ kind: 'invalid', code: 'token_hash_invalid' });
        const dup = await rejection(
          store.tokens.create({ kind: 'api', name: 'x', secretHash: sha256Hex('s'), userId: 'u' }),
        );
        expect(dup.kind).toBe('conflict');
      });

      it('lists by kind and owner, oldest first', async () => {
        const a = await store.tokens.create({
          kind: 'api',
          name: 'a',
          secretHash: sha256Hex('a'),
          userId: 'v',
        });
        clock.advance(1);
        const p = await store.tokens.create({
          kind: 'personal',
          name: 'p',
          secretHash: sha256Hex('p'),
          userId: 'u',
        });
        clock.advance(1);
        const b = await store.tokens.create({
          kind: 'api',
          name: 'b',
          secretHash: sha256Hex('b'),
          userId: 'v',
        });
        expect(await store.tokens.list()).toEqual([a, p, b]);
        expect(await store.tokens.list('api')).toEqual([a, b]);
        expect(await store.tokens.list('personal')).toEqual([p]);
        expect(await store.tokens.list(undefined, { userId: 'u' })).toEqual([p]);
      });

      it('updates fields, sets and clears the expiry, and deletes', async () => {
        const t = await store.tokens.create({
          kind: 'api',
          name: 'a',
          secretHash: sha256Hex('a'),
          userId: 'u',
          ...caps,
        });
        clock.advance(60_000);
        const expiring = await store.tokens.update(t.id, { expiresAt: '2024-05-01T13:00:00+01:00' });
        expect(expiring).toEqual({
          ...t,
          expiresAt: '2024-05-01T12:00:00.000Z',
          updatedAt: '2024-05-01T12:01:00.000Z',
        });
        const renamed = await store.tokens.update(t.id, {
          name: 'b',
          datasetCapabilities: { logs: { query: ['read'] } },
        });
        expect(renamed).toMatchObject({
          name: 'b',
          datasetCapabilities: { logs: { query: ['read'] } },
          orgCapabilities: caps.orgCapabilities,
          expiresAt: '2024-05-01T12:00:00.000Z',
        });
        expect((await store.tokens.update(t.id, { expiresAt: null })).expiresAt).toBeNull();
        expect((await rejection(store.tokens.update(t.id, { expiresAt: 'soon' }))).kind).toBe('invalid');
        expect(await store.tokens.delete(t.id)).toMatchObject({ id: t.id });
        expect(await store.tokens.get(t.id)).toBeNull();
        expect((await rejection(store.tokens.delete(t.id))).kind).toBe('not_found');
        expect((await rejection(store.tokens.update(t.id, { name: 'x' }))).kind).toBe('not_found');
      });
    });

    describe('DatasetRepository', () => {
      it('creates with defaults and renders the same record on create, get and list', async () => {
        const created = await store.datasets.create({ name: 'logs', who: 'u1' });
        expect(created).toEqual({
          id: expect.any(String),
          name: 'logs',
          description: '',
          kind: 'axiom:events:v1',
          who: 'u1',
          createdAt: '2024-05-01T12:00:00.000Z',
          updatedAt: '2024-05-01T12:00:00.000Z',
          retentionDays: 0,
          useRetentionPeriod: false,
          mapFields: [],
          region: '',
        });
        expect(await store.datasets.getByName('logs')).toEqual(created);
        expect(await store.datasets.getById(created.id)).toEqual(created);
        expect(await store.datasets.list()).toEqual([created]);
        expect(await store.datasets.getByName('nope')).toBeNull();
        expect(await store.datasets.getById('nope')).toBeNull();
      });

      it('keeps the region a dataset was created in', async () => {
        const created = await store.datasets.create({ name: 'eu-logs', region: 'eu' });
        expect(created.region).toBe('eu');
        expect((await store.datasets.getByName('eu-logs'))?.region).toBe('eu');
      });

      it('rejects a duplicate name with a conflict', async () => {
        await store.datasets.create({ name: 'logs' });
        const err = await rejection(store.datasets.create({ name: 'logs' }));
        expect(err).toMatchObject({ kind: 'conflict', message: 'dataset "logs" already exists' });
      });

      it('gives a re-created dataset a new id', async () => {
        const first = await store.datasets.create({ name: 'logs' });
        expect(await store.datasets.delete(first.id)).toEqual(first);
        expect(await store.datasets.getByName('logs')).toBeNull();
        const second = await store.datasets.create({ name: 'logs' });
        expect(second.id).not.toBe(first.id);
        expect(await store.datasets.getById(first.id)).toBeNull();
        expect((await rejection(store.datasets.delete(first.id))).kind).toBe('not_found');
        expect(await store.datasets.getByName('logs')).toEqual(second); // the namesake survives
      });

      it('lists sorted by name', async () => {
        for (const name of ['b', 'a.x', 'A', 'c-1', 'a']) await store.datasets.create({ name });
        expect((await store.datasets.list()).map((d) => d.name)).toEqual(['A', 'a', 'a.x', 'b', 'c-1']);
      });

      it('updates description, retention and map fields', async () => {
        const d = await store.datasets.create({
          name: 'logs',
          description: 'd',
          kind: 'otel:logs:v1',
          retentionDays: 7,
          useRetentionPeriod: true,
          mapFields: ['attrs'],
        });
        expect(d).toMatchObject({
          kind: 'otel:logs:v1',
          retentionDays: 7,
          useRetentionPeriod: true,
          mapFields: ['attrs'],
        });
        clock.advance(5000);
        const u = await store.datasets.update(d.id, { description: 'new', retentionDays: 30 });
        expect(u).toEqual({
          ...d,
          description: 'new',
          retentionDays: 30,
          updatedAt: '2024-05-01T12:00:05.000Z',
        });
        const m = await store.datasets.update(d.id, { mapFields: [], useRetentionPeriod: false });
        expect(m).toMatchObject({ mapFields: [], useRetentionPeriod: false, description: 'new' });
        expect(await store.datasets.getByName('logs')).toEqual(m);
        expect((await rejection(store.datasets.update('nope', { description: 'x' }))).kind).toBe('not_found');
      });

      it('merges field types into sorted unions', async () => {
        const d = await store.datasets.create({ name: 'logs' });
        await store.datasets.mergeFields(d.id, [
          { name: 'status', type: 'integer' },
          { name: 'msg', type: 'string' },
          { name: 'status', type: 'string' }, // duplicate name in one call
        ]);
        await store.datasets.mergeFields(d.id, [
          { name: 'status', type: 'integer' }, // already covered: no change
          { name: 'msg', type: 'float' },
          { name: '_time', type: 'datetime' },
        ]);
        await store.datasets.mergeFields(d.id, [{ name: 'msg', type: 'boolean|string' }]);
        await store.datasets.mergeFields(d.id, []);
        expect(await store.datasets.listFields(d.id)).toEqual([
          { name: '_time', type: 'datetime', unit: '', description: '', hidden: false },
          { name: 'msg', type: 'boolean|float|string', unit: '', description: '', hidden: false },
          { name: 'status', type: 'integer|string', unit: '', description: '', hidden: false },
        ]);
      });

      it('keeps field metadata across merges and drops fields with the dataset', async () => {
        const d = await store.datasets.create({ name: 'logs' });
        await store.datasets.mergeFields(d.id, [{ name: 'dur', type: 'float' }]);
        const f = await store.datasets.updateField(d.id, 'dur', { unit: 'ms', hidden: true });
        expect(f).toEqual({ name: 'dur', type: 'float', unit: 'ms', description: '', hidden: true });
        await store.datasets.mergeFields(d.id, [{ name: 'dur', type: 'integer' }]);
        expect(await store.datasets.listFields(d.id)).toEqual([{ ...f, type: 'float|integer' }]);
        expect((await rejection(store.datasets.updateField(d.id, 'nope', { unit: 's' }))).kind).toBe(
          'not_found',
        );

        await store.datasets.delete(d.id);
        expect(await store.datasets.listFields(d.id)).toEqual([]);
        // A late merge for the deleted incarnation is ignored.
        await store.datasets.mergeFields(d.id, [{ name: 'x', type: 'string' }]);
        expect(await store.datasets.listFields(d.id)).toEqual([]);
      });

      it('unionType sorts, dedupes and ignores empty parts', () => {
        expect(unionType('string', 'integer')).toBe('integer|string');
        expect(unionType('integer|string', 'string', '')).toBe('integer|string');
        expect(unionType('float')).toBe('float');
      });
    });

    describe('BlockRepository', () => {
      it('starts at offset 0', async () => {
        expect(await store.blocks.committedOffset(0)).toBe(0);
        expect(await store.blocks.listBlocks('d1')).toEqual([]);
      });

      it('registers blocks with the offset, and a replay is a no-op', async () => {
        const blocks = [block('d1', 10, 19), block('d1', 0, 9), block('d2', 0, 19)];
        expect(await store.blocks.registerBlocks(blocks, { partition: 0, offset: 20 })).toEqual({
          inserted: 3,
          committedOffset: 20,
        });
        expect(await store.blocks.listBlocks('d1')).toEqual([blocks[1], blocks[0]]);
        expect(await store.blocks.getBlock(blocks[2].id)).toEqual(blocks[2]);
        expect(await store.blocks.committedOffset(0)).toBe(20);

        // Replay of the same range (e.g. crash after the transaction, before the log consumer noticed).
        expect(await store.blocks.registerBlocks(blocks, { partition: 0, offset: 20 })).toEqual({
          inserted: 0,
          committedOffset: 20,
        });
        // A late, older commit never moves the offset backwards.
        expect(await store.blocks.registerBlocks([blocks[1]], { partition: 0, offset: 10 })).toEqual({
          inserted: 0,
          committedOffset: 20,
        });
        expect(await store.blocks.listBlocks('d1')).toHaveLength(2);
        expect(await store.blocks.committedOffset(1)).toBe(0);
      });

      it('keeps sub-millisecond times and large offsets exactly', async () => {
        const b = block('d1', 2 ** 40, 2 ** 40 + 5, {
          minTime: 1714521600000.001,
          maxTime: 1714521600999.999,
        });
        await store.blocks.registerBlocks([b], { partition: 0, offset: 2 ** 40 + 6 });
        expect(await store.blocks.listBlocks('d1')).toEqual([b]);
        expect(await store.blocks.committedOffset(0)).toBe(2 ** 40 + 6);
      });

      it('commits nothing when a block row is rejected', async () => {
        const bad = block('d1', 10, 19, { objectKey: null as unknown as string });
        await expect(
          store.blocks.registerBlocks([block('d1', 0, 9), bad], { partition: 0, offset: 20 }),
        ).rejects.toBeDefined();
        expect(await store.blocks.committedOffset(0)).toBe(0);
        expect(await store.blocks.listBlocks('d1')).toEqual([]);
      });

      it('validates the commit', async () => {
        expect((await rejection(store.blocks.registerBlocks([], { partition: 0, offset: -1 }))).kind).toBe(
          'invalid',
        );
        const other = block('d1', 0, 9, { partition: 3 });
        const err = await rejection(store.blocks.registerBlocks([other], { partition: 0, offset: 10 }));
        expect(err.code).toBe('block_partition_mismatch');
        expect(await store.blocks.commitOffset({ partition: 2, offset: 7 })).toBe(7);
        expect(await store.blocks.commitOffset({ partition: 2, offset: 3 })).toBe(7);
      });

      it('filters blocks by time range', async () => {
        const b0 = block('d1', 0, 9); // t0 + [0.123 ms, 9000.456 ms]
        const b1 = block('d1', 10, 19); // t0 + [10000.123 ms, 19000.456 ms]
        await store.blocks.registerBlocks([b0, b1], { partition: 0, offset: 20 });
        const t0 = Date.UTC(2024, 4, 1);
        expect(await store.blocks.listBlocks('d1', { startMs: t0, endMs: t0 + 5000 })).toEqual([b0]);
        expect(
          await store.blocks.listBlocks('d1', { startMs: t0 + 9000.456, endMs: t0 + 10000.123 }),
        ).toEqual([b0]);
        expect(
          await store.blocks.listBlocks('d1', { startMs: t0 + 9000.457, endMs: t0 + 10000.124 }),
        ).toEqual([b1]);
        expect(await store.blocks.listBlocks('d1', { startMs: t0, endMs: t0 + 60_000 })).toEqual([b0, b1]);
        expect(await store.blocks.listBlocks('d1', { startMs: t0 + 60_000, endMs: t0 + 70_000 })).toEqual([]);
      });

      it('swaps merged blocks atomically', async () => {
        const small = [block('d1', 0, 4), block('d1', 5, 9)];
        await store.blocks.registerBlocks(small, { partition: 0, offset: 10 });
        const merged = block('d1', 0, 9, { id: 'd1.merged.1' });
        expect(
          await store.blocks.swapBlocks(
            small.map((b) => b.id),
            [merged],
          ),
        ).toEqual(small);
        expect(await store.blocks.listBlocks('d1')).toEqual([merged]);
      });

      it('deletes the blocks of one dataset and returns them', async () => {
        const blocks = [block('d1', 10, 19), block('d1', 0, 9), block('d2', 0, 19)];
        await store.blocks.registerBlocks(blocks, { partition: 0, offset: 20 });
        expect(await store.blocks.deleteBlocksOfDataset('d1')).toEqual([blocks[1], blocks[0]]);
        expect(await store.blocks.listBlocks('d1')).toEqual([]);
        expect(await store.blocks.listBlocks('d2')).toEqual([blocks[2]]);
        expect(await store.blocks.deleteBlocksOfDataset('d1')).toEqual([]);
        expect(await store.blocks.committedOffset(0)).toBe(20);
      });
    });
  });
}
