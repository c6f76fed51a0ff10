import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '@quarry/gateway';
import { loadConfig, startQuarry, type QuarryApp } from '@quarry/server';
import { ALL_ROLES, TEST_TOKEN } from '../support/test-server';

/**
 * Issue 17: a node's refusals reach the client through the gateway unchanged — 429 with the X-RateLimit
 * headers and 503 with Retry-After — so clients back off the same way in both shapes.
 */
describe('overload through the gateway', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-overload-gw-'));
  let quarry: QuarryApp;
  let gateway: RunningGateway;

  beforeAll(async () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      QUARRY_DATA_DIR: dir,
      QUARRY_BOOTSTRAP_TOKEN: TEST_TOKEN,
      QUARRY_LOG_LEVEL: 'error',
    });
    quarry = await startQuarry(config, ALL_ROLES, {
      admission: { queryMaxConcurrent: 1, queryMaxQueued: 0, rateLimitPerMinute: 40 },
    });
    gateway = await startGateway({
      port: 0,
      host: '127.0.0.1',
      upstreams: { ingest: [quarry.url], query: [quarry.url], management: [quarry.url] },
      healthIntervalMs: 60_000,
      upstreamTimeoutMs: 30_000,
      logLevel: 'error',
    });
  });
  afterAll(async () => {
    await gateway.close();
    await quarry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (p: string, body: unknown) =>
    fetch(`${gateway.url}${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('passes 503 + Retry-After and 429 + X-RateLimit-* through', async () => {
    expect((await post('/v2/datasets', { name: 'gw' })).status).toBe(200);
    // The node's only query slot is taken (as by a long query) while eight queries arrive.
    const hold = await quarry.admission.acquireQuery(() => {});
    if (typeof hold !== 'function') throw new Error(`could not take the query slot: ${String(hold)}`);
    const query = () =>
      post('/v1/datasets/_apl?format=tabular', { apl: "['gw'] | count" }).then(async (r) => ({
        status: r.status,
        retryAfter: r.headers.get('retry-after'),
        limit: r.headers.get('x-ratelimit-limit'),
        body: (await r.json()) as { message?: unknown },
      }));
    const queries = await Promise.all(Array.from({ length: 8 }, query));
    hold();
    queries.push(await query());
    // No queue on the node: all eight are refused at once; once the slot is free a query runs.
    expect(queries.map((q) => q.status)).toEqual([...Array(8).fill(503), 200]);
    const refused = queries.filter((q) => q.status === 503);
    for (const q of refused) {
      expect(q.retryAfter).toBe('1');
      expect(q.limit).toBe('40');
      expect(typeof q.body.message).toBe('string');
    }

    let last: Response | undefined;
    for (let i = 0; i < 40 && last?.status !== 429; i++) {
      last = await fetch(`${gateway.url}/v2/datasets`, {
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
    }
    expect(last!.status).toBe(429);
    expect(await last!.json()).toMatchObject({ message: 'rate limit exceeded' });
    for (const h of [
      'x-ratelimit-scope',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'retry-after',
    ]) {
      expect(last!.headers.get(h)).not.toBeNull();
    }
  });
});
