import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import { Readable } from 'node:stream';
import type { GatewayConfig } from './config';
import { startGateway, type RunningGateway } from './gateway';
import type { PoolName } from './routes';
import { closedPortUrl, FakeUpstream, send, sendJson, sha256, waitFor } from './testing/fake-upstream';

/** A long interval: after the first probe round, health changes only through forwarded requests. */
const NO_PROBES = 60_000;

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function upstream(name: string): Promise<FakeUpstream> {
  const fake = await FakeUpstream.start(name);
  running.push(fake);
  return fake;
}

async function gateway(
  upstreams: Partial<Record<PoolName, string[]>>,
  options: Partial<GatewayConfig> = {},
): Promise<RunningGateway> {
  const spare = await upstream('spare');
  const started = await startGateway({
    port: 0,
    host: '127.0.0.1',
    upstreams: {
      ingest: upstreams.ingest ?? [spare.url],
      query: upstreams.query ?? [spare.url],
      management: upstreams.management ?? [spare.url],
    },
    healthIntervalMs: NO_PROBES,
    upstreamTimeoutMs: 30_000,
    logLevel: (process.env.GATEWAY_TEST_LOG as GatewayConfig['logLevel']) ?? 'error',
    ...options,
  });
  running.push(started);
  return started;
}

const apl = (text = "['logs'] | count") =>
  ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xaat-test' },
    body: JSON.stringify({ apl: text }),
  }) as const;

const ingest = (body: Buffer) =>
  ({
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: 'Bearer xaat-test' },
    body,
  }) as const;

describe('gateway', () => {
  it("never forwards the nodes' internal RPC: /internal/ answers 404 from the gateway", async () => {
    const query = await upstream('query');
    const management = await upstream('management');
    const gw = await gateway({ query: [query.url], management: [management.url] });
    const res = await send(`${gw.url}/internal/v1/aggregate`, { method: 'POST', body: Buffer.from('x') });
    expect(res.status).toBe(404);
    expect(query.requests.filter((r) => r.url.startsWith('/internal'))).toEqual([]);
    expect(management.requests.filter((r) => r.url.startsWith('/internal'))).toEqual([]);
  });

  it('routes each request to the pool of its role and serves its own endpoints', async () => {
    const [ing, qry, mgmt] = await Promise.all([
      upstream('ingest'),
      upstream('query'),
      upstream('management'),
    ]);
    const gw = await gateway({ ingest: [ing.url], query: [qry.url], management: [mgmt.url] });

    expect((await send(`${gw.url}/v1/datasets/logs/ingest`, ingest(Buffer.from('{}\n')))).json()).toEqual({
      upstream: 'ingest',
    });
    expect((await send(`${gw.url}/v1/datasets/_apl?format=tabular`, apl())).json()).toEqual({
      upstream: 'query',
    });
    expect((await send(`${gw.url}/v1/datasets/logs`)).json()).toEqual({ upstream: 'management' });
    expect((await send(`${gw.url}/v2/datasets`, { method: 'DELETE' })).json()).toEqual({
      upstream: 'management',
    });
    expect(qry.requests.map((r) => r.url)).toEqual(['/v1/datasets/_apl?format=tabular']);

    const health = await send(`${gw.url}/healthz`);
    expect([health.status, health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await send(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', pools: { query: { healthy: 1, members: 1 } } });
    expect((await send(`${gw.url}/metrics`, { method: 'POST' })).status).toBe(405);
    expect([ing, qry, mgmt].flatMap((u) => u.requests).length).toBe(4);
  });

  it('spreads requests over the members of a pool', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    const gw = await gateway({ query: [a.url, b.url] });
    for (let i = 0; i < 6; i++) expect((await send(`${gw.url}/v1/query/_apl`, apl())).status).toBe(200);
    expect([a.requests.length, b.requests.length]).toEqual([3, 3]);
  });

  it('skips a member that is down from the start', async () => {
    const b = await upstream('b');
    const gw = await gateway({ ingest: [await closedPortUrl(), b.url] });
    for (let i = 0; i < 3; i++) {
      const res = await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{"a":1}\n')));
      expect([res.status, res.json()]).toEqual([200, { upstream: 'b' }]);
    }
    expect(b.requests.length).toBe(3);
  });

  it('retries an ingest body on another member when a connection is refused, and takes the member out', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    const gw = await gateway({ ingest: [a.url, b.url] });
    await a.close(); // went away after the last probe: only the refused connection tells
    const body = randomBytes(3 * 1024 * 1024);

    const first = await send(`${gw.url}/v1/ingest/logs`, ingest(body));
    expect([first.status, first.json()]).toEqual([200, { upstream: 'b' }]);
    expect(b.requests[0]).toMatchObject({ bytes: body.length, sha256: sha256(body) });
    await send(`${gw.url}/v1/ingest/logs`, ingest(body));
    expect(b.requests.length).toBe(2);

    const metrics = (await send(`${gw.url}/metrics`)).body.toString();
    expect(metrics).toContain('quarry_gateway_retries_total{pool="ingest",reason="connect"} 1');
    expect(metrics).toContain('quarry_gateway_healthy_members{pool="ingest"} 1');
  });

  it('stops sending to a member whose /readyz fails, and sends again once it recovers', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    const gw = await gateway({ management: [a.url, b.url] }, { healthIntervalMs: 20 });
    const healthy = async () =>
      /quarry_gateway_healthy_members\{pool="management"\} (\d+)/.exec(
        (await send(`${gw.url}/metrics`)).body.toString(),
      )![1];

    a.ready = false;
    await waitFor(async () => (await healthy()) === '1');
    const before = a.requests.length;
    for (let i = 0; i < 4; i++)
      expect((await send(`${gw.url}/v2/datasets`)).json()).toEqual({ upstream: 'b' });
    expect(a.requests.length).toBe(before);

    a.ready = true;
    await waitFor(async () => (await healthy()) === '2');
    for (let i = 0; i < 4; i++) await send(`${gw.url}/v2/datasets`);
    expect(a.requests.length).toBe(before + 2);
  });

  it('answers 503 JSON with Retry-After when no member of the pool is healthy', async () => {
    const gw = await gateway({ ingest: [await closedPortUrl(), await closedPortUrl()] });
    const res = await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{}\n')));
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.json()).toMatchObject({ code: 503, message: 'no healthy ingest node is available' });

    const ready = await send(`${gw.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ message: 'no healthy node in pool: ingest' });
  });

  it('answers 503 when every member refuses the connection', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    const gw = await gateway({ ingest: [a.url, b.url] });
    await Promise.all([a.close(), b.close()]);
    const res = await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{}\n')));
    expect([res.status, res.json()]).toEqual([
      503,
      expect.objectContaining({ message: 'no healthy ingest node is available' }),
    ]);
  });

  it('retries a query on another member when the first dies before answering', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    a.handle = (req) => req.socket.destroy(); // SIGKILLed mid-query
    const gw = await gateway({ query: [a.url, b.url] });

    const res = await send(`${gw.url}/v1/datasets/_apl`, apl());
    expect([res.status, res.json()]).toEqual([200, { upstream: 'b' }]);
    expect(a.requests.length).toBe(1);
    expect(b.requests.map((r) => r.sha256)).toEqual([a.requests[0].sha256]);
    expect((await send(`${gw.url}/metrics`)).body.toString()).toContain(
      'quarry_gateway_retries_total{pool="query",reason="lost"} 1',
    );
  });

  it('does not retry an ingest request whose body reached a member that then died', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    a.handle = (req) => req.socket.destroy();
    const gw = await gateway({ ingest: [a.url, b.url] });

    const res = await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{"a":1}\n')));
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({ code: 502, error: 'gateway_upstream_lost' });
    expect(a.requests.length).toBe(1);
    expect(b.requests.length).toBe(0);
  });

  it('streams a 10 MiB compressed body byte for byte, with its headers', async () => {
    const b = await upstream('b');
    const gw = await gateway({ ingest: [b.url] });
    const body = randomBytes(10 * 1024 * 1024);
    const chunks = Array.from({ length: 160 }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));

    const res = await send(`${gw.url}/v1/datasets/logs/ingest?timestamp-field=ts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-ndjson',
        'content-encoding': 'zstd',
        authorization: 'Bearer xaat-test',
        'x-axiom-org-id': 'org-1',
        host: 'quarry.example.com',
      },
      body: Readable.from(chunks), // no length: sent chunked
    });
    expect(res.status).toBe(200);
    const seen = b.requests[0];
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/datasets/logs/ingest?timestamp-field=ts' });
    expect([seen.bytes, seen.sha256]).toEqual([body.length, sha256(body)]);
    expect(seen.headers).toMatchObject({
      'content-type': 'application/x-ndjson',
      'content-encoding': 'zstd',
      authorization: 'Bearer xaat-test',
      'x-axiom-org-id': 'org-1',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'quarry.example.com',
    });
  });

  it('passes a long query body through once', async () => {
    const b = await upstream('b');
    const gw = await gateway({ query: [b.url] });
    const body = Buffer.from(
      JSON.stringify({ apl: `['logs'] | where msg == '${'x'.repeat(3 * 1024 * 1024)}'` }),
    );
    const res = await send(`${gw.url}/v1/datasets/_apl`, { ...apl(), body });
    expect(res.status).toBe(200);
    expect(b.requests[0]).toMatchObject({ bytes: body.length, sha256: sha256(body) });
  });

  it('passes upstream statuses, headers and error bodies through unchanged', async () => {
    const b = await upstream('b');
    b.handle = (_req, res) =>
      sendJson(
        res,
        429,
        { code: 429, message: 'slow down' },
        { 'retry-after': '7', 'x-axiom-trace-id': 't-1' },
      );
    const gw = await gateway({ ingest: [b.url] });

    const res = await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{}\n')));
    expect(res.status).toBe(429);
    expect(res.headers).toMatchObject({ 'retry-after': '7', 'x-axiom-trace-id': 't-1' });
    expect(res.json()).toEqual({ code: 429, message: 'slow down' });
    expect(b.requests.length).toBe(1);
  });

  it('answers 504 when a member does not answer in time, without retrying', async () => {
    const [a, b] = await Promise.all([upstream('a'), upstream('b')]);
    a.handle = () => undefined; // never answers
    const gw = await gateway({ query: [a.url, b.url] }, { upstreamTimeoutMs: 300 });
    const res = await send(`${gw.url}/v1/query/_apl`, apl());
    expect([res.status, res.json()]).toEqual([
      504,
      expect.objectContaining({ error: 'gateway_upstream_timeout' }),
    ]);
    expect(b.requests.length).toBe(0);
  });

  it('does not take a member out when the client goes away mid-upload', async () => {
    const b = await upstream('b');
    const gw = await gateway({ ingest: [b.url] });
    const { port } = new URL(gw.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/ingest/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: 1000000\r\n\r\n',
    );
    socket.write(Buffer.alloc(100_000, 0x20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();

    const metric = async (name: string) =>
      new RegExp(`${name}\\{pool="ingest"\\} (\\d+)`).exec(
        (await send(`${gw.url}/metrics`)).body.toString(),
      )![1];
    await waitFor(async () => (await metric('quarry_gateway_in_flight_requests')) === '0');
    expect(await metric('quarry_gateway_healthy_members')).toBe('1');
    expect((await send(`${gw.url}/v1/ingest/logs`, ingest(Buffer.from('{}\n')))).status).toBe(200);
  });

  it('exposes its counters on /metrics', async () => {
    const b = await upstream('b');
    const gw = await gateway({ query: [b.url] });
    await send(`${gw.url}/v1/query/_apl`, apl());
    b.handle = (_req, res) => sendJson(res, 400, { message: 'bad query' });
    await send(`${gw.url}/v1/query/_apl`, apl());

    const res = await send(`${gw.url}/metrics`);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body.toString();
    expect(text).toContain('quarry_gateway_requests_total{pool="query",status="2xx"} 1');
    expect(text).toContain('quarry_gateway_requests_total{pool="query",status="4xx"} 1');
    expect(text).toContain('quarry_gateway_upstream_duration_seconds_count{pool="query"} 2');
    expect(text).toContain('quarry_gateway_healthy_members{pool="query"} 1');
    expect(text).toContain('quarry_gateway_members{pool="ingest"} 1');
    expect(text).toContain('quarry_gateway_process_cpu_seconds_total');
  });
});
