import { startTestServer, type TestServer } from '../support/test-server';

const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const RANGE = { startTime: '2025-05-01T00:00:00Z', endTime: '2025-05-01T01:00:00Z' };

/** A gauge point `minute` minutes after T0 with one string tag. */
const point = (tag: string, value: string, minute: number, asDouble: number) => ({
  timeUnixNano: String(BigInt(T0 + 60 * minute) * 1_000_000_000n),
  asDouble,
  attributes: [{ key: tag, value: { stringValue: value } }],
});

/** An OTLP/JSON request with one gauge metric. */
const gauge = (name: string, dataPoints: ReturnType<typeof point>[]) => ({
  resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name, gauge: { dataPoints } }] }] }],
});

/** The MPL endpoint's HTTP contract: formats, body variants, params, the spec, and errors. */
describe('POST /v1/query/_mpl', () => {
  let server: TestServer;
  const query = (path: string, body: object, headers: Record<string, string> = {}) =>
    server.request('POST', path, { body, headers });
  const ingest = (body: object) =>
    server.request('POST', '/v1/metrics', { headers: { 'x-axiom-metrics-dataset': 'mq' }, body });

  beforeAll(async () => {
    // Small query limits, so the limit test needs little data (the other tests stay far below them).
    server = await startTestServer({
      QUARRY_METRICS_MAX_QUERY_SERIES: '3',
      QUARRY_METRICS_MAX_QUERY_CELLS: '1000',
    });
    await server.request('POST', '/v2/datasets', { body: { name: 'mq', kind: 'otel:metrics:v1' } });
    await server.request('POST', '/v2/datasets', { body: { name: 'mq-events' } });
    // Two gauge series, one point a minute for an hour: host a = minute index, host b = 100.
    const res = await ingest(
      gauge(
        'load',
        Array.from({ length: 60 }, (_, i) => [point('host', 'a', i, i), point('host', 'b', i, 100)]).flat(),
      ),
    );
    expect(res.status).toBe(200);
  });
  afterAll(() => server.close());

  it('answers metrics-v1, v2 (default) and v3 (by Accept) with their content types', async () => {
    const mpl = 'mq:load | align to 30m using avg | group using max';
    const v1 = await query('/v1/query/_mpl?format=metrics-v1', { mpl, ...RANGE });
    expect(v1.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await v1.json()).toEqual([
      { metric: 'load', tags: {}, start: T0, resolution: 1800, data: [100, 100] },
    ]);

    const v2 = await query('/v1/query/_mpl', {
      mpl: 'mq:load | where host == "a" | align to 30m using avg',
      ...RANGE,
    });
    expect(v2.headers.get('content-type')).toMatch(/^application\/vnd\.metrics\.v2\+json/);
    const body = await v2.json();
    expect(body.series).toEqual([
      { metric: 'load', tags: { host: 'a' }, start: T0, resolution: 1800, data: [14.5, 44.5], summary: 44.5 },
    ]);

    const v3 = await query(
      '/v1/query/_mpl',
      { mpl, ...RANGE },
      { Accept: 'application/vnd.metrics.v3+json' },
    );
    expect(v3.headers.get('content-type')).toMatch(/^application\/vnd\.metrics\.v3\+json/);
    expect((await v3.json()).series[0].summary).toBeUndefined();
  });

  it('takes `apl` on the legacy path and params from the query string and the body', async () => {
    const mpl = 'param $h: string; param $w: Duration; mq:load | where host == $h | align to $w using max';
    const legacy = await query(`/v1/query/_metrics?format=metrics-v1&param__h=${encodeURIComponent('"a"')}`, {
      apl: mpl,
      ...RANGE,
      params: { param__w: '1h' },
    });
    expect(legacy.status).toBe(200);
    expect((await legacy.json()).map((s: { data: unknown }) => s.data)).toEqual([[59]]);
  });

  it('serves the language spec as Markdown on OPTIONS without a token', async () => {
    const res = await fetch(`${server.url}/v1/query/_mpl`, {
      method: 'OPTIONS',
      headers: { Accept: 'text/markdown' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await res.text()).toMatch(/MPL/);
  });

  it('runs regexes on RE2: linear time, and a 400 with the position for lookaround or backreferences', async () => {
    // 1,000 a's and a "!": a backtracking engine would try 2^1000 splits of `(a+)+$` on this tag.
    const evil = 'a'.repeat(1000) + '!';
    const ingested = await ingest(
      gauge(
        'names',
        [evil, 'aaa'].map((name) => point('name', name, 0, name.length)),
      ),
    );
    expect(ingested.status).toBe(200);
    const started = Date.now();
    const res = await query('/v1/query/_mpl?format=metrics-v1', {
      mpl: 'mq:names | where name == #/(a+)+$/ | align to 1h using max',
      ...RANGE,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).map((s: { data: number[] }) => s.data)).toEqual([[3]]);
    expect(Date.now() - started).toBeLessThan(2000);

    for (const [mpl, message, column] of [
      ['mq:names | where name == #/a(?=b)/', 'lookaround is not supported ((?=)', 29],
      ['mq:names | where name == #/(a)\\1/', 'backreferences are not supported (\\1)', 31],
    ] as const) {
      const bad = await query('/v1/query/_mpl', { mpl, ...RANGE });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        error: 'mpl_invalid_regex',
        message: expect.stringContaining(`${message}; MPL regexes use RE2 syntax at 1:${column}`),
        detail: { line: 1, column },
      });
    }
  });

  it('answers 400 naming the limit when a query would hold too much (limits from the configuration)', async () => {
    const ingested = await ingest(
      gauge(
        'hosts',
        ['h1', 'h2', 'h3', 'h4'].map((h) => point('host', h, 0, 1)),
      ),
    );
    expect(ingested.status).toBe(200);
    const series = await query('/v1/query/_mpl', { mpl: 'mq:hosts | align to 1h using avg', ...RANGE });
    expect(series.status).toBe(400);
    expect(await series.json()).toMatchObject({
      error: 'mpl_limit_exceeded',
      message:
        'query exceeds the limit of 3 series per source; hosts has more matching series; ' +
        'narrow the query with where clauses or sample at 1:1',
      detail: { limit: 'series per source', max: 3, line: 1, column: 1 },
    });
    const narrowed = await query('/v1/query/_mpl', {
      mpl: 'mq:hosts | where host != "h4" | align to 1h using avg',
      ...RANGE,
    });
    expect(narrowed.status).toBe(200);

    // 2 series × 120 thirty-second windows = 240 cells fit; 2 × 3,600 one-second windows do not.
    const fits = await query('/v1/query/_mpl', { mpl: 'mq:load | align to 30s using avg', ...RANGE });
    expect(fits.status).toBe(200);
    const cells = await query('/v1/query/_mpl', { mpl: 'mq:load | align to 1s using avg', ...RANGE });
    expect(cells.status).toBe(400);
    expect(await cells.json()).toMatchObject({
      error: 'mpl_limit_exceeded',
      message: expect.stringMatching(
        /^query exceeds the limit of 1,000 grid cells \(series × windows\) per stage; this stage would hold 2 series × 3,600 windows; use a larger window/,
      ),
      detail: { max: 1000, line: 1, column: 11 },
    });
  });

  it('answers 400 for bad queries and formats, 404 for unknown datasets, 403 without the capability', async () => {
    expect((await query('/v1/query/_mpl', { mpl: 'mq:load | align to', ...RANGE })).status).toBe(400);
    expect((await query('/v1/query/_mpl?format=csv', { mpl: 'mq:load', ...RANGE })).status).toBe(400);
    expect((await query('/v1/query/_mpl', { ...RANGE })).status).toBe(400);
    expect((await query('/v1/query/_mpl', { mpl: 'mq:load', startTime: 'yesterday' })).status).toBe(400);
    expect((await query('/v1/query/_mpl', { mpl: 'nope:load', ...RANGE })).status).toBe(404);
    expect((await query('/v1/query/_mpl', { mpl: '`mq-events`:load', ...RANGE })).status).toBe(400);
    const unknownMetric = await query('/v1/query/_mpl', { mpl: 'mq:nothing', ...RANGE });
    expect((await unknownMetric.json()).series).toEqual([]);

    const pat = await query(
      '/v1/query/_mpl',
      { mpl: 'mq:load', ...RANGE },
      {
        Authorization: `Bearer ${server.pat}`,
        'X-Axiom-Org-Id': server.orgId,
      },
    );
    expect(pat.status).toBe(403);
    const created = await server.request('POST', '/v2/tokens', {
      body: { name: 'ingest-only', datasetCapabilities: { mq: { ingest: ['create'] } } },
    });
    const { token } = await created.json();
    const denied = await query(
      '/v1/query/_mpl',
      { mpl: 'mq:load', ...RANGE },
      { Authorization: `Bearer ${token}` },
    );
    expect(denied.status).toBe(403);
    const info = await server.request('GET', '/v1/query/metrics/info/datasets/mq/metrics', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(info.status).toBe(403);
  });
});
