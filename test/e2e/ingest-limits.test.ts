import { startTestServer, type TestServer } from '../support/test-server';

// `printf '{"a":1,"_time":"2024-05-01T00:00:00Z"}\n{"b":"x"}\n' | zstd -c | base64`
const ZSTD_NDJSON = 'KLUv/QRYiQEAeyJhIjoxLCJfdGltZSI6IjIwMjQtMDUtMDFUMDA6MDA6MDBaIn0KeyJiIjoieCJ9Cu2tgq4=';

/** Limits and encodings over HTTP: every refusal is a 4xx with a JSON message, never a 500. */
describe('ingest limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ QUARRY_MAX_BODY_BYTES: '65536' });
    await server.request('POST', '/v2/datasets', { body: { name: 'limits' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const ingest = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
    server.request('POST', '/v1/ingest/limits', {
      body,
      headers: { 'Content-Type': 'application/x-ndjson', ...headers },
    });

  it('answers 413 for a body over QUARRY_MAX_BODY_BYTES', async () => {
    const res = await ingest('{"a":"' + 'x'.repeat(70_000) + '"}');
    expect(res.status).toBe(413);
    expect(typeof (await res.json()).message).toBe('string');
  });

  it('answers 400 for more than 10,000 events in one request', async () => {
    const res = await ingest(Array.from({ length: 10_001 }, () => '{}').join('\n'));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/10,?000/);
  });

  it('fails events with over-long field names, keeping the others', async () => {
    const res = await ingest(`{"${'k'.repeat(201)}":1}\n{"ok":true}`);
    const status = await res.json();
    expect(status).toMatchObject({ ingested: 1, failed: 1 });
    expect(status.failures[0].error).toMatch(/200/);
  });

  it('decodes zstd bodies and refuses unknown encodings with 415', async () => {
    const zstd = await ingest(Buffer.from(ZSTD_NDJSON, 'base64'), { 'Content-Encoding': 'zstd' });
    expect(await zstd.json()).toMatchObject({ ingested: 2, failed: 0 });
    const weird = await ingest('{"a":1}', { 'Content-Encoding': 'lzma' });
    expect(weird.status).toBe(415);
    expect((await weird.json()).message).toMatch(/lzma/);
  });

  it('honours timestamp-field and timestamp-format', async () => {
    const res = await server.request(
      'POST',
      '/v1/ingest/limits?timestamp-field=ts&timestamp-format=' + encodeURIComponent('02/01/2006 15:04:05'),
      {
        body: '{"ts":"03/05/2024 10:00:00","tagged":"yes"}',
        headers: { 'Content-Type': 'application/x-ndjson' },
      },
    );
    expect(await res.json()).toMatchObject({ ingested: 1 });
    const q = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: {
        apl: "['limits'] | where tagged == 'yes' | project _time",
        startTime: '2024-05-03T00:00:00Z',
        endTime: '2024-05-04T00:00:00Z',
      },
    });
    expect((await q.json()).tables[0].columns[0]).toEqual(['2024-05-03T10:00:00Z']);
  });
});

describe('metrics', () => {
  it('exposes Prometheus counters for ingest, queries and storage', async () => {
    const server = await startTestServer();
    try {
      await server.request('POST', '/v2/datasets', { body: { name: 'm' } });
      await server.request('POST', '/v1/ingest/m', { body: [{ a: 1 }, { a: 2 }] });
      await server.request('POST', '/v1/datasets/_apl', { body: { apl: "['m'] | count" } });
      await server.request('POST', '/v1/datasets/_apl', { body: { apl: "['m'] | frobnicate" } });
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/^quarry_ingest_events_total\{result="ingested"\} 2$/m);
      expect(text).toMatch(/^quarry_query_requests_total\{outcome="ok"\} 1$/m);
      expect(text).toMatch(/^quarry_query_requests_total\{outcome="invalid"\} 1$/m);
      expect(text).toMatch(/^quarry_tail_rows \d+$/m);
      expect(text).toMatch(/^quarry_ready 1$/m);
      // After a compaction the block gauges count the block, and the query above filled the column cache.
      await server.quarry.storage.compactor!.flush();
      await server.request('POST', '/v1/datasets/_apl', { body: { apl: "['m'] | summarize sum(a)" } });
      const after = await (await fetch(`${server.url}/metrics`)).text();
      expect(after).toMatch(/^quarry_blocks 1$/m);
      expect(after).toMatch(/^quarry_block_rows 2$/m);
      expect(Number(/^quarry_block_bytes (\d+)$/m.exec(after)?.[1])).toBeGreaterThan(0);
      expect(Number(/^quarry_column_cache_bytes (\d+)$/m.exec(after)?.[1])).toBeGreaterThan(0);
      expect(after).toMatch(/^quarry_merged_blocks 0$/m);
    } finally {
      await server.close();
    }
  });
});
