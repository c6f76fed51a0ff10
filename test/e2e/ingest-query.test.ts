import { gzipSync } from 'node:zlib';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/** End-to-end over HTTP: datasets, every ingest format, the exact ingest status, both result formats. */
describe('ingest and query over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function createDataset(name: string) {
    const res = await server.request('POST', '/v2/datasets', { body: { name, description: 'e2e' } });
    expect(res.status).toBe(200);
    return res.json();
  }

  async function apl(apl: string, format = 'tabular', extra: Record<string, unknown> = {}) {
    const res = await server.request('POST', `/v1/datasets/_apl?format=${format}`, {
      body: { apl, ...extra },
    });
    const body = await res.json();
    return { status: res.status, body };
  }

  it('creates a dataset with the v2 shape and rejects duplicates and bad names', async () => {
    const created = await createDataset('e2e-shape');
    expect(created).toEqual({
      id: 'e2e-shape',
      name: 'e2e-shape',
      description: 'e2e',
      who: expect.any(String),
      created: expect.any(String),
      updatedAt: expect.any(String),
      kind: 'axiom:events:v1',
      edgeDeployment: 'local',
      mapFields: [],
      retentionDays: 0,
      useRetentionPeriod: false,
    });
    const again = await server.request('POST', '/v2/datasets', { body: { name: 'e2e-shape' } });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/already exists/);
    const bad = await server.request('POST', '/v2/datasets', { body: { name: '-bad name-' } });
    expect(bad.status).toBe(400);
    expect((await server.request('GET', '/v2/datasets/e2e-shape')).status).toBe(200);
    const list = await (await server.request('GET', '/v2/datasets')).json();
    expect(list.map((d: { name: string }) => d.name)).toContain('e2e-shape');
  });

  // Covers 'GET /v2/datasets/{dataset_id}' and 'PUT /v2/datasets/{dataset_id}'.
  it('updates a dataset description, and answers 404 and 400 for unknown names and bad bodies', async () => {
    await createDataset('e2e-update');
    const put = await server.request('PUT', '/v2/datasets/e2e-update', {
      body: { description: 'edge logs' },
    });
    expect(put.status).toBe(200);
    expect((await put.json()).description).toBe('edge logs');
    const got = await (await server.request('GET', '/v2/datasets/e2e-update')).json();
    expect(got).toMatchObject({ name: 'e2e-update', description: 'edge logs' });
    const unknown = await server.request('PUT', '/v2/datasets/e2e-nope', { body: { description: 'x' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toMatch(/not found/);
    const bad = await server.request('PUT', '/v2/datasets/e2e-update', { body: { description: 42 } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/description/);
  });

  it('ingests NDJSON with the exact status and answers the very next query', async () => {
    await createDataset('e2e-ndjson');
    const body =
      '{"_time":"2024-05-01T00:00:01Z","a":1,"nested":{"b":"x"}}\n{"_time":"2024-05-01T00:00:02Z","a":2}\n';
    const res = await server.request('POST', '/v1/ingest/e2e-ndjson', {
      body,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({
      ingested: 2,
      failed: 0,
      failures: [],
      processedBytes: Buffer.byteLength(body),
      blocksCreated: 0,
      walLength: 2,
    });
    const { status, body: result } = await apl("['e2e-ndjson'] | where a >= 1", 'tabular', {
      startTime: '2024-05-01T00:00:00Z',
      endTime: '2024-05-02T00:00:00Z',
    });
    expect(status).toBe(200);
    const table = result.tables[0];
    expect(table.fields.map((f: { name: string }) => f.name)).toEqual(['_sysTime', '_time', 'a', 'nested.b']);
    expect(rowsOf(table).map((r) => r.a)).toEqual([2, 1]); // _time descending by default
    expect(result.status.rowsExamined).toBe(2);
    expect(result.status.elapsedTime).toBeGreaterThan(0);
    expect(result.datasetNames).toEqual(['e2e-ndjson']);
    expect(result.fieldsMetaMap['e2e-ndjson'].map((f: { name: string }) => f.name)).toContain('nested.b');
  });

  it('ingests a JSON array, CSV, gzip and labels', async () => {
    await createDataset('e2e-formats');
    const json = await server.request('POST', '/v1/datasets/e2e-formats/ingest', {
      body: [
        { kind: 'array', n: 1 },
        { kind: 'array', n: 2 },
      ],
    });
    expect((await json.json()).ingested).toBe(2);

    const csv = 'kind,n\ncsv,3\ncsv,4\n';
    const csvRes = await server.request('POST', '/v1/ingest/e2e-formats', {
      body: csv,
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(await csvRes.json()).toMatchObject({ ingested: 2, failed: 0, processedBytes: csv.length });

    const labels = '{"region":"eu"}';
    const raw = '{"kind":"gzip","n":5}';
    const gz = await server.request('POST', '/v1/ingest/e2e-formats', {
      body: gzipSync(raw),
      headers: {
        'Content-Type': 'application/x-ndjson',
        'Content-Encoding': 'gzip',
        'X-Axiom-Event-Labels': labels,
      },
    });
    expect(await gz.json()).toMatchObject({ ingested: 1, processedBytes: raw.length + labels.length });

    const { body } = await apl("['e2e-formats'] | summarize c = count() by kind");
    const rows = rowsOf(body.tables[0]);
    expect(Object.fromEntries(rows.map((r) => [r.kind, r.c]))).toEqual({ array: 2, csv: 2, gzip: 1 });
    const region = await apl("['e2e-formats'] | where region == 'eu' | count");
    expect(rowsOf(region.body.tables[0])).toEqual([{ count: 1 }]);
  });

  it('counts malformed events as failures and rejects malformed bodies', async () => {
    await createDataset('e2e-bad');
    const res = await server.request('POST', '/v1/ingest/e2e-bad', {
      body: '{"ok":1}\n{not json}\n42\n',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
    const status = await res.json();
    expect(status.ingested).toBe(1);
    expect(status.failed).toBe(2);
    expect(status.failures).toHaveLength(2);
    expect(status.failures[0]).toEqual({
      timestamp: expect.any(String),
      error: expect.stringMatching(/line 2/),
    });

    const broken = await server.request('POST', '/v1/ingest/e2e-bad', {
      body: '[{"a":1},',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).message).toMatch(/JSON/);

    const missing = await server.request('POST', '/v1/ingest/no-such-dataset', { body: [{ a: 1 }] });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/not found/);
  });

  it('answers the legacy format with matches and buckets', async () => {
    await createDataset('e2e-legacy');
    await server.request('POST', '/v1/ingest/e2e-legacy', {
      body: [{ m: 'GET' }, { m: 'GET' }, { m: 'POST' }],
    });
    const raw = await apl("['e2e-legacy']", 'legacy');
    expect(raw.status).toBe(200);
    expect(raw.body.format).toBe('legacy');
    expect(raw.body.matches).toHaveLength(3);
    expect(raw.body.matches[0]).toEqual({
      _time: expect.any(String),
      _sysTime: expect.any(String),
      _rowId: expect.any(String),
      data: { m: expect.any(String) },
    });
    const agg = await apl("['e2e-legacy'] | summarize n = count() by m", 'legacy');
    const totals = agg.body.buckets.totals;
    expect(totals).toHaveLength(2);
    expect(totals.find((t: { group: { m: string } }) => t.group.m === 'GET').aggregations).toEqual([
      { op: 'n', value: 2 },
    ]);
    // legacy is the default format
    const res = await server.request('POST', '/v1/datasets/_apl', {
      body: { apl: "['e2e-legacy'] | count" },
    });
    expect((await res.json()).format).toBe('legacy');
  });

  it('rejects invalid queries with 400 and a position', async () => {
    const { status, body } = await apl("['e2e-legacy'] | frobnicate");
    expect(status).toBe(400);
    expect(body.message).toMatch(/frobnicate/);
    expect(body.message).toMatch(/1:\d+/);
    const unknown = await apl("['no-such-dataset'] | count");
    expect(unknown.status).toBe(404);
    const badTime = await apl("['e2e-legacy'] | count", 'tabular', { startTime: 'yesterday' });
    expect(badTime.status).toBe(400);
    expect(badTime.body.message).toMatch(/startTime/);
  });

  it('explains a query on request only: the plan, and no nodes on one process', async () => {
    const plain = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: "['e2e-legacy'] | where m == 'GET' | summarize count() by m" },
    });
    const plainStatus = (await plain.json()).status;
    expect(plainStatus.plan).toBeUndefined();
    expect(plainStatus.nodes).toBeUndefined();
    for (const path of ['/v1/datasets/_apl', '/v1/query/_apl']) {
      const res = await server.request('POST', `${path}?format=tabular&explain=true`, {
        body: { apl: "['e2e-legacy'] | where m == 'GET' | summarize count() by m" },
      });
      expect(res.status).toBe(200);
      const { status } = await res.json();
      expect(status.plan).toMatch(/scan/i);
      expect(status.plan).toMatch(/aggregate/i);
      expect(status.plan).toMatch(/GET/);
      expect(status.nodes).toEqual([]);
    }
    const bad = await server.request('POST', '/v1/datasets/_apl?explain=maybe', {
      body: { apl: "['e2e-legacy'] | count" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/explain must be "true" or "false"/);
  });

  it('accepts relative time bounds', async () => {
    await createDataset('e2e-relative');
    await server.request('POST', '/v1/ingest/e2e-relative', { body: [{ x: 1 }] });
    const recent = await apl("['e2e-relative'] | count", 'tabular', { startTime: 'now-1h', endTime: 'now' });
    expect(rowsOf(recent.body.tables[0])).toEqual([{ count: 1 }]);
    const old = await apl("['e2e-relative'] | count", 'tabular', { startTime: 'now-2d', endTime: 'now-1d' });
    expect(rowsOf(old.body.tables[0])).toEqual([{ count: 0 }]);
  });

  it('keeps data queryable across compaction and removes it with the dataset', async () => {
    await createDataset('e2e-delete');
    await server.request('POST', '/v1/ingest/e2e-delete', { body: [{ x: 1 }, { x: 2 }] });
    await server.quarry.storage.compactor!.flush();
    expect(server.quarry.storage.tail.rows).toBe(0);
    const compacted = await apl("['e2e-delete'] | summarize s = sum(x)");
    expect(rowsOf(compacted.body.tables[0])).toEqual([{ s: 3 }]);

    expect((await server.request('DELETE', '/v2/datasets/e2e-delete')).status).toBe(204);
    expect((await server.request('GET', '/v2/datasets/e2e-delete')).status).toBe(404);
    await createDataset('e2e-delete');
    const fresh = await apl("['e2e-delete'] | count");
    expect(rowsOf(fresh.body.tables[0])).toEqual([{ count: 0 }]);
  });
});
