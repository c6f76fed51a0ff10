import { AxiomWithoutBatching } from '@axiomhq/js';
import { call, tokenWith } from '../support/mgmt-api';
import { metastoreBackends } from '../support/metastore-backends';
import type { TestServer } from '../support/test-server';

/** `/v2/apl-starred-queries` and `/v2/annotations`, over HTTP and through `@axiomhq/js`. */
describe.each(metastoreBackends())('/v2/apl-starred-queries and /v2/annotations on $name', (backend) => {
  let server: TestServer;
  let adminUserId: string;

  beforeAll(async () => {
    server = await backend.startServer();
    adminUserId = (await call(server, 'GET /v2/user')).body.id;
    for (const name of ['sq-a', 'sq-b']) {
      expect((await call(server, 'POST /v2/datasets', { body: { name } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('starred queries', () => {
    const starred = (name: string, apl = "['sq-a'] | count", extra: object = {}) => ({
      kind: 'apl',
      name,
      who: 'ignored: always the caller',
      query: { apl, startTime: 'now-1h' },
      metadata: { origin: 'test' },
      ...extra,
    });
    const create = async (body: object, token?: string) => {
      const res = await call(server, 'POST /v2/apl-starred-queries', { body, token });
      expect(res.status).toBe(200);
      return res.body;
    };
    const names = (res: { body: { name: string }[] }) => res.body.map((q) => q.name);

    it('creates, gets, lists, updates and deletes; `who` is the caller', async () => {
      const created = await create(starred('crud'));
      expect(created).toEqual({
        id: expect.any(String),
        kind: 'apl',
        name: 'crud',
        who: adminUserId,
        query: { apl: "['sq-a'] | count", startTime: 'now-1h' },
        metadata: { origin: 'test' },
      });
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/apl-starred-queries/{id}', { params })).body).toEqual(created);
      expect((await call(server, 'GET /v2/apl-starred-queries')).body).toContainEqual(created);

      const updated = await call(server, 'PUT /v2/apl-starred-queries/{id}', {
        params,
        body: starred('crud renamed', "['sq-b'] | take 5", { dataset: 'sq-b' }),
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: created.id,
        name: 'crud renamed',
        dataset: 'sq-b',
        who: adminUserId,
      });
      expect((await call(server, 'GET /v2/apl-starred-queries/{id}', { params })).body).toEqual(updated.body);

      expect((await call(server, 'DELETE /v2/apl-starred-queries/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/apl-starred-queries/{id}', 'DELETE /v2/apl-starred-queries/{id}']) {
        const res = await call(server, op, { params });
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/not found/);
      }
    });

    it('filters by who, dataset and qs, and pages with limit/offset', async () => {
      await create(starred('filter errors by host', "['sq-a'] | where level == 'error'"));
      await create(starred('filter b only', "['sq-b'] | count"));
      await create(starred('filter pinned', "['sq-a'] | take 1", { dataset: 'sq-a' }));

      const own = names(await call(server, 'GET /v2/apl-starred-queries', { query: { limit: '1000' } }));
      expect(own).toEqual(
        expect.arrayContaining(['filter errors by host', 'filter b only', 'filter pinned']),
      );
      const all = names(
        await call(server, 'GET /v2/apl-starred-queries', { query: { who: 'all', limit: '1000' } }),
      );
      expect(all).toEqual(expect.arrayContaining(own));
      expect(names(await call(server, 'GET /v2/apl-starred-queries', { query: { who: 'team' } }))).toEqual(
        [],
      );
      expect(
        names(await call(server, 'GET /v2/apl-starred-queries', { query: { who: 'someone-else' } })),
      ).toEqual([]);
      expect(
        names(
          await call(server, 'GET /v2/apl-starred-queries', { query: { who: adminUserId, limit: '1000' } }),
        ),
      ).toEqual(own);

      const onB = names(await call(server, 'GET /v2/apl-starred-queries', { query: { dataset: 'sq-b' } }));
      expect(onB).toContain('filter b only');
      expect(onB).not.toContain('filter pinned');
      expect(names(await call(server, 'GET /v2/apl-starred-queries', { query: { qs: 'ERROR' } }))).toEqual([
        'filter errors by host',
      ]);

      const page = await call(server, 'GET /v2/apl-starred-queries', { query: { limit: '1', offset: '1' } });
      expect(names(page)).toEqual(own.slice(1, 2));
      for (const [name, value] of [
        ['limit', '0'],
        ['limit', '1001'],
        ['offset', '-1'],
      ]) {
        const res = await call(server, 'GET /v2/apl-starred-queries', { query: { [name]: value } });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(`"${name}"`);
      }
    });

    it.each([
      ['no kind', { ...starred('x'), kind: undefined }, '"kind"'],
      ['a kind other than apl', { ...starred('x'), kind: 'sql' }, 'kind'],
      ['no name', { ...starred('x'), name: undefined }, '"name"'],
      ['no who', { ...starred('x'), who: undefined }, '"who"'],
      ['no metadata', { ...starred('x'), metadata: undefined }, '"metadata"'],
      ['metadata with a number', { ...starred('x'), metadata: { n: 1 } }, 'metadata'],
      ['no query', { ...starred('x'), query: undefined }, '"query"'],
      ['a query without apl', { ...starred('x'), query: { startTime: 'now-1h' } }, '"apl"'],
      ['an apl that does not parse', starred('x', "['sq-a'] | where"), 'query.apl'],
    ])('POST /v2/apl-starred-queries rejects %s with 400', async (_what, body, field) => {
      const res = await call(server, 'POST /v2/apl-starred-queries', { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('needs the starredQueries capability on the datasets a query is about', async () => {
      const onB = await create(starred('auth on b', "['sq-b'] | count"));
      const onAOnly = await tokenWith(server, {
        datasetCapabilities: { 'sq-a': { starredQueries: ['create', 'read', 'update', 'delete'] } },
      });
      const mine = await create(starred('auth on a'), onAOnly);
      const listed = names(
        await call(server, 'GET /v2/apl-starred-queries', { token: onAOnly, query: { who: 'all' } }),
      );
      expect(listed).toContain('auth on a');
      expect(listed).not.toContain('auth on b');
      expect(mine.who).toBe(adminUserId); // an API token acts for the user who created it

      const params = { id: onB.id };
      const body = starred('x', "['sq-b'] | count");
      const cases: [string, { params?: Record<string, string>; body?: unknown }][] = [
        ['POST /v2/apl-starred-queries', { body }],
        ['GET /v2/apl-starred-queries/{id}', { params }],
        ['PUT /v2/apl-starred-queries/{id}', { params, body }],
        ['DELETE /v2/apl-starred-queries/{id}', { params }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        const res = await call(server, op, { ...options, token: onAOnly });
        expect([op, res.status]).toEqual([op, 403]);
        expect(res.body.message).toMatch(/starredQueries\|/);
      }
      expect((await call(server, 'GET /v2/apl-starred-queries', { token: null })).status).toBe(401);
    });

    it('round-trips through @axiomhq/js savedQueries', async () => {
      const created = await create(starred('from js list'));
      const axiom = new AxiomWithoutBatching({ token: server.token, url: server.url });
      const listed = await axiom.savedQueries.list({ limit: 1000 });
      expect(listed).toContainEqual(created);
      expect(await axiom.savedQueries.get(created.id)).toEqual(created);
    });
  });

  describe('annotations', () => {
    const create = async (body: object) => {
      const res = await call(server, 'POST /v2/annotations', { body });
      expect(res.status).toBe(201);
      return res.body;
    };

    it('creates (201, time defaults to now), gets, lists, updates partially and deletes', async () => {
      const before = Date.now();
      const created = await create({ type: 'deploy', datasets: ['sq-a'], title: 'v1.2', url: 'some-url' });
      expect(created).toEqual({
        id: expect.stringMatching(/^ann_/),
        type: 'deploy',
        datasets: ['sq-a'],
        time: expect.any(String),
        endTime: null,
        title: 'v1.2',
        url: 'some-url',
      });
      expect(Date.parse(created.time)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(created.time)).toBeLessThanOrEqual(Date.now() + 1000);
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/annotations/{id}', { params })).body).toEqual(created);
      expect((await call(server, 'GET /v2/annotations')).body).toContainEqual(created);

      // Go's client sends only the members it changes.
      const updated = await call(server, 'PUT /v2/annotations/{id}', {
        params,
        body: { datasets: ['sq-a', 'sq-b'] },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ ...created, datasets: ['sq-a', 'sq-b'] });

      expect((await call(server, 'DELETE /v2/annotations/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/annotations/{id}', 'DELETE /v2/annotations/{id}']) {
        const res = await call(server, op, { params });
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/not found/);
      }
      expect((await call(server, 'PUT /v2/annotations/{id}', { params, body: { title: 'x' } })).status).toBe(
        404,
      );
    });

    it('filters by datasets (comma-joined or repeated), start and end', async () => {
      const early = await create({ type: 'filter', datasets: ['f-a'], time: '2024-01-01T00:00:00Z' });
      const spanning = await create({
        type: 'filter',
        datasets: ['f-b'],
        time: '2024-02-01T00:00:00Z',
        endTime: '2024-04-01T00:00:00Z',
      });
      const late = await create({ type: 'filter', datasets: ['f-a', 'f-c'], time: '2024-06-01T00:00:00Z' });
      const ids = async (query: Record<string, string | string[]>) =>
        (await call(server, 'GET /v2/annotations', { query })).body.map((a: { id: string }) => a.id);

      expect(await ids({ datasets: 'f-a' })).toEqual([early.id, late.id]);
      expect(await ids({ datasets: 'f-b,f-c' })).toEqual([spanning.id, late.id]);
      expect(await ids({ datasets: ['f-b', 'f-c'] })).toEqual([spanning.id, late.id]);
      // An annotation with an end time is in a window it overlaps.
      expect(
        await ids({ datasets: 'f-a,f-b', start: '2024-03-01T00:00:00Z', end: '2024-05-01T00:00:00Z' }),
      ).toEqual([spanning.id]);
      expect(await ids({ datasets: 'f-a,f-b', end: '2024-01-15T00:00:00Z' })).toEqual([early.id]);
      // Go sends the zero time when no bound is set.
      expect(await ids({ datasets: 'f-a', start: ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'] })).toEqual(
        [early.id, late.id],
      );
      const bad = await call(server, 'GET /v2/annotations', { query: { start: 'yesterday' } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('"start"');
    });

    it.each([
      ['no type', { datasets: ['sq-a'] }, '"type"', 'POST'],
      ['an upper-case type', { type: 'Deploy', datasets: ['sq-a'] }, 'type', 'POST'],
      ['no datasets', { type: 'deploy' }, '"datasets"', 'POST'],
      ['empty datasets', { type: 'deploy', datasets: [] }, 'datasets', 'POST'],
      ['a time that is not RFC 3339', { type: 'deploy', datasets: ['sq-a'], time: 'noon' }, 'time', 'POST'],
      [
        'a title over 256 characters',
        { type: 'deploy', datasets: ['sq-a'], title: 't'.repeat(257) },
        'title',
        'POST',
      ],
      [
        'an end before the start',
        { type: 'deploy', datasets: ['sq-a'], time: '2024-01-02T00:00:00Z', endTime: '2024-01-01T00:00:00Z' },
        'endTime',
        'POST',
      ],
      ['an upper-case type on update', { type: 'Nope' }, 'type', 'PUT'],
    ])('rejects %s with 400', async (_what, body, field, method) => {
      const target = await create({ type: 'target', datasets: ['sq-a'] });
      const res =
        method === 'POST'
          ? await call(server, 'POST /v2/annotations', { body })
          : await call(server, 'PUT /v2/annotations/{id}', { params: { id: target.id }, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('needs the annotations capability', async () => {
      const target = await create({ type: 'auth', datasets: ['sq-a'] });
      const noAnnotations = await tokenWith(server, { orgCapabilities: { datasets: ['read'] } });
      const params = { id: target.id };
      const body = { type: 'auth', datasets: ['sq-a'] };
      const cases: [string, { params?: Record<string, string>; body?: unknown }][] = [
        ['GET /v2/annotations', {}],
        ['POST /v2/annotations', { body }],
        ['GET /v2/annotations/{id}', { params }],
        ['PUT /v2/annotations/{id}', { params, body }],
        ['DELETE /v2/annotations/{id}', { params }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        const res = await call(server, op, { ...options, token: noAnnotations });
        expect([op, res.status]).toEqual([op, 403]);
        expect(res.body.message).toMatch(/annotations\|/);
      }
    });

    it('round-trips through @axiomhq/js', async () => {
      const axiom = new AxiomWithoutBatching({ token: server.token, url: server.url });
      const created = await axiom.annotations.create({
        type: 'js-deploy',
        datasets: ['sq-b'],
        title: 'from js',
        description: 'round trip',
        time: '2024-07-01T10:00:00.000Z',
      });
      expect(created).toMatchObject({
        type: 'js-deploy',
        datasets: ['sq-b'],
        time: '2024-07-01T10:00:00.000Z',
      });
      expect(await axiom.annotations.get(created.id)).toEqual(created);
      const listed = await axiom.annotations.list({
        datasets: ['sq-b'],
        start: '2024-07-01T00:00:00Z',
        end: '2024-07-02T00:00:00Z',
      });
      expect(listed).toEqual([created]);
      const updated = await axiom.annotations.update(created.id, { title: 'renamed' });
      expect(updated).toEqual({ ...created, title: 'renamed' });
      const deleted = await axiom.annotations.delete(created.id);
      expect(deleted.status).toBe(204);
      await expect(axiom.annotations.get(created.id)).rejects.toThrow(/not found/);
    });
  });
});
