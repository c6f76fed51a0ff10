import { call, tokenWith, userWithPat, type ApiResponse } from '../support/mgmt-api';
import { metastoreBackends } from '../support/metastore-backends';
import { responseProblems } from '../support/openapi-responses';
import type { TestServer } from '../support/test-server';

/** `/v2/dashboards`: upsert semantics, versions, chart patches, paging bounds, private dashboards, auth. */
describe.each(metastoreBackends())('/v2/dashboards on $name', (backend) => {
  let server: TestServer;
  let adminUserId: string;

  beforeAll(async () => {
    server = await backend.startServer();
    adminUserId = (await call(server, 'GET /v2/user')).body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const document = (name: string, owner = 'X-AXIOM-EVERYONE') => ({
    name,
    owner,
    description: 'requests by status',
    charts: [
      {
        id: 'c1',
        type: 'TimeSeries',
        name: 'requests',
        query: { apl: "['logs'] | summarize count() by bin_auto(_time)" },
      },
      { id: 'c2', type: 'Note', text: 'hello' },
    ],
    layout: [
      { i: 'c1', x: 0, y: 0, w: 6, h: 4 },
      { i: 'c2', x: 6, y: 0, w: 6, h: 4 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: 'qr-now-1h',
    timeWindowEnd: 'qr-now',
  });

  /** An error answer in the DashboardError shape v2.json documents for the operation and status. */
  const dashboardError = (operation: string, res: ApiResponse, status: number) => {
    expect(res.status).toBe(status);
    expect(responseProblems(operation, status, res.body)).toEqual([]);
    expect(typeof res.body.code).toBe('string');
    expect(res.body).not.toHaveProperty('detail');
    return res.body;
  };

  const create = async (uid: string, name = uid, owner?: string) => {
    const res = await call(server, 'POST /v2/dashboards', {
      body: { uid, dashboard: document(name, owner) },
    });
    expect(res.status).toBe(201);
    return res.body.dashboard;
  };

  it('creates (201), gets and lists a dashboard with its audit fields', async () => {
    const before = Date.now();
    const res = await call(server, 'POST /v2/dashboards', {
      body: { uid: 'ops-overview', dashboard: document('Ops') },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'created', overwritten: false });
    const created = res.body.dashboard;
    expect(created).toMatchObject({
      uid: 'ops-overview',
      version: 1,
      createdBy: adminUserId,
      updatedBy: adminUserId,
      dashboard: { ...document('Ops'), uid: 'ops-overview' },
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(created.updatedAt).toBe(created.createdAt);

    const got = await call(server, 'GET /v2/dashboards/uid/{uid}', { params: { uid: 'ops-overview' } });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);
    const list = await call(server, 'GET /v2/dashboards');
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(created);
  });

  it('generates a uid when none is given; a taken uid is 409 unless overwrite', async () => {
    const generated = await call(server, 'POST /v2/dashboards', { body: { dashboard: document('No uid') } });
    expect(generated.status).toBe(201);
    expect(generated.body.dashboard.uid).toMatch(/^[A-Za-z0-9_-]{1,128}$/);

    await create('taken');
    const again = await call(server, 'POST /v2/dashboards', {
      body: { uid: 'taken', dashboard: document('Again') },
    });
    expect(dashboardError('POST /v2/dashboards', again, 409)).toEqual({
      code: 'dashboard_exists',
      message: expect.stringMatching(/already exists/),
      uid: 'taken',
    });

    const overwritten = await call(server, 'POST /v2/dashboards', {
      body: { uid: 'taken', overwrite: true, dashboard: document('Overwritten') },
    });
    expect(overwritten.status).toBe(200);
    expect(overwritten.body).toMatchObject({ status: 'updated', overwritten: true });
    expect(overwritten.body.dashboard).toMatchObject({
      uid: 'taken',
      version: 2,
      dashboard: { name: 'Overwritten' },
    });
  });

  it('updates with the current version (version increments); a stale version is 412', async () => {
    const created = await create('versioned');
    const put = (body: object) =>
      call(server, 'PUT /v2/dashboards/uid/{uid}', { params: { uid: 'versioned' }, body });

    const first = await put({ version: 1, dashboard: document('Renamed') });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'updated',
      dashboard: { version: 2, dashboard: { name: 'Renamed' } },
    });
    expect(first.body.dashboard.createdAt).toBe(created.createdAt);

    const stale = await put({ version: 1, dashboard: document('Lost update') });
    // v2.json: 412 "Version conflict" with DashboardError (string code, currentVersion at the top level).
    expect(dashboardError('PUT /v2/dashboards/uid/{uid}', stale, 412)).toEqual({
      code: 'version_conflict',
      message: 'dashboard "versioned" is at version 2, not 1: reload it and retry',
      currentVersion: 2,
      uid: 'versioned',
    });

    const missingVersion = await put({ dashboard: document('No version') });
    expect(dashboardError('PUT /v2/dashboards/uid/{uid}', missingVersion, 400).message).toMatch(/"version"/);

    const forced = await put({ overwrite: true, dashboard: document('Forced') });
    expect(forced.status).toBe(200);
    expect(forced.body.dashboard.version).toBe(3);
    const got = await call(server, 'GET /v2/dashboards/uid/{uid}', { params: { uid: 'versioned' } });
    expect(got.body).toMatchObject({ version: 3, dashboard: { name: 'Forced' } });

    const otherUid = await put({ uid: 'elsewhere', version: 3, dashboard: document('x') });
    expect(otherUid.status).toBe(400);
    expect(otherUid.body.message).toMatch(/"uid"/);
  });

  it('patches one chart with a JSON merge patch', async () => {
    await create('patched');
    const patch = (chartId: string, body: object) =>
      call(server, 'PATCH /v2/dashboards/uid/{uid}/charts/{chartId}', {
        params: { uid: 'patched', chartId },
        body,
      });

    const res = await patch('c1', {
      version: 1,
      chart: { name: 'renamed chart', query: { apl: "['logs'] | count" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.dashboard.version).toBe(2);
    const charts = res.body.dashboard.dashboard.charts;
    expect(charts[0]).toEqual({
      id: 'c1',
      type: 'TimeSeries',
      name: 'renamed chart',
      query: { apl: "['logs'] | count" },
    });
    expect(charts[1]).toEqual(document('x').charts[1]);

    const removeName = await patch('c1', { version: 2, chart: { name: null } });
    expect(removeName.status).toBe(200);
    expect(removeName.body.dashboard.dashboard.charts[0]).not.toHaveProperty('name');

    const PATCH = 'PATCH /v2/dashboards/uid/{uid}/charts/{chartId}';
    const stale = await patch('c1', { version: 1, chart: { name: 'stale' } });
    expect(dashboardError(PATCH, stale, 412)).toMatchObject({ code: 'version_conflict', currentVersion: 3 });
    const unknownChart = await patch('nope', { version: 3, chart: { name: 'x' } });
    expect(dashboardError(PATCH, unknownChart, 404).message).toMatch(/not found/);
    const wrongId = await patch('c1', { version: 3, chart: { id: 'c2' } });
    expect(wrongId.status).toBe(400);
    expect(wrongId.body.message).toMatch(/chart\.id/);
    // The merged dashboard must still be valid: a Note chart needs its text.
    const invalid = await patch('c2', { version: 3, chart: { text: null } });
    expect(invalid.status).toBe(400);
  });

  it('deletes (204); unknown uids are 404 "not found"', async () => {
    await create('doomed');
    expect(
      (await call(server, 'DELETE /v2/dashboards/uid/{uid}', { params: { uid: 'doomed' } })).status,
    ).toBe(204);
    for (const [operation, body] of [
      ['GET /v2/dashboards/uid/{uid}', undefined],
      ['DELETE /v2/dashboards/uid/{uid}', undefined],
      ['PUT /v2/dashboards/uid/{uid}', { version: 1, dashboard: document('x') }],
    ] as const) {
      const res = await call(server, operation, { params: { uid: 'doomed' }, body });
      // PUT documents no 404; its body has the same DashboardError shape as GET's.
      expect(dashboardError('GET /v2/dashboards/uid/{uid}', res, 404)).toEqual({
        code: 'dashboard_not_found',
        message: 'dashboard "doomed" not found',
        uid: 'doomed',
      });
    }
  });

  it('pages with limit and offset; values outside 1–1000 and ≥ 0 are 400', async () => {
    for (const uid of ['page-a', 'page-b', 'page-c']) await create(uid);
    const all = (await call(server, 'GET /v2/dashboards', { query: { limit: '1000' } })).body.map(
      (d: { uid: string }) => d.uid,
    );
    const page = await call(server, 'GET /v2/dashboards', { query: { limit: '2', offset: '1' } });
    expect(page.status).toBe(200);
    expect(page.body.map((d: { uid: string }) => d.uid)).toEqual(all.slice(1, 3));
    const beyond = await call(server, 'GET /v2/dashboards', { query: { offset: String(all.length) } });
    expect(beyond.body).toEqual([]);

    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ offset: '-1' }, 'offset'],
      [{ offset: '1.5' }, 'offset'],
    ] as const) {
      const res = await call(server, 'GET /v2/dashboards', { query });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`"${field}"`);
    }
  });

  it('leaves private dashboards out of lists made with an API token', async () => {
    await create('mine-only', 'Private', adminUserId);
    await create('shared-with-all', 'Shared');
    const uids = (res: { body: { uid: string }[] }) => res.body.map((d) => d.uid);

    const withApiToken = await call(server, 'GET /v2/dashboards', { query: { limit: '1000' } });
    expect(uids(withApiToken)).toContain('shared-with-all');
    expect(uids(withApiToken)).not.toContain('mine-only');

    const res = await fetch(`${server.url}/v2/dashboards?limit=1000`, {
      headers: { Authorization: `Bearer ${server.pat}`, 'X-Axiom-Org-Id': server.orgId },
    });
    expect(res.status).toBe(200);
    const withPat = (await res.json()) as { uid: string }[];
    expect(withPat.map((d) => d.uid)).toEqual(expect.arrayContaining(['mine-only', 'shared-with-all']));
  });

  it('records who changed a dashboard and when: createdBy stays, updatedBy and updatedAt follow each write', async () => {
    const created = await create('audited', 'Audited');
    const editor = await userWithPat(server, 'admin');
    await new Promise((resolve) => setTimeout(resolve, 5)); // so updatedAt can only move forward
    const edited = await call(server, 'PUT /v2/dashboards/uid/{uid}', {
      params: { uid: 'audited' },
      body: { version: 1, dashboard: document('Audited, edited') },
      token: editor.pat,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.dashboard).toMatchObject({
      createdBy: adminUserId,
      createdAt: created.createdAt,
      updatedBy: editor.userId,
    });
    expect(Date.parse(edited.body.dashboard.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));

    const patched = await call(server, 'PATCH /v2/dashboards/uid/{uid}/charts/{chartId}', {
      params: { uid: 'audited', chartId: 'c2' },
      body: { version: 2, chart: { text: 'edited by admin' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.dashboard).toMatchObject({ createdBy: adminUserId, updatedBy: adminUserId });
  });

  it("keeps a user's private dashboard out of another user's list", async () => {
    await create('admins-own', 'Private to the admin', adminUserId);
    const other = await userWithPat(server, 'admin');
    const listed = await call(server, 'GET /v2/dashboards', { query: { limit: '1000' }, token: other.pat });
    expect(listed.status).toBe(200);
    expect(listed.body.map((d: { uid: string }) => d.uid)).not.toContain('admins-own');
  });

  it.each([
    ['no dashboard', {}, '"dashboard" is required'],
    [
      'a name over 100 characters',
      { dashboard: { ...document('x'), name: 'n'.repeat(101) } },
      'dashboard.name',
    ],
    [
      'a refreshTime not in {15, 60, 300}',
      { dashboard: { ...document('x'), refreshTime: 7 } },
      'dashboard.refreshTime',
    ],
    ['schemaVersion 1', { dashboard: { ...document('x'), schemaVersion: 1 } }, 'dashboard.schemaVersion'],
    ['an unknown member', { dashboard: { ...document('x'), colour: 'red' } }, 'colour'],
    ['no owner', { dashboard: { ...document('x'), owner: undefined } }, '"owner" is required'],
    [
      'a layout item out of bounds',
      { dashboard: { ...document('x'), layout: [{ i: 'c1', x: 12, y: 0, w: 1, h: 1 }] } },
      'dashboard.layout[0].x',
    ],
    ['an invalid uid', { uid: 'has space', dashboard: document('x') }, 'uid'],
    [
      'a uid differing from dashboard.uid',
      { uid: 'a', dashboard: { ...document('x'), uid: 'b' } },
      'dashboard.uid',
    ],
  ])('POST /v2/dashboards rejects %s with 400 naming the field', async (_what, body, field) => {
    const res = await call(server, 'POST /v2/dashboards', { body });
    expect(dashboardError('POST /v2/dashboards', res, 400).message).toContain(field);
  });

  describe('auth', () => {
    let readOnly: string;
    beforeAll(async () => {
      await create('auth-target');
      readOnly = await tokenWith(server, { orgCapabilities: { datasets: ['read'] } });
    });

    // Every row has all three columns: a shorter row would hand jest's `done` callback to the test.
    const operations: [string, Record<string, string>, unknown][] = [
      ['GET /v2/dashboards', {}, undefined],
      ['POST /v2/dashboards', {}, { dashboard: document('x') }],
      ['GET /v2/dashboards/uid/{uid}', { uid: 'auth-target' }, undefined],
      ['PUT /v2/dashboards/uid/{uid}', { uid: 'auth-target' }, { version: 1, dashboard: document('x') }],
      ['DELETE /v2/dashboards/uid/{uid}', { uid: 'auth-target' }, undefined],
      [
        'PATCH /v2/dashboards/uid/{uid}/charts/{chartId}',
        { uid: 'auth-target', chartId: 'c1' },
        { version: 1, chart: {} },
      ],
    ];

    it.each(operations)(
      '%s: 401 without a token, 403 without the dashboards capability',
      async (op, params, body) => {
        const unauthenticated = await call(server, op, { params, body, token: null });
        expect(unauthenticated.status).toBe(401);
        const forbidden = await call(server, op, { params, body, token: readOnly });
        expect(forbidden.status).toBe(403);
        expect(forbidden.body.message).toMatch(/dashboards\|/);
        // The dashboards' error shape for every error of their routes, the guard's included.
        for (const res of [unauthenticated, forbidden]) expect(typeof res.body.code).toBe('string');
      },
    );
  });
});
