import { AggregationOp, AxiomWithoutBatching, FilterOp } from '@axiomhq/js';
import { startTestServer, type JsonResponse, type TestServer } from '../support/test-server';
import { requestProblems, responseProblems } from './openapi-v1-schemas';

/**
 * The legacy structured query, `'POST /v1/datasets/{dataset_name}/query'` (docs/legacy-query.md): each
 * filter op and aggregation against the APL query written by hand that means the same, and against the
 * events themselves; series and totals; cursors; the official JS client; schemas; errors.
 */
const OPERATION = 'POST /v1/datasets/{dataset_name}/query';
const DS = 'legacy';
const T0 = Date.parse('2024-05-01T00:00:00Z');
const WINDOW = { startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-01T01:00:00Z' };

interface Event {
  _time: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  remote_ip: string;
  geo: { city: string };
  user?: string;
}

/** 12 events, one every 5 minutes of the hour; mixed-case methods and paths for the case rules. */
const EVENTS: Event[] = Array.from({ length: 12 }, (_, i) => ({
  _time: new Date(T0 + i * 5 * 60_000 + 1234).toISOString(),
  method: ['GET', 'post', 'Get', 'DELETE'][i % 4],
  path: ['/api/users', '/API/orders', '/static/app.JS', '/api/users/7'][i % 4],
  status: [200, 404, 500, 304, 200, 200][i % 6],
  bytes: 100 * (i + 1),
  remote_ip: ['10.0.0.1', '10.0.0.2', '93.180.71.1'][i % 3],
  geo: { city: i % 2 ? 'Berlin' : 'Paris' },
  ...(i % 5 === 0 ? {} : { user: `u${i % 3}` }),
}));

describe(`'${OPERATION}'`, () => {
  let server: TestServer;

  const legacy = async (body: Record<string, unknown>, query = '', token?: string): Promise<JsonResponse> => {
    const headers: Record<string, string> = token
      ? { Authorization: `Bearer ${token}`, 'X-Axiom-Org-Id': server.orgId }
      : {};
    return server.request('POST', `/v1/datasets/${DS}/query${query}`, {
      body: { ...WINDOW, resolution: 'auto', ...body },
      headers,
    });
  };
  /** A legacy query that must succeed and conform to the published `Result` schema. */
  const ok = async (body: Record<string, unknown>, query = '') => {
    const res = await legacy(body, query);
    const json = await res.json();
    expect({ status: res.status, json }).toEqual({ status: 200, json: expect.anything() });
    expect(responseProblems(OPERATION, 200, json)).toEqual([]);
    // Go decodes this answer strictly: exactly these keys.
    expect(Object.keys(json).sort()).toEqual(['buckets', 'fieldsMeta', 'format', 'matches', 'status']);
    return json;
  };
  const apl = async (text: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=legacy', {
      body: { apl: text, ...WINDOW },
    });
    const json = await res.json();
    expect({ status: res.status, json }).toEqual({ status: 200, json: expect.anything() });
    return json;
  };
  const ids = (matches: { _rowId: string }[]) => matches.map((m) => m._rowId).sort();
  const timesOf = (events: Event[]) => events.map((e) => e._time).sort();
  const matchTimes = (matches: { _time: string }[]) =>
    matches.map((m) => new Date(m._time).toISOString()).sort();

  beforeAll(async () => {
    server = await startTestServer();
    await server.request('POST', '/v2/datasets', { body: { name: DS } });
    const res = await server.request('POST', `/v1/ingest/${DS}`, { body: EVENTS });
    expect(res.status).toBe(200);
  });
  afterAll(() => server?.close());

  it('answers every row of the window, newest first, in the published Result shape', async () => {
    const body = { ...WINDOW, resolution: 'auto' };
    expect(requestProblems(OPERATION, body)).toEqual([]);
    const json = await ok({});
    expect(json.format).toBe('legacy');
    expect(json.matches).toHaveLength(12);
    expect(json.matches[0].data).toMatchObject({ method: 'DELETE', 'geo.city': 'Berlin', bytes: 1200 });
    expect(json.matches.map((m: { _time: string }) => m._time)).toEqual(
      [...json.matches.map((m: { _time: string }) => m._time)].sort().reverse(),
    );
    expect(json.buckets).toEqual({ series: [], totals: [] });
    expect(json.status).toMatchObject({ rowsExamined: 12, rowsMatched: 12, isPartial: false });
    expect(json.fieldsMeta.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['bytes', 'geo.city']),
    );
  });

  it('gives each row the same _rowId in every answer, legacy query or APL', async () => {
    const a = await ok({});
    const b = await ok({ order: [{ field: 'bytes', desc: false }] });
    const c = await apl(`['${DS}']`);
    expect(ids(a.matches)).toEqual(ids(b.matches));
    expect(ids(a.matches)).toEqual(ids(c.matches));
    expect(new Set(ids(a.matches)).size).toBe(12);
  });

  it('accepts saveAsKind, streaming-duration and nocache', async () => {
    const json = await ok({ limit: 2 }, '?saveAsKind=analytics&streaming-duration=auto&nocache=true');
    expect(json.matches).toHaveLength(2);
  });

  it('serves personal tokens too (the main API)', async () => {
    const res = await legacy({ limit: 1 }, '', server.pat);
    expect(res.status).toBe(200);
  });

  // [filter, the same condition in APL written by hand, the same condition over the events]
  const FILTERS: [Record<string, unknown>, string, (e: Event) => boolean][] = [
    [{ op: '==', field: 'status', value: 200 }, 'status == 200', (e) => e.status === 200],
    [{ op: 'eq', field: 'method', value: 'get' }, 'method =~ "get"', (e) => e.method.toLowerCase() === 'get'],
    [
      { op: 'eq', field: 'method', value: 'GET', caseSensitive: true },
      'method == "GET"',
      (e) => e.method === 'GET',
    ],
    [{ op: 'ne', field: 'method', value: 'get' }, 'method !~ "get"', (e) => e.method.toLowerCase() !== 'get'],
    [
      { op: '!=', field: 'method', value: 'GET', caseSensitive: true },
      'method != "GET"',
      (e) => e.method !== 'GET',
    ],
    [{ op: 'exists', field: 'user' }, 'isnotnull(user)', (e) => e.user !== undefined],
    [{ op: 'not-exists', field: 'user' }, 'isnull(user)', (e) => e.user === undefined],
    [{ op: 'gt', field: 'bytes', value: 500 }, 'bytes > 500', (e) => e.bytes > 500],
    [{ op: '>=', field: 'bytes', value: 500 }, 'bytes >= 500', (e) => e.bytes >= 500],
    [{ op: 'lt', field: 'bytes', value: 500 }, 'bytes < 500', (e) => e.bytes < 500],
    [{ op: 'lte', field: 'bytes', value: 500 }, 'bytes <= 500', (e) => e.bytes <= 500],
    [
      { op: 'lt', field: '_time', value: '2024-05-01T00:20:00Z' },
      '_time < datetime(2024-05-01T00:20:00Z)',
      (e) => e._time < '2024-05-01T00:20:00',
    ],
    [
      { op: 'starts-with', field: 'path', value: '/api' },
      'path startswith "/api"',
      (e) => e.path.toLowerCase().startsWith('/api'),
    ],
    [
      { op: 'starts-with', field: 'path', value: '/api', caseSensitive: true },
      'path startswith_cs "/api"',
      (e) => e.path.startsWith('/api'),
    ],
    [
      { op: 'not-starts-with', field: 'path', value: '/api' },
      'path !startswith "/api"',
      (e) => !e.path.toLowerCase().startsWith('/api'),
    ],
    [
      { op: 'ends-with', field: 'path', value: '.js' },
      'path endswith ".js"',
      (e) => e.path.toLowerCase().endsWith('.js'),
    ],
    [
      { op: 'not-ends-with', field: 'path', value: '.JS', caseSensitive: true },
      'path !endswith_cs ".JS"',
      (e) => !e.path.endsWith('.JS'),
    ],
    [
      { op: 'contains', field: 'path', value: 'USERS' },
      'path contains "USERS"',
      (e) => e.path.toLowerCase().includes('users'),
    ],
    [
      { op: 'contains', field: 'path', value: 'API', caseSensitive: true },
      'path contains_cs "API"',
      (e) => e.path.includes('API'),
    ],
    [
      { op: 'not-contains', field: 'path', value: 'users' },
      'path !contains "users"',
      (e) => !e.path.toLowerCase().includes('users'),
    ],
    [
      { op: 'regexp', field: 'path', value: '^/api/users/\\d+$' },
      'path matches regex "^/api/users/\\\\d+$"',
      (e) => /^\/api\/users\/\d+$/.test(e.path),
    ],
    [
      { op: 'not-regexp', field: 'path', value: '^/api' },
      'not(path matches regex "^/api")',
      (e) => !/^\/api/.test(e.path),
    ],
    [
      { op: '==', field: 'geo.city', value: 'Berlin', caseSensitive: true },
      "['geo.city'] == 'Berlin'",
      (e) => e.geo.city === 'Berlin',
    ],
    [
      {
        op: 'and',
        children: [
          {
            op: 'or',
            children: [
              { op: '==', field: 'status', value: 500 },
              { op: 'eq', field: 'method', value: 'post' },
            ],
          },
          { op: 'not', children: [{ op: 'contains', field: 'path', value: 'orders' }] },
        ],
      },
      '(status == 500 or method =~ "post") and not(path contains "orders")',
      (e) =>
        (e.status === 500 || e.method.toLowerCase() === 'post') && !e.path.toLowerCase().includes('orders'),
    ],
  ];

  it.each(FILTERS)('filter %j = where %s', async (filter, where, holds) => {
    const expected = timesOf(EVENTS.filter(holds));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(EVENTS.length);
    const viaLegacy = await ok({ filter });
    const viaApl = await apl(`['${DS}'] | where ${where}`);
    expect(matchTimes(viaLegacy.matches)).toEqual(expected);
    expect(ids(viaLegacy.matches)).toEqual(ids(viaApl.matches));
  });

  it('conforms to the request schema with the ops the spec enumerates', () => {
    for (const [filter] of FILTERS) {
      const spelled = JSON.stringify(filter);
      if (/"op":"(==|>=|>|<|<=)"/.test(spelled)) continue; // accepted, but not in the spec's enum
      expect(requestProblems(OPERATION, { ...WINDOW, resolution: 'auto', filter })).toEqual([]);
    }
  });

  // [aggregation, the same aggregate in APL]
  const AGGREGATIONS: [Record<string, unknown>, string][] = [
    [{ op: 'count', field: '*' }, 'count()'],
    [{ op: 'distinct', field: 'method' }, 'dcount(method)'],
    [{ op: 'sum', field: 'bytes' }, 'sum(bytes)'],
    [{ op: 'avg', field: 'bytes' }, 'avg(bytes)'],
    [{ op: 'min', field: 'bytes' }, 'min(bytes)'],
    [{ op: 'max', field: 'bytes' }, 'max(bytes)'],
    [{ op: 'stdev', field: 'bytes' }, 'stdev(bytes)'],
    [{ op: 'variance', field: 'bytes' }, 'variance(bytes)'],
    [{ op: 'topk', field: 'method', argument: 2 }, 'topk(method, 2)'],
    [{ op: 'percentiles', field: 'bytes', argument: [50, 90] }, 'percentiles_array(bytes, 50, 90)'],
    [{ op: 'histogram', field: 'bytes', argument: 3 }, 'histogram(bytes, 3)'],
    [{ op: 'makeset', field: 'method' }, 'make_set(method)'],
    [{ op: 'rate', field: 'bytes' }, 'rate(bytes)'],
    [
      { op: 'countif', field: '*', argument: { op: '==', field: 'status', value: 200 } },
      'countif(status == 200)',
    ],
    [
      { op: 'distinctif', field: 'path', argument: { op: 'gt', field: 'bytes', value: 300 } },
      'dcountif(path, bytes > 300)',
    ],
    [
      { op: 'makesetif', field: 'path', argument: { op: 'exists', field: 'user' } },
      'make_set_if(path, isnotnull(user))',
    ],
  ];

  it.each(AGGREGATIONS)('aggregation %j by remote_ip = summarize %s', async (aggregation, call) => {
    const viaLegacy = await ok({ aggregations: [aggregation], groupBy: ['remote_ip'] });
    const viaApl = await apl(`['${DS}'] | summarize ${call} by remote_ip`);
    const byGroup = (totals: { group: { remote_ip: string }; aggregations: { value: unknown }[] }[]) =>
      Object.fromEntries(totals.map((t) => [t.group.remote_ip, t.aggregations[0].value]));
    expect(viaLegacy.matches).toEqual([]);
    expect(viaLegacy.buckets.totals).toHaveLength(3);
    expect(byGroup(viaLegacy.buckets.totals)).toEqual(byGroup(viaApl.buckets.totals));
    expect(viaLegacy.buckets.totals[0].aggregations[0].op).toBe(aggregation.op);
  });

  it('answers argmin/argmax as one object of the row fields', async () => {
    const json = await ok({
      aggregations: [{ op: 'argmax', field: 'bytes', argument: ['path'], alias: 'biggest' }],
    });
    expect(json.buckets.totals).toEqual([
      { id: 0, group: {}, aggregations: [{ op: 'biggest', value: { bytes: 1200, path: '/api/users/7' } }] },
    ]);
  });

  it('fills series over the whole window at the resolution, with the ids of the totals groups', async () => {
    const body = {
      aggregations: [{ op: 'count', field: '*', alias: 'n' }],
      groupBy: ['remote_ip'],
      resolution: '10m0s',
    };
    expect(requestProblems(OPERATION, { ...WINDOW, ...body })).toEqual([]);
    const json = await ok(body);
    const series = json.buckets.series as {
      startTime: string;
      endTime: string;
      groups: { id: number; group: { remote_ip: string }; aggregations: { op: string; value: number }[] }[];
    }[];
    expect(series.map((s) => s.startTime)).toEqual(
      Array.from({ length: 6 }, (_, i) => new Date(T0 + i * 600_000).toISOString().replace('.000', '')),
    );
    expect(series[0].endTime).toBe('2024-05-01T00:10:00Z');
    // Two events per 10 minutes, on two different addresses.
    for (const interval of series)
      expect(interval.groups.map((g) => g.aggregations[0].value)).toEqual([1, 1]);
    const idOf = Object.fromEntries(
      json.buckets.totals.map((t: { id: number; group: { remote_ip: string } }) => [t.group.remote_ip, t.id]),
    );
    for (const g of series.flatMap((s) => s.groups)) expect(g.id).toBe(idOf[g.group.remote_ip]);
    expect(
      json.buckets.totals.map((t: { aggregations: { op: string; value: number }[] }) => t.aggregations),
    ).toEqual([[{ op: 'n', value: 4 }], [{ op: 'n', value: 4 }], [{ op: 'n', value: 4 }]]);

    // The same from APL (legacy format): its series lists the intervals that have rows.
    const viaApl = await apl(`['${DS}'] | summarize n = count() by bin(_time, 10m), remote_ip`);
    const shape = (s: typeof series) =>
      s
        .filter((i) => i.groups.length)
        .map((i) => ({
          startTime: i.startTime,
          groups: i.groups.map((g) => [g.group.remote_ip, g.aggregations[0].value]).sort(),
        }));
    expect(shape(viaApl.buckets.series)).toEqual(shape(series));
  });

  it("fills APL's legacy format series for a time-bucketed summarize (bin_auto too)", async () => {
    const json = await apl(`['${DS}'] | summarize n = count() by bin_auto(_time)`);
    const series = json.buckets.series as {
      startTime: string;
      endTime: string;
      groups: { group: object; aggregations: { op: string; value: number }[] }[];
    }[];
    expect(series.length).toBeGreaterThan(1);
    const total = series.flatMap((s) => s.groups).reduce((sum, g) => sum + g.aggregations[0].value, 0);
    expect(total).toBe(EVENTS.length);
    for (const s of series) {
      expect(Date.parse(s.endTime) - Date.parse(s.startTime)).toBe(30_000); // bin_auto of one hour
      expect(s.groups.every((g) => Object.keys(g.group).length === 0 && g.aggregations[0].op === 'n')).toBe(
        true,
      );
    }
    // Without a time bin there is no series.
    expect((await apl(`['${DS}'] | summarize n = count() by method`)).buckets.series).toEqual([]);
  });

  it('orders and limits groups by an aggregation alias', async () => {
    const json = await ok({
      aggregations: [{ op: 'sum', field: 'bytes', alias: 'total' }],
      groupBy: ['method'],
      order: [{ field: 'total', desc: true }],
      limit: 2,
    });
    expect(json.buckets.totals.map((t: { group: { method: string } }) => t.group.method)).toEqual([
      'DELETE',
      'Get',
    ]);
  });

  it('projects with aliases and orders by a virtual field', async () => {
    const json = await ok({
      virtualFields: [{ alias: 'kb', expr: 'bytes / 1000.0' }],
      project: [{ field: 'remote_ip', alias: 'ip' }, { field: 'kb' }],
      order: [{ field: 'kb', desc: false }],
      limit: 3,
    });
    expect(json.matches.map((m: { data: unknown }) => m.data)).toEqual([
      { ip: '10.0.0.1', kb: 0.1 },
      { ip: '10.0.0.2', kb: 0.2 },
      { ip: '93.180.71.1', kb: 0.3 },
    ]);
    expect(json.matches[0]._time).toBe(EVENTS[0]._time);
  });

  it('pages with cursors: minCursor of one page starts the next, exclusive unless includeCursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 4; page++) {
      const json = await ok({ limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...json.matches.map((m: { _time: string }) => m._time));
      if (json.matches.length < 5) break;
      expect(json.status.minCursor).toBe(json.matches[4]._rowId);
      cursor = json.status.minCursor;
    }
    expect(seen).toEqual(EVENTS.map((e) => e._time).reverse());
    const first = await ok({ limit: 5 });
    const inclusive = await ok({ limit: 2, cursor: first.matches[2]._rowId, includeCursor: true });
    expect(inclusive.matches.map((m: { _rowId: string }) => m._rowId)).toEqual(
      first.matches.slice(2, 4).map((m: { _rowId: string }) => m._rowId),
    );
  });

  it('pages exactly through rows that share one _time to the µs (the cursor carries the row id)', async () => {
    const TIES = 'legacy-ties';
    await server.request('POST', '/v2/datasets', { body: { name: TIES } });
    // Seven rows at one µs between rows a second before and after: a page boundary falls among them.
    const tied = '2024-05-01T00:10:00.123456Z';
    const events = [
      { _time: '2024-05-01T00:10:01Z', n: 100 },
      ...Array.from({ length: 7 }, (_, n) => ({ _time: tied, n })),
      { _time: '2024-05-01T00:09:59Z', n: 200 },
    ];
    expect((await server.request('POST', `/v1/ingest/${TIES}`, { body: events })).status).toBe(200);
    const page = async (body: Record<string, unknown>) => {
      const res = await server.request('POST', `/v1/datasets/${TIES}/query`, {
        body: { ...WINDOW, ...body },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        matches: { _rowId: string; data: { n: number } }[];
        status: { minCursor: string; maxCursor: string };
      };
    };
    for (const ascending of [false, true]) {
      const order = ascending ? [{ field: '_time', desc: false }] : [];
      const seen: number[] = [];
      const rowIds: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 6; i++) {
        const json = await page({ limit: 3, order, ...(cursor ? { cursor } : {}) });
        seen.push(...json.matches.map((m) => m.data.n));
        rowIds.push(...json.matches.map((m) => m._rowId));
        if (json.matches.length < 3) break;
        cursor = json.matches[2]._rowId;
      }
      // Every row exactly once, in row-id order (which is _time order, ties broken by the id).
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 100, 200]);
      const sorted = [...rowIds].sort();
      expect(rowIds).toEqual(ascending ? sorted : sorted.reverse());
    }
    // includeCursor starts at the cursor row itself, also in the middle of the tied rows.
    const all = await page({ limit: 9 });
    const from = await page({ limit: 2, cursor: all.matches[4]._rowId, includeCursor: true });
    expect(from.matches.map((m) => m._rowId)).toEqual([all.matches[4]._rowId, all.matches[5]._rowId]);
    const after = await page({ limit: 2, cursor: all.matches[4]._rowId });
    expect(after.matches.map((m) => m._rowId)).toEqual([all.matches[5]._rowId, all.matches[6]._rowId]);
  });

  it("works with the official client, @axiomhq/js queryLegacy (the Go suite's query)", async () => {
    const axiom = new AxiomWithoutBatching({ token: server.token, url: server.url });
    const result = await axiom.queryLegacy(DS, {
      ...WINDOW,
      resolution: 'auto',
      // The client's Aggregation type lacks `alias`, which the API (and the Go client) has.
      aggregations: [{ alias: 'event_count', op: AggregationOp.Count, field: '*' }] as never,
      groupBy: ['success', 'remote_ip'],
      filter: {
        op: FilterOp.Exists,
        field: 'status',
        children: [{ op: FilterOp.Contains, field: 'method', value: 'GET' }],
      },
      order: [
        { field: 'success', desc: true },
        { field: 'remote_ip', desc: false },
      ],
      virtualFields: [{ alias: 'success', expr: 'toint(status) < 400' }],
      project: [{ field: 'remote_ip', alias: 'ip' }],
    });
    const gets = EVENTS.filter((e) => e.method.toLowerCase() === 'get');
    expect(result.status.rowsMatched).toBe(gets.length);
    expect(result.buckets.totals?.map((t) => [t.group, t.aggregations])).toEqual([
      // GET events: i = 0, 2, 4, 6, 8, 10 → statuses 200, 500, 200, 200, 500, 200.
      [{ success: true, remote_ip: '10.0.0.1' }, [{ op: 'event_count', value: 2 }]],
      [{ success: true, remote_ip: '10.0.0.2' }, [{ op: 'event_count', value: 2 }]],
      [{ success: false, remote_ip: '93.180.71.1' }, [{ op: 'event_count', value: 2 }]],
    ]);
    const raw = await axiom.queryLegacy(DS, { ...WINDOW, resolution: 'auto', limit: 3 });
    expect(raw.matches).toHaveLength(3);
  });

  // [body, status, what the message must say]
  const BAD: [string, Record<string, unknown>, number, RegExp][] = [
    [
      'an unknown aggregation',
      { aggregations: [{ op: 'median', field: 'bytes' }] },
      400,
      /aggregations\[0\]\.op "median" is not one of count/,
    ],
    [
      'an unknown nested filter op',
      {
        filter: {
          op: 'and',
          children: [
            { op: 'eq', field: 'a', value: 1 },
            { op: 'like', field: 'b' },
          ],
        },
      },
      400,
      /filter\.children\[1\]\.op "like"/,
    ],
    ['a bad time', { startTime: 'yesterday' }, 400, /startTime "yesterday" is not an RFC 3339 timestamp/],
    ['a limit out of range', { limit: 50_001 }, 400, /limit must be an integer from 0 to 50000/],
    [
      'a resolution that is no duration',
      { resolution: 'often', aggregations: [{ op: 'count', field: '*' }] },
      400,
      /resolution "often"/,
    ],
    ['groupBy without aggregations', { groupBy: ['method'] }, 400, /groupBy needs at least one aggregation/],
    [
      'an unknown field',
      { filter: { op: 'eq', field: 'nope', value: 1 } },
      400,
      /unknown field 'nope'.*legacy query runs as/,
    ],
    [
      'a virtual field that does not parse',
      { virtualFields: [{ alias: 'x', expr: 'bytes +' }] },
      400,
      /legacy query runs as/,
    ],
    [
      'a cursor from elsewhere',
      { cursor: 'c776x1uafkpu-4918f6cb9000095-0' },
      400,
      /cursor "c776x1uafkpu-4918f6cb9000095-0" is not a row id/,
    ],
  ];

  it.each(BAD)(
    'refuses %s with a JSON message saying what and where',
    async (_what, body, status, message) => {
      const res = await legacy(body);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).message).toMatch(message);
    },
  );

  it('answers 404 for an unknown dataset and 400 for a body that is no object', async () => {
    const missing = await server.request('POST', '/v1/datasets/nope/query', {
      body: { ...WINDOW, resolution: 'auto' },
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toMatch(/not found/);
    const array = await server.request('POST', `/v1/datasets/${DS}/query`, { body: [] });
    expect(array.status).toBe(400);
    expect((await array.json()).message).toMatch(/body must be a JSON object/);
  });
});
