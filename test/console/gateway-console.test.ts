import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '@quarry/gateway';
import { CONSOLE_DIST } from './console-harness';

/** The cluster's gateway serves the same built console at `/`, and still forwards the API. */
describe('console: served by the gateway', () => {
  let upstream: http.Server;
  let gateway: RunningGateway;
  const seen: string[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html')))
      throw new Error(`the console is not built (${CONSOLE_DIST}): run npm run build`);
    // One upstream for every pool: it answers probes and records what the gateway forwards.
    upstream = http.createServer((req, res) => {
      if (req.url !== '/readyz') seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await startGateway({
      port: 0,
      host: '127.0.0.1',
      upstreams: { ingest: [url], query: [url], management: [url] },
      healthIntervalMs: 60_000,
      upstreamTimeoutMs: 10_000,
      logLevel: 'error',
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('answers / and deep links with the console, hashed assets as immutable, and forwards /v1 and /v2', async () => {
    for (const p of ['/', '/dashboards/ops', '/query?apl=x']) {
      const res = await fetch(gateway.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    }
    const html = await (await fetch(gateway.url + '/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(gateway.url + script);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(seen).toEqual([]);

    expect((await fetch(`${gateway.url}/v2/datasets`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/v1/datasets/x/ingest`, { method: 'POST', body: '[]' })).status).toBe(
      200,
    );
    expect(seen).toEqual(['GET /v2/datasets', 'POST /v1/datasets/x/ingest']);
    expect((await fetch(`${gateway.url}/healthz`)).headers.get('content-type')).toMatch(/json/);
  });
});
