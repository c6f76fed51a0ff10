import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpManagementApi, retryAfterMs } from './http-management-api.adapter';
import { isManagementError, kindOfStatus, type ManagementErrorKind } from './management-api.port';

/** A scripted HTTP server on loopback: each test sets how the next request is answered. */
let server: Server;
let baseUrl: string;
let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => (seen.length = 0));

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    if (isManagementError(err)) return err;
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('HttpManagementApi', () => {
  const api = () =>
    new HttpManagementApi({ baseUrl: `${baseUrl}/`, token: 'xaat-admin', orgId: 'org_1', timeoutMs: 500 });

  it('sends the bearer token, the org header and JSON, and encodes path segments', async () => {
    answer = json(200, { id: 'a/b', name: 'a/b', description: 'd', kind: 'axiom:events:v1', created: 'now' });
    await api().updateDataset('a/b', { description: 'd', retentionDays: 0, useRetentionPeriod: false });
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/v2/datasets/a%2Fb' });
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer xaat-admin',
      'x-axiom-org-id': 'org_1',
      'content-type': 'application/json',
    });
    expect(JSON.parse(seen[0].body)).toEqual({
      description: 'd',
      retentionDays: 0,
      useRetentionPeriod: false,
    });
  });

  it('answers 204 with undefined and splits a minted token from its secret', async () => {
    answer = (_req, res) => res.writeHead(204).end();
    await expect(api().deleteRole('role_1')).resolves.toBeUndefined();
    answer = json(200, { id: 'tok_2', name: 'ci', token: 'xaat-secret' });
    const minted = await api().regenerateToken('tok_1', {
      existingTokenExpiresAt: '2026-01-01T00:10:00Z',
      newToken: {
        name: 'ci',
        description: '',
        expiresAt: null,
        orgCapabilities: {},
        datasetCapabilities: {},
        viewCapabilities: {},
      },
    });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/v2/tokens/tok_1/regenerate' });
    expect(minted).toEqual({ token: { id: 'tok_2', name: 'ci' }, secret: 'xaat-secret' });
  });

  it.each<[number, ManagementErrorKind]>([
    [400, 'Invalid'],
    [401, 'Unauthorized'],
    [403, 'Unauthorized'],
    [404, 'NotFound'],
    [409, 'Conflict'],
    [422, 'Invalid'],
    [429, 'Unavailable'],
    [500, 'Unavailable'],
    [502, 'Unavailable'],
    [503, 'Unavailable'],
  ])('classifies %d as %s, with the API message', async (status, kind) => {
    answer = json(status, { code: status, message: `the server says ${status}` });
    const err = await failure(api().getDataset('logs'));
    expect(err).toMatchObject({ kind, status });
    expect(err.message).toBe(`GET /v2/datasets/logs failed with ${status}: the server says ${status}`);
  });

  it('honours Retry-After in seconds', async () => {
    answer = json(503, { message: 'replaying the log' }, { 'Retry-After': '3' });
    expect(await failure(api().listDatasets())).toMatchObject({ kind: 'Unavailable', retryAfterMs: 3_000 });
  });

  it('shows a non-JSON error body as it came', async () => {
    answer = (_req, res) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('bad gateway');
    expect((await failure(api().listRoles())).message).toContain('failed with 502: bad gateway');
  });

  it('turns a call that outlives its timeout into Unavailable', async () => {
    answer = () => undefined; // never answers
    const err = await failure(api().listTokens());
    expect(err).toMatchObject({ kind: 'Unavailable' });
    expect(err.message).toContain('timed out after 500 ms');
  });

  it('turns a refused connection into Unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(
      new HttpManagementApi({ baseUrl: `http://127.0.0.1:${port}`, token: 't' }).listDatasets(),
    );
    expect(err.kind).toBe('Unavailable');
  });

  it('turns a 200 that is not JSON into Unavailable (a proxy answered, not Quarry)', async () => {
    answer = (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>');
    expect((await failure(api().listDatasets())).kind).toBe('Unavailable');
  });
});

describe('kindOfStatus and retryAfterMs', () => {
  it('does not classify successes', () => {
    expect(kindOfStatus(200)).toBeUndefined();
    expect(kindOfStatus(204)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
