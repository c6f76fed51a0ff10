import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import { responseProblems } from '../support/openapi-responses';
import { metastoreBackends } from '../support/metastore-backends';
import { fetchJson, type JsonResponse, type TestServer } from '../support/test-server';

/** `/v2/users`, `/v2/user` and `/v2/orgs` (single org): CRUD, validation, 404/409, v2.json shapes. */
describe.each(metastoreBackends())('/v2/users, /v2/user, /v2/orgs on $name', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await backend.startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function conforming(res: JsonResponse, operation: string, status = 200) {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(responseProblems(operation, status, body)).toEqual([]);
    return body;
  }

  async function patOf(userId: string) {
    const secret = `xapt-${randomUUID()}`;
    await server.quarry.storage.metastore.tokens.create({
      kind: 'personal',
      name: 'pat',
      secretHash: sha256Hex(secret),
      userId,
    });
    return { Authorization: `Bearer ${secret}`, 'X-Axiom-Org-Id': server.orgId };
  }

  describe('users', () => {
    it('creates, gets, lists, changes the role of and deletes a user', async () => {
      const email = `jane-${randomUUID()}@example.com`;
      const created = await conforming(
        await server.request('POST', '/v2/users', { body: { name: 'Jane', email, role: 'user' } }),
        'POST /v2/users',
      );
      expect(created).toMatchObject({ name: 'Jane', email, role: { id: 'user', name: 'user' } });
      const got = await conforming(
        await server.request('GET', `/v2/users/${created.id}`),
        'GET /v2/users/{id}',
      );
      expect(got).toEqual(created);
      const list = await conforming(await server.request('GET', '/v2/users'), 'GET /v2/users');
      expect(list).toContainEqual(created);

      const promoted = await conforming(
        await server.request('PUT', `/v2/users/${created.id}/role`, { body: { role: 'read-only' } }),
        'PUT /v2/users/{id}/role',
      );
      expect(promoted.role).toEqual({ id: 'read-only', name: 'read-only' });

      const deleted = await server.request('DELETE', `/v2/users/${created.id}`);
      expect(deleted.status).toBe(204); // 'DELETE /v2/users/{id}'
      const gone = await server.request('GET', `/v2/users/${created.id}`);
      expect(gone.status).toBe(404);
      expect((await gone.json()).message).toContain('not found');
      expect((await server.request('DELETE', `/v2/users/${created.id}`)).status).toBe(404);
      expect(
        (await server.request('PUT', `/v2/users/${created.id}/role`, { body: { role: 'user' } })).status,
      ).toBe(404);
    });

    it.each([
      [{ name: 'n', email: 'e@example.com' }, '"role" is required'],
      [{ email: 'e@example.com', role: 'user' }, '"name" is required'],
      [{ name: 'n', email: 'not-an-email', role: 'user' }, 'email: must be an email address'],
      [{ name: 'n', email: 'e@example.com', role: 'wizard' }, 'role: must be one of'],
      [{ name: 5, email: 'e@example.com', role: 'user' }, 'name: must be string'],
    ])('rejects %j with 400 naming the field', async (body, message) => {
      const res = await server.request('POST', '/v2/users', { body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });

    it('answers 409 for a taken email (any case)', async () => {
      const email = `dup-${randomUUID()}@example.com`;
      await server.request('POST', '/v2/users', { body: { name: 'a', email, role: 'user' } });
      const again = await server.request('POST', '/v2/users', {
        body: { name: 'b', email: email.toUpperCase(), role: 'user' },
      });
      expect(again.status).toBe(409);
    });

    it('keeps the last owner and lets only owners create owners', async () => {
      const owner = server.quarry.identity.userId;
      const demote = await server.request('PUT', `/v2/users/${owner}/role`, { body: { role: 'admin' } });
      expect(demote.status).toBe(409);
      expect((await server.request('DELETE', `/v2/users/${owner}`)).status).toBe(409);

      const admin = await server.quarry.storage.metastore.users.create({
        name: 'adm',
        email: `adm-${randomUUID()}@example.com`,
        role: 'admin',
      });
      const headers = await patOf(admin.id);
      const res = await fetchJson(`${server.url}/v2/users`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'o', email: `o-${randomUUID()}@example.com`, role: 'owner' }),
      });
      expect(res.status).toBe(403);

      // users|update alone does not let a token make someone admin (it would grant what it lacks).
      const secret = `xaat-${randomUUID()}`;
      await server.quarry.storage.metastore.tokens.create({
        kind: 'api',
        name: 'users only',
        secretHash: sha256Hex(secret),
        userId: owner,
        orgCapabilities: { users: ['update', 'read'] },
      });
      const promote = await fetchJson(`${server.url}/v2/users/${admin.id}/role`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ role: 'admin' }),
      });
      expect(promote.status).toBe(403);
      const lower = await fetchJson(`${server.url}/v2/users/${admin.id}/role`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ role: 'none' }),
      });
      expect(lower.status).toBe(200);
    });

    it('takes effect on the user’s PAT at once when the role changes', async () => {
      const user = await server.quarry.storage.metastore.users.create({
        name: 'r',
        email: `r-${randomUUID()}@example.com`,
        role: 'none',
      });
      const headers = await patOf(user.id);
      expect((await fetchJson(`${server.url}/v2/datasets`, { headers })).status).toBe(403);
      await server.request('PUT', `/v2/users/${user.id}/role`, { body: { role: 'read-only' } });
      expect((await fetchJson(`${server.url}/v2/datasets`, { headers })).status).toBe(200);
      await server.request('DELETE', `/v2/users/${user.id}`);
      // The PAT went with its user.
      expect((await fetchJson(`${server.url}/v2/datasets`, { headers })).status).toBe(401);
    });
  });

  describe('current user', () => {
    it('reads and renames the caller (GET /v2/user, PUT /v2/user)', async () => {
      const me = await conforming(await server.request('GET', '/v2/user'), 'GET /v2/user');
      const renamed = await conforming(
        await server.request('PUT', '/v2/user', { body: { name: 'Renamed Admin' } }),
        'PUT /v2/user',
      );
      expect(renamed).toEqual({ ...me, name: 'Renamed Admin' });
      const bad = await server.request('PUT', '/v2/user', { body: {} });
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toContain('"name" is required');
    });
  });

  describe('orgs', () => {
    it('lists, gets and renames the one org (GET /v2/orgs, GET /v2/orgs/{id}, PUT /v2/orgs/{id})', async () => {
      const list = await conforming(await server.request('GET', '/v2/orgs'), 'GET /v2/orgs');
      expect(list).toHaveLength(1);
      expect(list[0].id).toBe(server.orgId);
      const org = await conforming(
        await server.request('GET', `/v2/orgs/${server.orgId}`),
        'GET /v2/orgs/{id}',
      );
      expect(org).toEqual(list[0]);
      const renamed = await conforming(
        await server.request('PUT', `/v2/orgs/${server.orgId}`, { body: { name: 'acme' } }),
        'PUT /v2/orgs/{id}',
      );
      expect(renamed).toMatchObject({ id: server.orgId, name: 'acme' });
      expect((await server.request('PUT', `/v2/orgs/${server.orgId}`, { body: {} })).status).toBe(400);
      const missing = await server.request('GET', '/v2/orgs/other');
      expect(missing.status).toBe(404);
      expect((await missing.json()).message).toContain('not found');
    });

    it.each([
      ['POST /v2/orgs', '/v2/orgs', { name: 'second' }],
      ['POST /v2/orgs/provision', '/v2/orgs/provision', {}],
    ])('answers %s with 501 and a reason', async (_operation, path, body) => {
      const res = await server.request('POST', path, { body });
      expect(res.status).toBe(501);
      const error = await res.json();
      expect(error.code).toBe('not_implemented');
      expect(error.message.length).toBeGreaterThan(30);
    });
  });
});
