import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import { responseProblems } from '../support/openapi-responses';
import { metastoreBackends } from '../support/metastore-backends';
import { fetchJson, type JsonResponse, type TestServer } from '../support/test-server';

/**
 * `/v2/rbac/roles` and `/v2/rbac/groups`: CRUD, validation naming the field, 404/409, response shapes
 * checked against v2.json, and capabilities granted through roles and groups to a user's PAT.
 */
describe.each(metastoreBackends())('/v2/rbac on $name', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await backend.startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Asserts the status and that a 2xx JSON body conforms to the operation's v2.json response schema. */
  async function expectResponse(res: JsonResponse, operation: string, status: number) {
    const body = res.status === 204 ? undefined : await res.json();
    expect({ status: res.status, body }).toMatchObject({ status });
    if (status === 200) expect(responseProblems(operation, status, body)).toEqual([]);
    return body;
  }

  /** A user with the built-in role `none` and a personal access token for it. */
  async function userWithPat(email: string) {
    const { metastore } = server.quarry.storage;
    const user = await metastore.users.create({ name: email, email, role: 'none' });
    const secret = `xapt-${randomUUID()}`;
    await metastore.tokens.create({
      kind: 'personal',
      name: 'pat',
      secretHash: sha256Hex(secret),
      userId: user.id,
    });
    const as = (method: string, path: string, body?: unknown) =>
      fetchJson(`${server.url}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${secret}`,
          'X-Axiom-Org-Id': server.orgId,
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    return { user, as };
  }

  describe.each([
    {
      family: 'roles',
      base: '/v2/rbac/roles',
      ops: {
        create: 'POST /v2/rbac/roles',
        get: 'GET /v2/rbac/roles/{id}',
        list: 'GET /v2/rbac/roles',
        update: 'PUT /v2/rbac/roles/{id}',
        remove: 'DELETE /v2/rbac/roles/{id}',
      },
      create: {
        name: 'readers',
        description: 'read everything',
        orgCapabilities: { datasets: ['read'] },
        datasetCapabilities: { '*': { query: ['read'] } },
      },
      update: { name: 'readers-2', orgCapabilities: { dashboards: ['read', 'create'] } },
      invalid: [
        [{}, '"name" is required'],
        [
          { name: 'x', orgCapabilities: { datasets: ['fly'] } },
          'orgCapabilities.datasets[0]: must be one of',
        ],
        [{ name: 'x', members: ['no-such-user'] }, 'unknown user id: no-such-user'],
      ],
    },
    {
      family: 'groups',
      base: '/v2/rbac/groups',
      ops: {
        create: 'POST /v2/rbac/groups',
        get: 'GET /v2/rbac/groups/{id}',
        list: 'GET /v2/rbac/groups',
        update: 'PUT /v2/rbac/groups/{id}',
        remove: 'DELETE /v2/rbac/groups/{id}',
      },
      create: { name: 'team', description: 'the team', isManaged: true },
      update: { name: 'team-2', members: null, roles: [] },
      invalid: [
        [{ description: 'no name' }, '"name" is required'],
        [{ name: 'x', roles: 'r' }, 'roles: must be array'],
        [{ name: 'x', roles: ['role_nope'] }, 'unknown role id: role_nope'],
      ],
    },
  ] as const)('$family', ({ base, ops, create, update, invalid }) => {
    it('creates, gets, lists, updates and deletes', async () => {
      const created = await expectResponse(
        await server.request('POST', base, { body: create }),
        ops.create,
        200,
      );
      expect(created).toMatchObject({ name: create.name, description: create.description });
      expect(typeof created.id).toBe('string');
      if (base.endsWith('groups')) expect(created.isManaged).toBe(false);

      const got = await expectResponse(await server.request('GET', `${base}/${created.id}`), ops.get, 200);
      expect(got).toEqual(created);
      const list = await expectResponse(await server.request('GET', base), ops.list, 200);
      expect(list).toContainEqual(created);

      const updated = await expectResponse(
        await server.request('PUT', `${base}/${created.id}`, { body: update }),
        ops.update,
        200,
      );
      expect(updated).toMatchObject({ id: created.id, name: update.name, description: '' });
      expect(await (await server.request('GET', `${base}/${created.id}`)).json()).toEqual(updated);

      await expectResponse(await server.request('DELETE', `${base}/${created.id}`), ops.remove, 204);
      const gone = await server.request('GET', `${base}/${created.id}`);
      expect(gone.status).toBe(404);
      expect((await gone.json()).message).toContain('not found');
      expect((await server.request('DELETE', `${base}/${created.id}`)).status).toBe(404);
      expect((await server.request('PUT', `${base}/${created.id}`, { body: update })).status).toBe(404);
    });

    it.each(invalid)('rejects %j with 400 naming the problem', async (body, message) => {
      const res = await server.request('POST', base, { body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });

    it('answers 409 for a duplicate name', async () => {
      const name = `dup-${randomUUID()}`;
      expect((await server.request('POST', base, { body: { name } })).status).toBe(200);
      const again = await server.request('POST', base, { body: { name: name.toUpperCase() } });
      expect(again.status).toBe(409);
      expect((await again.json()).message).toContain('already exists');
    });

    it('refuses callers without the rbac capability (401 without a token, 403 without rbac)', async () => {
      const anonymous = await fetchJson(`${server.url}${base}`);
      expect(anonymous.status).toBe(401);
      const { as } = await userWithPat(`norbac-${randomUUID()}@example.com`);
      expect((await as('GET', base)).status).toBe(403);
      expect((await as('POST', base, { name: 'nope' })).status).toBe(403);
    });
  });

  it('gives a user the union of their groups’ roles (PAT, no other permissions)', async () => {
    const { user, as } = await userWithPat(`member-${randomUUID()}@example.com`);
    await server.request('POST', '/v2/datasets', { body: { name: 'rbac-logs' } });
    // With the built-in role `none` the PAT can do nothing.
    expect((await as('GET', '/v2/datasets')).status).toBe(403);
    expect((await as('POST', '/v1/datasets/rbac-logs/ingest', [{ a: 1 }])).status).toBe(403);

    const readDatasets = await (
      await server.request('POST', '/v2/rbac/roles', {
        body: { name: `read-datasets-${randomUUID()}`, orgCapabilities: { datasets: ['read'] } },
      })
    ).json();
    const queryLogs = await (
      await server.request('POST', '/v2/rbac/roles', {
        body: {
          name: `query-logs-${randomUUID()}`,
          datasetCapabilities: { 'rbac-logs': { query: ['read'] } },
        },
      })
    ).json();
    const group = await (
      await server.request('POST', '/v2/rbac/groups', {
        body: { name: `g-${randomUUID()}`, members: [user.id], roles: [readDatasets.id, queryLogs.id] },
      })
    ).json();
    expect(group.members).toEqual([user.id]);

    // The auth cache was invalidated by the change: the new rights apply at once.
    expect((await as('GET', '/v2/datasets')).status).toBe(200);
    const query = await as('POST', '/v1/datasets/_apl?format=tabular', { apl: "['rbac-logs'] | count" });
    expect(query.status).toBe(200);
    // Nothing beyond the union: no dataset creation, no rbac.
    expect((await as('POST', '/v2/datasets', { name: 'rbac-nope' })).status).toBe(403);
    expect((await as('GET', '/v2/rbac/roles')).status).toBe(403);

    // Removing the user from the group takes the rights away again.
    await server.request('PUT', `/v2/rbac/groups/${group.id}`, {
      body: { name: group.name, members: [], roles: group.roles },
    });
    expect((await as('GET', '/v2/datasets')).status).toBe(403);
  });

  it('refuses to grant, through a role or a group, capabilities the caller does not hold (403)', async () => {
    const secret = `xaat-${randomUUID()}`;
    await server.quarry.storage.metastore.tokens.create({
      kind: 'api',
      name: 'rbac only',
      secretHash: sha256Hex(secret),
      userId: server.quarry.identity.userId,
      orgCapabilities: { rbac: ['create', 'read'], datasets: ['read'] },
    });
    const as = (method: string, path: string, body: unknown) =>
      fetchJson(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const modest = await as('POST', '/v2/rbac/roles', {
      name: `modest-${randomUUID()}`,
      orgCapabilities: { datasets: ['read'] },
    });
    expect(modest.status).toBe(200);
    const greedy = await as('POST', '/v2/rbac/roles', {
      name: `greedy-${randomUUID()}`,
      orgCapabilities: { datasets: ['read', 'delete'] },
    });
    expect(greedy.status).toBe(403);
    expect((await greedy.json()).message).toContain('datasets|delete');
    const ingest = await as('POST', '/v2/rbac/roles', {
      name: `ingest-${randomUUID()}`,
      datasetCapabilities: { logs: { ingest: ['create'] } },
    });
    expect(ingest.status).toBe(403);

    // A powerful role made by the admin cannot be handed out through a group by the limited token.
    const admin = await (
      await server.request('POST', '/v2/rbac/roles', {
        body: { name: `admin-like-${randomUUID()}`, orgCapabilities: { users: ['delete'] } },
      })
    ).json();
    const group = await as('POST', '/v2/rbac/groups', { name: `g-${randomUUID()}`, roles: [admin.id] });
    expect(group.status).toBe(403);
    expect((await group.json()).message).toContain('users|delete');
    const modestGroup = await as('POST', '/v2/rbac/groups', {
      name: `g-${randomUUID()}`,
      roles: [(await modest.json()).id],
    });
    expect(modestGroup.status).toBe(200);
  });

  it('grants a role assigned directly through its members', async () => {
    const { user, as } = await userWithPat(`direct-${randomUUID()}@example.com`);
    const role = await (
      await server.request('POST', '/v2/rbac/roles', {
        body: { name: `direct-${randomUUID()}`, orgCapabilities: { rbac: ['read'] }, members: [user.id] },
      })
    ).json();
    expect(role.members).toEqual([user.id]);
    expect((await as('GET', '/v2/rbac/roles')).status).toBe(200);
    await server.request('DELETE', `/v2/rbac/roles/${role.id}`);
    expect((await as('GET', '/v2/rbac/roles')).status).toBe(403);
  });
});
