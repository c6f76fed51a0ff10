import { gzipSync } from 'node:zlib';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 17, the remaining limits: events dated before 1970 fail at ingest with a reason instead of being
 * acknowledged and then returned by no query, and Axiom's query-cost headers (X-QueryLimit-*) with an
 * ingest quota charged after decompression.
 */
describe('events dated before 1970', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: 'old' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const ingest = (body: string, contentType: string) =>
    server.request('POST', '/v1/datasets/old/ingest', { body, headers: { 'Content-Type': contentType } });

  /** Every stored event's `n`, over a window that starts long before 1970. */
  const storedNs = async (): Promise<number[]> => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: {
        apl: "['old'] | project n | sort by n asc",
        startTime: '1900-01-01T00:00:00Z',
        endTime: '2100-01-01T00:00:00Z',
      },
    });
    expect(res.status).toBe(200);
    return rowsOf((await res.json()).tables[0]).map((r) => Number(r.n));
  };

  it('fails each such event in `failures` and stores the others, before and after compaction', async () => {
    const ndjson = await ingest(
      [
        '{"_time":"1969-12-31T23:59:59.999Z","n":1}',
        '{"_time":"2024-05-01T00:00:00Z","n":2}',
        '{"_time":"1901-06-01T12:00:00Z","n":3}',
      ].join('\n'),
      'application/x-ndjson',
    );
    expect(ndjson.status).toBe(200);
    const status = await ndjson.json();
    expect(status).toMatchObject({ ingested: 1, failed: 2 });
    expect(status.failures).toHaveLength(2);
    for (const f of status.failures) {
      expect(typeof f.timestamp).toBe('string');
      expect(f.error).toMatch(/is before 1970-01-01T00:00:00Z/);
    }

    const json = await ingest(
      JSON.stringify([
        { _time: '1970-01-01T00:00:00Z', n: 4 },
        { _time: '1950-01-01T00:00:00Z', n: 5 },
      ]),
      'application/json',
    );
    expect(await json.json()).toMatchObject({ ingested: 1, failed: 1 });
    const csv = await ingest('_time,n\n1969-07-20T20:17:40Z,6\n2025-01-01T00:00:00Z,7', 'text/csv');
    expect(await csv.json()).toMatchObject({ ingested: 1, failed: 1 });

    // Acknowledged = returned, from the uncompacted tail and then from blocks.
    expect(await storedNs()).toEqual([2, 4, 7]);
    await server.compact();
    const tail = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(tail).toMatch(/^quarry_tail_rows 0$/m);
    expect(await storedNs()).toEqual([2, 4, 7]);
    const count = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: "['old'] | count" },
    });
    expect(rowsOf((await count.json()).tables[0])[0]).toEqual({ count: 3 });
  });
});

describe('query-cost headers and the ingest quota after decompression', () => {
  let server: TestServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    // Admission limits come from the environment (loadAdmissionLimits(process.env)).
    process.env.QUARRY_QUERY_COST_BUDGET_GBMS = '3';
    process.env.QUARRY_INGEST_QUOTA_BYTES = '1000';
    server = await startTestServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: 'costs' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    process.env = saved;
  });

  it('answers queries with X-QueryLimit-* until the budget is spent, then 429 with all three', async () => {
    const remaining: number[] = [];
    let refused: Response | null = null;
    // Every query costs at least 1 GB·ms: a budget of 3 is spent after at most 3 queries.
    for (let i = 0; i < 4 && refused === null; i++) {
      const res =
        i % 2 === 0
          ? await server.request('POST', '/v1/datasets/_apl?format=tabular', {
              body: { apl: "['costs'] | count" },
            })
          : await server.request('POST', '/v1/datasets/costs/query', {
              body: {
                startTime: '2020-01-01T00:00:00Z',
                endTime: '2030-01-01T00:00:00Z',
                resolution: 'auto',
              },
            });
      if (res.status === 429) {
        refused = res as unknown as Response;
        break;
      }
      expect(res.status).toBe(200);
      expect(res.headers.get('x-querylimit-limit')).toBe('3');
      expect(Number(res.headers.get('x-querylimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      remaining.push(Number(res.headers.get('x-querylimit-remaining')));
    }
    expect(remaining.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < remaining.length; i++) expect(remaining[i]).toBeLessThan(remaining[i - 1]);
    expect(refused).not.toBeNull();
    expect(await refused!.json()).toMatchObject({ message: 'query limit exceeded' });
    expect(refused!.headers.get('x-querylimit-limit')).toBe('3');
    expect(refused!.headers.get('x-querylimit-remaining')).toBe('0');
    expect(Number(refused!.headers.get('x-querylimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/quarry_admission_rejections_total\{reason="query_cost"\} 1/);
    // Ingest and management answers carry no query headers.
    const other = await server.request('GET', '/v2/datasets');
    expect(other.headers.get('x-querylimit-limit')).toBeNull();
  });

  it('charges the ingest quota the bytes after decompression (processedBytes), not the gzip bytes sent', async () => {
    const ndjson = Array.from({ length: 9 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(80) })).join('\n');
    const raw = Buffer.from(ndjson);
    const gz = gzipSync(raw);
    expect(gz.length).toBeLessThan(raw.length / 3);
    const send = () =>
      server.request('POST', '/v1/datasets/costs/ingest', {
        body: gz,
        headers: { 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip' },
      });
    const first = await send();
    expect(first.status).toBe(200);
    expect((await first.json()).processedBytes).toBe(raw.length);
    // The headers say what was left before the request: after one body, 1000 − its inflated size.
    const second = await send();
    expect(second.status).toBe(200);
    expect(Number(second.headers.get('x-ingestlimit-remaining'))).toBe(1000 - raw.length);
    const third = await send();
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ingestlimit-remaining')).toBe('0');
  });
});
