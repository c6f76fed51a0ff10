import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The v1 operations of Axiom's OpenAPI documents (v1.json, v1-edge-ingest.json, v1-edge-query.json) that
 * other suites exercise only in passing: each here by the name the coverage table gives it
 * (docs/api-coverage.md), with what its answer must say.
 */
const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const WINDOW = `?start=2025-05-01T00:00:00Z&end=2025-05-01T02:00:00Z`;

describe('the v1 API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const body = async (res: Response) => (await res.json()) as Record<string, unknown>;

  describe('datasets', () => {
    it("'GET /v1/datasets/{dataset_name}', 'PUT /v1/datasets/{dataset_name}', 'DELETE /v1/datasets/{dataset_name}'", async () => {
      expect((await server.request('POST', '/v1/datasets', { body: { name: 'v1-ds' } })).status).toBe(200);
      const got = await server.request('GET', '/v1/datasets/v1-ds');
      expect(got.status).toBe(200);
      expect(await body(got)).toMatchObject({ name: 'v1-ds', description: '' });

      const put = await server.request('PUT', '/v1/datasets/v1-ds', { body: { description: 'renamed' } });
      expect(put.status).toBe(200);
      expect(await body(put)).toMatchObject({ name: 'v1-ds', description: 'renamed' });
      expect(await body(await server.request('GET', '/v1/datasets/v1-ds'))).toMatchObject({
        description: 'renamed',
      });

      expect((await server.request('DELETE', '/v1/datasets/v1-ds')).status).toBe(204);
      expect((await server.request('GET', '/v1/datasets/v1-ds')).status).toBe(404);
      expect((await server.request('DELETE', '/v1/datasets/v1-ds')).status).toBe(404);
    });

    it("'POST /v1/datasets/{dataset_name}/ingest' and 'POST /v1/ingest/{dataset-id}' store what they acknowledge", async () => {
      await server.request('POST', '/v1/datasets', { body: { name: 'v1-ingest' } });
      const a = await server.request('POST', '/v1/datasets/v1-ingest/ingest', { body: [{ n: 1 }, { n: 2 }] });
      expect(await body(a)).toMatchObject({ ingested: 2, failed: 0 });
      const b = await server.request('POST', '/v1/ingest/v1-ingest', { body: [{ n: 3 }] });
      expect(await body(b)).toMatchObject({ ingested: 1, failed: 0 });
      const count = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
        body: { apl: "['v1-ingest'] | summarize c = count(), s = sum(n)" },
      });
      const table = ((await body(count)).tables as { columns: unknown[][] }[])[0];
      expect(table.columns).toEqual([[3], [6]]);
      expect((await server.request('POST', '/v1/ingest/nope', { body: [{ n: 1 }] })).status).toBe(404);
    });

    it("'POST /v1/datasets/{dataset_name}/trim' checks its duration and answers", async () => {
      await server.request('POST', '/v1/datasets', { body: { name: 'v1-trim' } });
      const ok = await server.request('POST', '/v1/datasets/v1-trim/trim', { body: { maxDuration: '1h' } });
      expect(ok.status).toBe(200);
      const bad = await server.request('POST', '/v1/datasets/v1-trim/trim', {
        body: { maxDuration: 'soon' },
      });
      expect(bad.status).toBe(400);
      expect(String((await body(bad)).message)).toMatch(/maxDuration/);
    });
  });

  describe('metrics info', () => {
    beforeAll(async () => {
      await server.request('POST', '/v2/datasets', { body: { name: 'v1-metrics', kind: 'otel:metrics:v1' } });
      const dataPoints = ['a', 'b'].map((host, i) => ({
        timeUnixNano: String(BigInt(T0 + 60) * 1_000_000_000n),
        asDouble: i + 1,
        attributes: [{ key: 'host', value: { stringValue: host } }],
      }));
      const res = await server.request('POST', '/v1/metrics', {
        headers: { 'x-axiom-metrics-dataset': 'v1-metrics' },
        body: {
          resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'load', gauge: { dataPoints } }] }] }],
        },
      });
      expect(res.status).toBe(200);
    });
    const get = async (path: string) => {
      const res = await server.request('GET', `/v1/query/metrics/info/datasets/v1-metrics${path}${WINDOW}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return res.json();
    };

    it("'GET /v1/query/metrics/info/datasets/{dataset}/metrics' lists the metrics", async () => {
      expect(await get('/metrics')).toEqual(['load']);
    });

    it("'POST /v1/query/metrics/info/datasets/{dataset}/metrics' finds metrics by a tag value", async () => {
      const res = await server.request(
        'POST',
        `/v1/query/metrics/info/datasets/v1-metrics/metrics${WINDOW}`,
        {
          body: { value: 'b' },
        },
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ load: ['host'] });
    });

    it("'GET /v1/query/metrics/info/datasets/{dataset}/metrics/{metric}/tags' and its values", async () => {
      expect(await get('/metrics/load/tags')).toEqual(['host']);
      // 'GET /v1/query/metrics/info/datasets/{dataset}/metrics/{metric}/tags/{tag}/values'
      expect(((await get('/metrics/load/tags/host/values')) as unknown[]).sort()).toEqual(['a', 'b']);
    });

    it("'GET /v1/query/metrics/info/datasets/{dataset}/tags' and its values", async () => {
      expect(await get('/tags')).toEqual(['host']);
      // 'GET /v1/query/metrics/info/datasets/{dataset}/tags/{tag}/values'
      expect(((await get('/tags/host/values')) as unknown[]).sort()).toEqual(['a', 'b']);
    });
  });
});
