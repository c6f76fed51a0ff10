import { fetchJson, startTestServer, type TestServer } from '../support/test-server';

/** `/v2/tokens`: create (secret once), use, list/get without secrets, regenerate, delete, validation. */
describe('/v2/tokens', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await server.request('POST', '/v2/datasets', { body: { name: 'tok-a' } });
    await server.request('POST', '/v2/datasets', { body: { name: 'tok-b' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (secret: string, method: string, path: string, body?: unknown) =>
    fetchJson(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // Covers 'POST /v2/tokens', 'GET /v2/tokens/{id}' and 'GET /v2/tokens'.
  it('creates a scoped token whose secret is shown once and whose capabilities are enforced', async () => {
    const res = await server.request('POST', '/v2/tokens', {
      body: {
        name: 'ingest tok-a',
        description: 'ci',
        datasetCapabilities: { 'tok-a': { ingest: ['create'] } },
      },
    });
    expect(res.status).toBe(200);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.any(String),
      name: 'ingest tok-a',
      description: 'ci',
      expiresAt: null,
      datasetCapabilities: { 'tok-a': { ingest: ['create'] } },
      orgCapabilities: {},
      token: expect.stringMatching(/^xaat-/),
    });
    expect((await as(created.token, 'POST', '/v1/ingest/tok-a', [{ a: 1 }])).status).toBe(200);
    expect((await as(created.token, 'POST', '/v1/ingest/tok-b', [{ a: 1 }])).status).toBe(403);

    const { token: _secret, ...withoutSecret } = created;
    expect(await (await server.request('GET', `/v2/tokens/${created.id}`)).json()).toEqual(withoutSecret);
    const list = await (await server.request('GET', '/v2/tokens')).json();
    expect(list).toContainEqual(withoutSecret);
    expect(JSON.stringify(list)).not.toMatch(/xaat-/);
  });

  // Covers 'POST /v2/tokens/{id}/regenerate'.
  it('regenerates: a new id and secret, the old token expires', async () => {
    const created = await (
      await server.request('POST', '/v2/tokens', {
        body: { name: 'rotating', orgCapabilities: { datasets: ['read'] } },
      })
    ).json();
    const res = await server.request('POST', `/v2/tokens/${created.id}/regenerate`, {
      body: { existingTokenExpiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(res.status).toBe(200);
    const rotated = await res.json();
    expect(rotated.id).not.toBe(created.id);
    expect(rotated).toMatchObject({ name: 'rotating', orgCapabilities: { datasets: ['read'] } });
    expect((await as(rotated.token, 'GET', '/v2/datasets')).status).toBe(200);
    expect((await as(created.token, 'GET', '/v2/datasets')).status).toBe(401);
    const ids = (await (await server.request('GET', '/v2/tokens')).json()).map((t: { id: string }) => t.id);
    expect(ids).toContain(rotated.id);
    expect(ids).not.toContain(created.id);
  });

  // Covers 'DELETE /v2/tokens/{id}'.
  it('deletes: 204, then the token is gone and no longer authenticates', async () => {
    const created = await (
      await server.request('POST', '/v2/tokens', {
        body: { name: 'short-lived', orgCapabilities: { datasets: ['read'] } },
      })
    ).json();
    expect((await server.request('DELETE', `/v2/tokens/${created.id}`)).status).toBe(204);
    expect((await server.request('GET', `/v2/tokens/${created.id}`)).status).toBe(404);
    expect((await as(created.token, 'GET', '/v2/datasets')).status).toBe(401);
    const again = await server.request('DELETE', `/v2/tokens/${created.id}`);
    expect(again.status).toBe(404);
    expect((await again.json()).message).toMatch(/not found/);
  });

  it.each([
    [{}, /"name" is required/],
    [{ name: 'x', orgCapabilities: { datasets: ['fly'] } }, /unknown action "fly"/],
    [{ name: 'x', datasetCapabilities: { '*': { teleport: ['read'] } } }, /unknown capability "teleport"/],
    [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, /must be in the future/],
    [{ name: 'x', expiresAt: 'tomorrow' }, /RFC 3339/],
  ])('rejects %j with 400', async (body, message) => {
    const res = await server.request('POST', '/v2/tokens', { body });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(message);
  });

  it('refuses to grant capabilities the caller lacks, and requires apiTokens capabilities', async () => {
    const limited = await (
      await server.request('POST', '/v2/tokens', {
        body: { name: 'token admin', orgCapabilities: { apiTokens: ['create', 'read'] } },
      })
    ).json();
    const escalate = await as(limited.token, 'POST', '/v2/tokens', {
      name: 'x',
      orgCapabilities: { datasets: ['delete'] },
    });
    expect(escalate.status).toBe(403);
    expect((await escalate.json()).message).toMatch(/cannot grant datasets\|delete/);
    expect(
      (
        await as(limited.token, 'POST', '/v2/tokens', {
          name: 'same rights',
          orgCapabilities: { apiTokens: ['read'] },
        })
      ).status,
    ).toBe(200);
    expect((await as(limited.token, 'DELETE', `/v2/tokens/${limited.id}`)).status).toBe(403);
    expect((await as('xaat-nobody-000000000000', 'GET', '/v2/tokens')).status).toBe(401);
  });

  it('expires tokens at expiresAt', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await (
      await server.request('POST', '/v2/tokens', {
        body: { name: 'soon', expiresAt: soon, orgCapabilities: { datasets: ['read'] } },
      })
    ).json();
    expect(created.expiresAt).toBe(soon);
    expect((await as(created.token, 'GET', '/v2/datasets')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect((await as(created.token, 'GET', '/v2/datasets')).status).toBe(401);
  });
});
