/**
 * The document resources of the management API (table `resources`), run against every `SqlDatabase`
 * backend like the metastore contract. Not part of the build: it uses jest globals.
 */
import { Metastore } from '../metastore';
import { ManualClock, rejection, type SqlDatabaseFactory } from './metastore-contract';

export function resourceContract(factory: SqlDatabaseFactory): void {
  describe(`resource repository on ${factory.name}`, () => {
    let store: Metastore;
    const clock = new ManualClock();

    beforeAll(async () => {
      store = await Metastore.over(await factory.open(), { clock });
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      await store.db.exec('TRUNCATE resources');
      clock.ms = Date.UTC(2024, 4, 1, 12);
    });

    const at = (ms: number) => new Date(ms).toISOString();

    it('creates, reads, replaces (version + 1) and deletes a document', async () => {
      const created = await store.resources.create(
        'dashboard',
        'd1',
        { naturalKey: 'ops', owner: 'u1', document: { name: 'Ops', charts: [{ id: 'c1' }] } },
        'alice',
      );
      expect(created).toEqual({
        kind: 'dashboard',
        id: 'd1',
        naturalKey: 'ops',
        datasets: [],
        owner: 'u1',
        startTime: null,
        endTime: null,
        document: { name: 'Ops', charts: [{ id: 'c1' }] },
        version: 1,
        createdBy: 'alice',
        updatedBy: 'alice',
        createdAt: at(clock.ms),
        updatedAt: at(clock.ms),
      });
      expect(await store.resources.get('dashboard', 'd1')).toEqual(created);
      expect(await store.resources.getByNaturalKey('dashboard', 'ops')).toEqual(created);
      expect(await store.resources.get('view', 'd1')).toBeNull();
      expect(await store.resources.getByNaturalKey('dashboard', 'nope')).toBeNull();

      clock.advance(5000);
      const replaced = await store.resources.replace(
        'dashboard',
        'd1',
        { naturalKey: 'ops', owner: 'u1', document: { name: 'Ops 2' } },
        'bob',
        1,
      );
      expect(replaced).toMatchObject({
        version: 2,
        document: { name: 'Ops 2' },
        createdBy: 'alice',
        updatedBy: 'bob',
        createdAt: created.createdAt,
        updatedAt: at(clock.ms),
      });
      expect(await store.resources.delete('dashboard', 'd1')).toEqual(replaced);
      expect(await store.resources.get('dashboard', 'd1')).toBeNull();
      expect(await rejection(store.resources.delete('dashboard', 'd1'))).toMatchObject({
        kind: 'not_found',
        message: expect.stringMatching(/dashboard "d1" not found/),
      });
    });

    it('refuses a stale expected version with the current one, and unknown ids', async () => {
      await store.resources.create('dashboard', 'd1', { document: {} }, 'a');
      await store.resources.replace('dashboard', 'd1', { document: { v: 2 } }, 'a', 1);
      const stale = await rejection(
        store.resources.replace('dashboard', 'd1', { document: { v: 3 } }, 'a', 1),
      );
      expect(stale).toMatchObject({
        kind: 'conflict',
        code: 'version_conflict',
        details: { currentVersion: 2 },
      });
      expect((await store.resources.get('dashboard', 'd1'))!.document).toEqual({ v: 2 });
      // Without an expected version the write always wins.
      expect((await store.resources.replace('dashboard', 'd1', { document: { v: 3 } }, 'a')).version).toBe(3);
      expect(
        await rejection(store.resources.replace('dashboard', 'nope', { document: {} }, 'a')),
      ).toMatchObject({
        kind: 'not_found',
      });
    });

    it('keeps natural keys unique within a kind, on create and on replace', async () => {
      await store.resources.create('vfield', 'f1', { naturalKey: 'logs/a', document: {} }, 'u');
      await store.resources.create('vfield', 'f2', { naturalKey: 'logs/b', document: {} }, 'u');
      await store.resources.create('view', 'v1', { naturalKey: 'logs/a', document: {} }, 'u');
      expect(
        await rejection(store.resources.create('vfield', 'f3', { naturalKey: 'logs/a', document: {} }, 'u')),
      ).toMatchObject({ kind: 'conflict', message: expect.stringMatching(/"logs\/a" already exists/) });
      expect(
        await rejection(store.resources.replace('vfield', 'f2', { naturalKey: 'logs/a', document: {} }, 'u')),
      ).toMatchObject({ kind: 'conflict' });
      expect(await rejection(store.resources.create('vfield', 'f1', { document: {} }, 'u'))).toMatchObject({
        kind: 'conflict',
      });
      // Resources without a natural key never collide.
      await store.resources.create('monitor', 'm1', { document: {} }, 'u');
      await store.resources.create('monitor', 'm2', { document: {} }, 'u');
    });

    it('lists oldest first, filtered by datasets, owner and time range, paged', async () => {
      const add = async (id: string, content: object) => {
        await store.resources.create('annotation', id, { document: { id }, ...content }, 'u');
        clock.advance(1000);
      };
      await add('early', { datasets: ['a'], owner: 'u1', startTime: '2024-01-01T00:00:00Z' });
      await add('span', {
        datasets: ['b'],
        owner: 'u2',
        startTime: '2024-02-01T00:00:00Z',
        endTime: '2024-04-01T00:00:00Z',
      });
      await add('late', { datasets: ['a', 'c'], owner: 'u1', startTime: '2024-06-01T00:00:00Z' });
      const ids = async (filter: object) =>
        (await store.resources.list('annotation', filter)).map((r) => r.id);

      expect(await ids({})).toEqual(['early', 'span', 'late']);
      expect(await ids({ datasets: ['a'] })).toEqual(['early', 'late']);
      expect(await ids({ datasets: ['b', 'c'] })).toEqual(['span', 'late']);
      expect(await ids({ owner: 'u1' })).toEqual(['early', 'late']);
      expect(await ids({ ownerNot: 'u1' })).toEqual(['span']);
      expect(await ids({ endsAtOrAfter: '2024-03-01T00:00:00Z' })).toEqual(['span', 'late']);
      expect(await ids({ startsAtOrBefore: '2024-03-01T00:00:00Z' })).toEqual(['early', 'span']);
      expect(
        await ids({ endsAtOrAfter: '2024-03-01T00:00:00Z', startsAtOrBefore: '2024-05-01T00:00:00Z' }),
      ).toEqual(['span']);
      expect(await ids({ limit: 1, offset: 1 })).toEqual(['span']);
      expect(await ids({ offset: 3 })).toEqual([]);
      expect(await store.resources.list('monitor')).toEqual([]);
    });

    it('deletes the resources of one kind that name a dataset', async () => {
      await store.resources.create('vfield', 'f1', { datasets: ['logs'], document: {} }, 'u');
      await store.resources.create('vfield', 'f2', { datasets: ['other'], document: {} }, 'u');
      await store.resources.create('annotation', 'a1', { datasets: ['other', 'logs'], document: {} }, 'u');
      const deleted = await store.resources.deleteOfDataset('vfield', 'logs');
      expect(deleted.map((r) => r.id)).toEqual(['f1']);
      expect((await store.resources.list('vfield')).map((r) => r.id)).toEqual(['f2']);
      expect((await store.resources.list('annotation')).map((r) => r.id)).toEqual(['a1']);
      expect(await store.resources.deleteOfDataset('vfield', 'logs')).toEqual([]);
    });
  });
}
