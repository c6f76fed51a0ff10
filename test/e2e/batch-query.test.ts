import { sha256Hex } from '@quarry/common';
import { fetchJson, startTestServer, type TestServer } from '../support/test-server';
import { requestProblems, responseProblems, schemaProblems } from './openapi-v1-schemas';

/**
 * `'POST /v1/query/batch'` (docs/legacy-query.md, "Batch queries"): APL and MPL queries answered as a
 * text/event-stream, one `result` event per query as it finishes, then `done`; a query's error is its own
 * event. The official JS client has no batch call, so these tests speak HTTP.
 */
const OPERATION = 'POST /v1/query/batch';
const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const RANGE = { startTime: '2025-05-01T00:00:00Z', endTime: '2025-05-01T01:00:00Z' };

interface SseEvent {
  event: string;
  id?: string;
  data: Record<string, unknown>;
}

/** Splits a text/event-stream body into its events (`event:`, `id:`, one `data:` line each). */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = new Map(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return {
        event: fields.get('event') ?? 'message',
        ...(fields.has('id') ? { id: fields.get('id') } : {}),
        data: JSON.parse(fields.get('data') ?? 'null'),
      };
    });
}

describe(`'${OPERATION}'`, () => {
  let server: TestServer;
  const noQuery = 'xaat-batch-no-query-capability-01';

  const batch = (body: unknown, query = '', token = server.token) =>
    fetchJson(`${server.url}/v1/query/batch${query}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer();
    await server.request('POST', '/v2/datasets', { body: { name: 'batch-events' } });
    await server.request('POST', '/v1/ingest/batch-events', {
      body: [
        { _time: '2025-05-01T00:10:00Z', method: 'GET' },
        { _time: '2025-05-01T00:20:00Z', method: 'GET' },
        { _time: '2025-05-01T00:30:00Z', method: 'POST' },
      ],
    });
    await server.request('POST', '/v2/datasets', { body: { name: 'batchmetrics', kind: 'otel:metrics:v1' } });
    const points = Array.from({ length: 60 }, (_, i) => ({
      timeUnixNano: String(BigInt(T0 + 60 * i) * 1_000_000_000n),
      asDouble: i,
      attributes: [{ key: 'host', value: { stringValue: 'a' } }],
    }));
    const res = await server.request('POST', '/v1/metrics', {
      headers: { 'x-axiom-metrics-dataset': 'batchmetrics' },
      body: {
        resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'load', gauge: { dataPoints: points } }] }] }],
      },
    });
    expect(res.status).toBe(200);
    await server.quarry.storage.metastore.tokens.create({
      kind: 'api',
      name: 'ingest only',
      description: '',
      userId: server.quarry.identity.userId,
      viewCapabilities: {},
      secretHash: sha256Hex(noQuery),
      orgCapabilities: {},
      datasetCapabilities: { '*': { ingest: ['create'] } },
      expiresAt: null,
    });
  });
  afterAll(() => server?.close());

  it('streams one event per query, each as /v1/query/_apl or /_mpl would answer it, then done', async () => {
    const body = [
      { queryId: 'count', aplRequest: { apl: "['batch-events'] | count", ...RANGE } },
      {
        queryId: 'by-method',
        aplRequest: {
          apl: "['batch-events'] | summarize n = count() by method | order by method asc",
          ...RANGE,
        },
      },
      { queryId: 'load', mplRequest: { mpl: 'batchmetrics:load | align to 30m using avg', ...RANGE } },
      { queryId: 'typo', aplRequest: { apl: "['batch-events'] | summarise count()", ...RANGE } },
      { queryId: 'missing', aplRequest: { apl: "['nope'] | count", ...RANGE } },
      { queryId: 'bad-mpl', mplRequest: { mpl: 'batchmetrics:load | align to', ...RANGE } },
    ];
    expect(requestProblems(OPERATION, body)).toEqual([]);
    const res = await batch(body, '?maxConcurrency=2&nocache=true');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());

    expect(events.at(-1)).toEqual({ event: 'done', data: { queries: 6, failed: 3 } });
    const results = events.slice(0, -1);
    expect(results.map((e) => e.event)).toEqual(Array(6).fill('result'));
    const byId = new Map(results.map((e) => [e.id, e.data]));
    expect([...byId.keys()].sort()).toEqual(['bad-mpl', 'by-method', 'count', 'load', 'missing', 'typo']);
    for (const e of results) expect(e.data.queryId).toBe(e.id);

    // Each APL result is what /v1/query/_apl?format=tabular answers for the same request.
    for (const [id, item] of [
      ['count', body[0]],
      ['by-method', body[1]],
    ] as const) {
      const direct = await server.request('POST', '/v1/query/_apl?format=tabular', { body: item.aplRequest });
      const expected = await direct.json();
      const got = byId.get(id) as { kind: string; data: { tables: unknown; status: unknown } };
      expect(got.kind).toBe('apl');
      expect(got.data.tables).toEqual(expected.tables);
    }
    expect(
      (byId.get('by-method') as { data: { tables: { columns: unknown[][] }[] } }).data.tables[0].columns,
    ).toEqual([
      ['GET', 'POST'],
      [2, 1],
    ]);
    const direct = await server.request('POST', '/v1/query/_mpl', { body: body[2].mplRequest });
    expect(byId.get('load')).toEqual({ queryId: 'load', kind: 'mpl', data: await direct.json() });

    // Errors are QueryError bodies with the status the single-query endpoint would have answered.
    const typo = byId.get('typo') as { kind: string; error: { code: number; message: string } };
    expect(typo.kind).toBe('apl');
    expect(typo.error).toMatchObject({ code: 400, message: expect.stringMatching(/summarise/) });
    expect((byId.get('missing') as { error: { code: number; message: string } }).error).toMatchObject({
      code: 404,
      message: expect.stringMatching(/not found/),
    });
    expect((byId.get('bad-mpl') as { kind: string; error: { code: number } }).error.code).toBe(400);
    for (const id of ['typo', 'missing', 'bad-mpl'])
      expect(
        schemaProblems('v1-edge-query.json', 'QueryError', (byId.get(id) as { error: unknown }).error),
      ).toEqual([]);
  });

  it("reports an item with neither or both requests as that item's error", async () => {
    const res = await batch([
      { queryId: 'none' },
      { queryId: 'both', aplRequest: { apl: "['batch-events']" }, mplRequest: { mpl: 'x', ...RANGE } },
      { queryId: 'fine', aplRequest: { apl: "['batch-events'] | count" } },
    ]);
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    const byId = new Map(events.filter((e) => e.id).map((e) => [e.id, e.data]));
    expect(byId.get('none')).toMatchObject({
      error: { code: 400, message: expect.stringMatching(/exactly one of aplRequest and mplRequest/) },
    });
    expect(byId.get('both')).toMatchObject({
      error: { code: 400, message: expect.stringMatching(/not both/) },
    });
    expect(byId.get('fine')).toMatchObject({ kind: 'apl', data: { format: 'tabular' } });
    expect(events.at(-1)?.data).toEqual({ queries: 3, failed: 2 });
  });

  it('answers an empty batch with done alone', async () => {
    const res = await batch([]);
    expect(parseSse(await res.text())).toEqual([{ event: 'done', data: { queries: 0, failed: 0 } }]);
  });

  // [what, body, query string, status, message]
  const BAD: [string, unknown, string, number, RegExp][] = [
    ['a body that is no array', { queryId: 'a' }, '', 400, /the body must be a JSON array/],
    ['an item without queryId', [{ aplRequest: { apl: 'x' } }], '', 400, /\[0\]\.queryId is required/],
    ['a repeated queryId', [{ queryId: 'a' }, { queryId: 'a' }], '', 400, /\[1\]\.queryId "a" is used twice/],
    [
      'maxConcurrency out of range',
      [],
      '?maxConcurrency=21',
      400,
      /maxConcurrency must be an integer from 1 to 20/,
    ],
  ];

  it.each(BAD)(
    'refuses %s before streaming, with a JSON message',
    async (_what, body, query, status, message) => {
      const res = await batch(body, query);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const json = await res.json();
      expect(json.message).toMatch(message);
      expect(responseProblems(OPERATION, 'default', json)).toEqual([]);
    },
  );

  it('refuses a token that may query no dataset (403) and personal tokens (edge endpoint)', async () => {
    const forbidden = await batch([{ queryId: 'a', aplRequest: { apl: "['batch-events']" } }], '', noQuery);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).message).toMatch(/query\|read/);
    const pat = await fetchJson(`${server.url}/v1/query/batch`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.pat}`,
        'X-Axiom-Org-Id': server.orgId,
        'Content-Type': 'application/json',
      },
      body: '[]',
    });
    expect(pat.status).toBe(403);
  });
});
