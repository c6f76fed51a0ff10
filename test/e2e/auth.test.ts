import { sha256Hex } from '@quarry/common';
import { fetchJson, startTestServer, type TestServer } from '../support/test-server';

/** Authentication and capability checks on the foundation's endpoints. */
describe('auth', () => {
  let server: TestServer;
  const limitedToken = 'xaat-limited-ingest-only-0001';
  const expiredToken = 'xaat-expired-token-0000001';

  beforeAll(async () => {
    server = await startTestServer();
    await server.request('POST', '/v2/datasets', { body: { name: 'auth-a' } });
    await server.request('POST', '/v2/datasets', { body: { name: 'auth-b' } });
    const { metastore } = server.quarry.storage;
    const base = {
      kind: 'api' as const,
      description: '',
      userId: server.quarry.identity.userId,
      viewCapabilities: {},
    };
    await metastore.tokens.create({
      ...base,
      name: 'ingest into auth-a only',
      secretHash: sha256Hex(limitedToken),
      orgCapabilities: {},
      datasetCapabilities: { 'auth-a': { ingest: ['create'] } },
      expiresAt: null,
    });
    await metastore.tokens.create({
      ...base,
      name: 'expired',
      secretHash: sha256Hex(expiredToken),
      orgCapabilities: { datasets: ['read'] },
      datasetCapabilities: {},
      expiresAt: '2020-01-01T00:00:00.000Z',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetchJson(`${server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it.each([
    ['no token', {}],
    ['malformed header', { Authorization: 'Token abc' }],
    ['unknown token', { Authorization: 'Bearer xaat-unknown-0000000000' }],
    ['foreign prefix', { Authorization: 'Bearer sk-123456789' }],
    ['expired token', { Authorization: `Bearer ${expiredToken}` }],
  ])('answers 401 with a JSON message for %s', async (_label, headers) => {
    const res = await call('GET', '/v2/datasets', headers);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(typeof (await res.json()).message).toBe('string');
  });

  it('refuses personal access tokens on ingest and edge query, accepts them on the main API with an org id', async () => {
    const pat = { Authorization: `Bearer ${server.pat}`, 'X-Axiom-Org-Id': server.orgId };
    expect((await call('POST', '/v1/ingest/auth-a', pat, [{ a: 1 }])).status).toBe(403);
    expect((await call('POST', '/v1/datasets/auth-a/ingest', pat, [{ a: 1 }])).status).toBe(403);
    expect((await call('POST', '/v1/query/_apl?format=tabular', pat, { apl: "['auth-a']" })).status).toBe(
      403,
    );
    expect(
      (await call('POST', '/v1/datasets/_apl?format=tabular', pat, { apl: "['auth-a'] | count" })).status,
    ).toBe(200);
    expect((await call('GET', '/v2/datasets', pat)).status).toBe(200);
    // PATs must name the org, except on the current-user endpoint.
    expect((await call('GET', '/v2/datasets', { Authorization: `Bearer ${server.pat}` })).status).toBe(403);
    expect((await call('GET', '/v2/user', { Authorization: `Bearer ${server.pat}` })).status).toBe(200);
    expect((await call('GET', '/v2/datasets', { ...pat, 'X-Axiom-Org-Id': 'other-org' })).status).toBe(403);
  });

  it('enforces dataset and org capabilities of API tokens', async () => {
    const limited = { Authorization: `Bearer ${limitedToken}` };
    expect((await call('POST', '/v1/ingest/auth-a', limited, [{ a: 1 }])).status).toBe(200);
    const other = await call('POST', '/v1/ingest/auth-b', limited, [{ a: 1 }]);
    expect(other.status).toBe(403);
    expect((await other.json()).message).toMatch(/ingest\|create.*auth-b/);
    expect(
      (await call('POST', '/v1/query/_apl?format=tabular', limited, { apl: "['auth-a'] | count" })).status,
    ).toBe(403);
    expect((await call('GET', '/v2/datasets', limited)).status).toBe(403);
    expect((await call('POST', '/v2/datasets', limited, { name: 'nope' })).status).toBe(403);
    expect((await call('DELETE', '/v2/datasets/auth-a', limited)).status).toBe(403);
  });

  it('serves the current user to API tokens and PATs', async () => {
    const res = await call('GET', '/v2/user', { Authorization: `Bearer ${server.token}` });
    expect(await res.json()).toEqual({
      id: expect.any(String),
      name: 'admin',
      email: expect.any(String),
      role: { id: 'owner', name: 'owner' },
    });
  });

  it('keeps health probes public and unknown routes JSON 404s', async () => {
    expect((await call('GET', '/healthz', {})).status).toBe(200);
    expect((await call('GET', '/readyz', {})).status).toBe(200);
    const missing = await call('GET', '/v1/nothing-here', { Authorization: `Bearer ${server.token}` });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/not found/);
  });
});
