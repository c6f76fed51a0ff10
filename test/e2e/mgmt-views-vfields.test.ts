import { call, tokenWith } from '../support/mgmt-api';
import { metastoreBackends } from '../support/metastore-backends';
import { rowsOf, type TestServer } from '../support/test-server';

/** `/v2/vfields` (virtual fields take effect in queries) and `/v2/views` (stored only). */
describe.each(metastoreBackends())('/v2/vfields and /v2/views on $name', (backend) => {
  let server: TestServer;

  const EVENTS = [
    { _time: '2024-05-01T00:00:01Z', method: 'GET', status: 200, ms: 1500 },
    { _time: '2024-05-01T00:00:02Z', method: 'GET', status: 503, ms: 9000 },
    { _time: '2024-05-01T00:00:03Z', method: 'POST', status: 500, ms: 250 },
    { _time: '2024-05-01T00:00:04Z', method: 'POST', status: 201, ms: 4000 },
  ];

  beforeAll(async () => {
    server = await backend.startServer();
    for (const name of ['vf-logs', 'vf-other']) {
      expect((await call(server, 'POST /v2/datasets', { body: { name } })).status).toBe(200);
    }
    const ingest = await server.request('POST', '/v1/ingest/vf-logs', { body: EVENTS });
    expect(ingest.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const apl = async (query: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: query, startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' },
    });
    const body = await res.json();
    return { status: res.status, body, rows: res.status === 200 ? rowsOf(body.tables[0]) : [] };
  };

  const createVfield = async (body: object) => {
    const res = await call(server, 'POST /v2/vfields', { body });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('virtual fields', () => {
    it('creates, gets, lists, updates (response equals a later get) and deletes', async () => {
      const created = await createVfield({
        dataset: 'vf-logs',
        name: 'crud_field',
        expression: 'ms * 2',
        description: 'double',
        unit: 'ms',
      });
      expect(created).toEqual({
        id: expect.any(String),
        dataset: 'vf-logs',
        name: 'crud_field',
        expression: 'ms * 2',
        description: 'double',
        type: '',
        unit: 'ms',
      });
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/vfields/{id}', { params })).body).toEqual(created);
      const list = await call(server, 'GET /v2/vfields', { query: { dataset: 'vf-logs' } });
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(created);
      expect((await call(server, 'GET /v2/vfields', { query: { dataset: 'vf-other' } })).body).toEqual([]);

      const updated = await call(server, 'PUT /v2/vfields/{id}', {
        params,
        body: { dataset: 'vf-logs', name: 'crud_field', expression: 'ms * 3' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: created.id, expression: 'ms * 3', description: '' });
      expect((await call(server, 'GET /v2/vfields/{id}', { params })).body).toEqual(updated.body);

      expect((await call(server, 'DELETE /v2/vfields/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/vfields/{id}', 'DELETE /v2/vfields/{id}']) {
        const res = await call(server, op, { params });
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/not found/);
      }
      const put = await call(server, 'PUT /v2/vfields/{id}', {
        params,
        body: { dataset: 'vf-logs', name: 'crud_field', expression: 'ms' },
      });
      expect(put.status).toBe(404);
    });

    it('refuses a second field of the same name on a dataset (409), allows it on another', async () => {
      await createVfield({ dataset: 'vf-logs', name: 'dup_field', expression: 'ms' });
      const again = await call(server, 'POST /v2/vfields', {
        body: { dataset: 'vf-logs', name: 'dup_field', expression: 'ms + 1' },
      });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/already exists/);
      await createVfield({ dataset: 'vf-other', name: 'dup_field', expression: 'ms' });
    });

    it.each([
      ['no dataset', { name: 'f', expression: 'ms' }, '"dataset"', 400],
      ['no name', { dataset: 'vf-logs', expression: 'ms' }, '"name"', 400],
      ['no expression', { dataset: 'vf-logs', name: 'f' }, '"expression"', 400],
      ['a name with spaces', { dataset: 'vf-logs', name: 'a b', expression: 'ms' }, 'name', 400],
      ['a number as expression', { dataset: 'vf-logs', name: 'f', expression: 7 }, 'expression', 400],
      [
        'an expression that does not parse',
        { dataset: 'vf-logs', name: 'f', expression: 'ms +' },
        '"expression"',
        400,
      ],
      ['an unknown function', { dataset: 'vf-logs', name: 'f', expression: 'nope(ms)' }, 'nope', 400],
      ['an unknown dataset', { dataset: 'missing', name: 'f', expression: 'ms' }, 'not found', 404],
    ])('POST /v2/vfields rejects %s', async (_what, body, text, status) => {
      const res = await call(server, 'POST /v2/vfields', { body });
      expect(res.status).toBe(status);
      expect(res.body.message).toContain(text);
    });

    it('GET /v2/vfields requires the dataset parameter', async () => {
      const res = await call(server, 'GET /v2/vfields');
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('"dataset"');
    });

    it('needs the virtualFields capability on the field dataset', async () => {
      const field = await createVfield({ dataset: 'vf-other', name: 'auth_field', expression: 'ms' });
      const onLogsOnly = await tokenWith(server, {
        datasetCapabilities: { 'vf-logs': { virtualFields: ['create', 'read', 'update', 'delete'] } },
      });
      const orgOnly = await tokenWith(server, { orgCapabilities: { datasets: ['read'] } });
      const body = { dataset: 'vf-other', name: 'x', expression: 'ms' };
      const cases: [
        string,
        { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
      ][] = [
        ['GET /v2/vfields', { query: { dataset: 'vf-other' } }],
        ['POST /v2/vfields', { body }],
        ['GET /v2/vfields/{id}', { params: { id: field.id } }],
        ['PUT /v2/vfields/{id}', { params: { id: field.id }, body }],
        ['DELETE /v2/vfields/{id}', { params: { id: field.id } }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        for (const token of [onLogsOnly, orgOnly]) {
          const res = await call(server, op, { ...options, token });
          expect([op, res.status]).toEqual([op, 403]);
          expect(res.body.message).toMatch(/virtualFields\|/);
        }
      }
      const own = await call(server, 'GET /v2/vfields', { query: { dataset: 'vf-logs' }, token: onLogsOnly });
      expect(own.status).toBe(200);
      // Moving a field to a dataset the token may not touch is refused too.
      const mine = await call(server, 'POST /v2/vfields', {
        token: onLogsOnly,
        body: { dataset: 'vf-logs', name: 'movable', expression: 'ms' },
      });
      expect(mine.status).toBe(200);
      const moved = await call(server, 'PUT /v2/vfields/{id}', {
        params: { id: mine.body.id },
        token: onLogsOnly,
        body: { dataset: 'vf-other', name: 'movable', expression: 'ms' },
      });
      expect(moved.status).toBe(403);
    });

    it('take effect in queries: where, summarize by, project (and expressions over them)', async () => {
      const isError = await createVfield({
        dataset: 'vf-logs',
        name: 'is_error',
        expression: 'status >= 500',
      });
      await createVfield({ dataset: 'vf-logs', name: 'secs', expression: 'ms / 1000.0' });

      const where = await apl("['vf-logs'] | where is_error | project method, status");
      expect(where.status).toBe(200);
      expect(where.rows).toEqual([
        { method: 'POST', status: 500 },
        { method: 'GET', status: 503 },
      ]);

      const summarize = await apl("['vf-logs'] | summarize n = count() by is_error | order by is_error asc");
      expect(summarize.status).toBe(200);
      expect(summarize.rows).toEqual([
        { is_error: false, n: 2 },
        { is_error: true, n: 2 },
      ]);

      const project = await apl(
        "['vf-logs'] | where secs > 2 | project secs, slow = secs > 5 | order by secs asc",
      );
      expect(project.status).toBe(200);
      expect(project.rows).toEqual([
        { secs: 4, slow: false },
        { secs: 9, slow: true },
      ]);

      // An update is visible to the very next query; a deleted field is no longer a column.
      const updated = await call(server, 'PUT /v2/vfields/{id}', {
        params: { id: isError.id },
        body: { dataset: 'vf-logs', name: 'is_error', expression: 'status >= 400 and method == "GET"' },
      });
      expect(updated.status).toBe(200);
      expect((await apl("['vf-logs'] | where is_error | count")).rows).toEqual([{ count: 1 }]);
      expect((await call(server, 'DELETE /v2/vfields/{id}', { params: { id: isError.id } })).status).toBe(
        204,
      );
      const gone = await apl("['vf-logs'] | where is_error");
      expect(gone.status).toBe(400);
      expect(gone.body.message).toMatch(/is_error/);

      // Fields belong to their dataset: another dataset does not see them.
      const other = await apl("['vf-other'] | project secs");
      expect(other.status).toBe(400);
    });
    // Deleting the dataset deletes its fields: mgmt-dataset-delete.test.ts.
  });

  describe('views', () => {
    const view = (name: string) => ({
      name,
      description: 'server errors',
      aplQuery: "['vf-logs'] | where status >= 500",
    });

    it('creates, gets, lists, updates and deletes a view', async () => {
      const res = await call(server, 'POST /v2/views', { body: view('errors') });
      expect(res.status).toBe(200);
      const created = res.body;
      expect(created).toEqual({ id: expect.any(String), ...view('errors'), datasets: ['vf-logs'] });
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/views/{id}', { params })).body).toEqual(created);
      expect((await call(server, 'GET /v2/views')).body).toContainEqual(created);

      const updated = await call(server, 'PUT /v2/views/{id}', {
        params,
        body: { ...view('errors'), aplQuery: "['vf-other'] | take 1", datasets: ['vf-other'] },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: created.id,
        aplQuery: "['vf-other'] | take 1",
        datasets: ['vf-other'],
      });
      expect((await call(server, 'GET /v2/views/{id}', { params })).body).toEqual(updated.body);

      expect((await call(server, 'DELETE /v2/views/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/views/{id}', 'DELETE /v2/views/{id}']) {
        const gone = await call(server, op, { params });
        expect(gone.status).toBe(404);
        expect(gone.body.message).toMatch(/not found/);
      }
    });

    it('refuses a second view of the same name (409), also by renaming', async () => {
      await call(server, 'POST /v2/views', { body: view('unique-a') });
      const b = await call(server, 'POST /v2/views', { body: view('unique-b') });
      expect((await call(server, 'POST /v2/views', { body: view('unique-a') })).status).toBe(409);
      const rename = await call(server, 'PUT /v2/views/{id}', {
        params: { id: b.body.id },
        body: view('unique-a'),
      });
      expect(rename.status).toBe(409);
      expect(rename.body.message).toMatch(/already exists/);
    });

    it.each([
      ['no name', { aplQuery: "['vf-logs']" }, '"name"'],
      ['no aplQuery', { name: 'v' }, '"aplQuery"'],
      ['datasets that are not strings', { name: 'v', aplQuery: "['vf-logs']", datasets: [1] }, 'datasets'],
      ['an aplQuery that does not parse', { name: 'v', aplQuery: "['vf-logs'] | where" }, '"aplQuery"'],
    ])('POST /v2/views rejects %s with 400', async (_what, body, field) => {
      const res = await call(server, 'POST /v2/views', { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('is stored only: its name is not a query source', async () => {
      await call(server, 'POST /v2/views', { body: view('not-a-source') });
      const res = await apl("['not-a-source'] | count");
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/not found/);
    });

    it('needs the views capability', async () => {
      const target = await call(server, 'POST /v2/views', { body: view('auth-view') });
      const noViews = await tokenWith(server, { orgCapabilities: { datasets: ['read'] } });
      const params = { id: target.body.id };
      const cases: [string, { params?: Record<string, string>; body?: unknown }][] = [
        ['GET /v2/views', {}],
        ['POST /v2/views', { body: view('x') }],
        ['GET /v2/views/{id}', { params }],
        ['PUT /v2/views/{id}', { params, body: view('x') }],
        ['DELETE /v2/views/{id}', { params }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        const res = await call(server, op, { ...options, token: noViews });
        expect([op, res.status]).toEqual([op, 403]);
        expect(res.body.message).toMatch(/views\|/);
      }
    });
  });
});
