import { isQuarryError } from '@quarry/common';
import { parseLegacyQuery } from './legacy-query';
import { legacyQueryToApl, MAX_ROWS_AT_ONE_TIME } from './legacy-to-apl';
import { rowIdOf, timeOfRowId } from './row-id';

const WINDOW = { startMs: Date.parse('2024-05-01T00:00:00Z'), endMs: Date.parse('2024-05-02T00:00:00Z') };
const translate = (body: Record<string, unknown>) =>
  legacyQueryToApl(
    'logs',
    parseLegacyQuery({ startTime: 'x', endTime: 'y', resolution: 'auto', ...body }),
    WINDOW,
  );
const aplOf = (body: Record<string, unknown>) => {
  const t = translate(body);
  return t.kind === 'matches' ? t.apl : t.totalsApl;
};
const problem = (body: unknown): string => {
  try {
    const q = parseLegacyQuery(body);
    legacyQueryToApl('logs', q, WINDOW);
  } catch (err) {
    if (isQuarryError(err)) return `${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
};

describe('legacy query → APL', () => {
  it('answers a bare query with the newest rows, capped at the default limit', () => {
    expect(aplOf({})).toBe(`["logs"]\n| order by ["_time"] desc\n| take 1000`);
  });

  it.each([
    [{ op: '==', field: 'status', value: 200 }, '["status"] == 200'],
    [{ op: 'eq', field: 'method', value: 'GET' }, '["method"] =~ "GET"'],
    [{ op: 'eq', field: 'method', value: 'GET', caseSensitive: true }, '["method"] == "GET"'],
    [{ op: 'ne', field: 'method', value: 'GET' }, '["method"] !~ "GET"'],
    [{ op: '!=', field: 'method', value: 'GET', caseSensitive: true }, '["method"] != "GET"'],
    [{ op: '==', field: 'user', value: null }, 'isnull(["user"])'],
    [{ op: 'exists', field: 'user' }, 'isnotnull(["user"])'],
    [{ op: 'not-exists', field: 'user' }, 'isnull(["user"])'],
    [{ op: 'gt', field: 'n', value: 1 }, '["n"] > 1'],
    [{ op: '>=', field: 'n', value: 1.5 }, '["n"] >= 1.5'],
    [{ op: 'lt', field: 'n', value: 1 }, '["n"] < 1'],
    [
      { op: 'lte', field: '_time', value: '2024-05-01T12:00:00Z' },
      '["_time"] <= datetime(2024-05-01T12:00:00Z)',
    ],
    [{ op: 'starts-with', field: 'p', value: '/api' }, '["p"] startswith "/api"'],
    [{ op: 'starts-with', field: 'p', value: '/api', caseSensitive: true }, '["p"] startswith_cs "/api"'],
    [{ op: 'not-starts-with', field: 'p', value: '/api' }, '["p"] !startswith "/api"'],
    [{ op: 'ends-with', field: 'p', value: '.js' }, '["p"] endswith ".js"'],
    [{ op: 'not-ends-with', field: 'p', value: '.js', caseSensitive: true }, '["p"] !endswith_cs ".js"'],
    [{ op: 'contains', field: 'a.b', value: 'x"y' }, '["a.b"] contains "x\\"y"'],
    [{ op: 'not-contains', field: 'p', value: 'x' }, '["p"] !contains "x"'],
    [{ op: 'regexp', field: 'p', value: '^/a+' }, '["p"] matches regex "^/a+"'],
    [{ op: 'not-regexp', field: 'p', value: '^/a+' }, 'not(["p"] matches regex "^/a+")'],
    [
      {
        op: 'and',
        children: [
          {
            op: 'or',
            children: [
              { op: '==', field: 'a', value: 1 },
              { op: '==', field: 'b', value: 2 },
            ],
          },
          { op: 'not', children: [{ op: 'exists', field: 'c' }] },
        ],
      },
      '(("a"] == 1) or (["b"] == 2)) and (not(isnotnull(["c"])))'.replace('(("a"]', '((["a"]'),
    ],
    [
      { op: 'exists', field: 'response', children: [{ op: 'contains', field: 'request', value: 'GET' }] },
      'isnotnull(["response"]) and ["request"] contains "GET"',
    ],
  ])('filter %j → where %s', (filter, predicate) => {
    expect(aplOf({ filter })).toBe(`["logs"]\n| where ${predicate}\n| order by ["_time"] desc\n| take 1000`);
  });

  it('treats Go\'s empty filter (op "") as no filter', () => {
    expect(aplOf({ filter: { op: '', field: '', value: null, children: null } })).not.toContain('where');
  });

  it('projects with aliases, keeping _time and _sysTime, after order and limit', () => {
    expect(
      aplOf({
        project: [{ field: 'remote_ip', alias: 'ip' }, { field: 'n' }],
        order: [{ field: 'n', desc: false }],
        limit: 5,
        virtualFields: [{ alias: 'ok', expr: 'status < 400' }],
      }),
    ).toBe(
      [
        '["logs"]',
        'extend ["ok"] = (status < 400)',
        'order by ["n"] asc',
        'take 5',
        'project ["_time"], ["_sysTime"], ["ip"] = ["remote_ip"], ["n"]',
      ].join('\n| '),
    );
  });

  it('summarizes totals and per-bucket series with the same aggregations', () => {
    const t = translate({
      aggregations: [
        { op: 'count', field: '*', alias: 'event_count' },
        { op: 'distinct', field: 'user' },
        { op: 'topk', field: 'ip', argument: 3 },
        { op: 'percentiles', field: 'ms', argument: [50, 99] },
        { op: 'argmax', field: 'ms', argument: ['path'] },
        { op: 'countif', field: '', argument: { op: 'gte', field: 'status', value: 500 } },
      ],
      groupBy: ['host'],
      order: [{ field: 'event_count', desc: true }],
      limit: 10,
    });
    expect(t).toEqual({
      kind: 'aggregation',
      totalsApl: [
        '["logs"]',
        'summarize ["event_count"] = count(), ["distinct_user"] = dcount(["user"]), ["topk_ip"] = topk(["ip"], 3), ' +
          '["percentiles_ms"] = percentiles_array(["ms"], 50, 99), ["argmax_ms"] = arg_max(["ms"], ["path"]), ' +
          '["countif"] = countif(["status"] >= 500) by ["host"]',
        'order by ["event_count"] desc',
        'take 10',
      ].join('\n| '),
      seriesApl: expect.stringContaining('by bin(["_time"], 900000ms), ["host"]'),
      bucketMs: 900_000,
      groupBy: ['host'],
      aggregations: [
        { label: 'event_count', width: 1 },
        { label: 'distinct', width: 1 },
        { label: 'topk', width: 1 },
        { label: 'percentiles', width: 1 },
        { label: 'argmax', width: 2, fields: ['ms', 'path'] },
        { label: 'countif', width: 1 },
      ],
    });
  });

  it.each([
    ['2m0s', 120_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['300', 300_000],
    ['auto', 900_000],
    ['', 900_000],
  ])('reads resolution %j as %d ms buckets', (resolution, ms) => {
    const t = translate({ resolution, aggregations: [{ op: 'count', field: '*' }] });
    expect(t.kind === 'aggregation' && t.bucketMs).toBe(ms);
  });

  it('pages with a cursor: exclusive by default, inclusive on request, in the order of _time', () => {
    const id = rowIdOf(WINDOW.startMs + 5, WINDOW.startMs + 6, { a: 1 });
    expect(timeOfRowId(id)).toBe(WINDOW.startMs + 5);
    expect(aplOf({ cursor: id })).toContain('where ["_time"] < datetime(2024-05-01T00:00:00.005Z)');
    // Raw rows by _time: strict (the cursor's own time is read apart and cut by row id)…
    expect(aplOf({ cursor: id, includeCursor: true })).toContain('["_time"] < datetime');
    expect(aplOf({ cursor: id, order: [{ field: '_time', desc: false }] })).toContain('["_time"] > datetime');
    // …and elsewhere (other orders, aggregations) by _time alone.
    expect(aplOf({ cursor: id, includeCursor: true, order: [{ field: 'a', desc: false }] })).toContain(
      '["_time"] <= datetime',
    );
  });

  it('plans exact paging for raw rows ordered by _time: the rows of one time, read whole', () => {
    const id = rowIdOf(WINDOW.startMs + 5, WINDOW.startMs + 6, { a: 1 });
    const t = translate({
      cursor: id,
      includeCursor: true,
      limit: 3,
      filter: { op: '==', field: 'a', value: 1 },
    });
    const plan = t.kind === 'matches' ? t.timeOrdered : undefined;
    expect(plan).toMatchObject({ ascending: false, limit: 3, cursor: { rowId: id, include: true } });
    expect(plan!.aplAt(WINDOW.startMs + 5)).toBe(
      [
        '["logs"]',
        'where ["_time"] == datetime(2024-05-01T00:00:00.005Z)',
        'where ["a"] == 1',
        `take ${MAX_ROWS_AT_ONE_TIME + 1}`,
      ].join('\n| '),
    );
    const other = translate({ order: [{ field: 'a', desc: false }] });
    expect(other.kind === 'matches' && other.timeOrdered).toBeUndefined();
  });

  it.each([
    [[], 'legacy_query_invalid: legacy query: body must be a JSON object'],
    [{ limit: 50_001 }, 'limit must be an integer from 0 to 50000'],
    [{ resolution: '5 minutes' }, 'resolution "5 minutes" is not "auto"'],
    [
      { resolution: '1s', aggregations: [{ op: 'count', field: '*' }] },
      "resolution gives 86400 intervals over the query's time range; at most 1000 (use a resolution of at least 87s",
    ],
    [{ aggregations: [{ op: 'median', field: 'x' }] }, 'aggregations[0].op "median" is not one of count'],
    [{ aggregations: [{ op: 'sum' }] }, 'aggregations[0].field is required'],
    [
      { aggregations: [{ op: 'topk', field: 'x', argument: 'ten' }] },
      'aggregations[0].argument must be an integer',
    ],
    [{ aggregations: [{ op: 'countif', field: '*' }] }, 'aggregations[0].argument must be a filter object'],
    [{ filter: { op: 'like', field: 'x' } }, 'filter.op "like" is not one of and'],
    [{ filter: { op: 'and', children: [{ op: 'eq', value: 1 }] } }, 'filter.children[0].field is required'],
    [{ filter: { op: 'contains', field: 'x', value: { a: 1 } } }, 'filter.value must be a string, number'],
    [
      { filter: { op: 'gt', field: '_time', value: 'yesterday' } },
      'filter.value "yesterday" is not an RFC 3339 time',
    ],
    [{ groupBy: ['host'] }, 'groupBy needs at least one aggregation'],
    [{ cursor: 'abc' }, 'cursor "abc" is not a row id'],
    [
      { aggregations: [{ op: 'count', field: '*' }], order: [{ field: 'nope', desc: true }] },
      'order[0].field "nope" is neither a groupBy field nor an aggregation',
    ],
  ])('refuses %j with a message naming the member', (body, message) => {
    const full = Array.isArray(body) ? body : { startTime: 'x', endTime: 'y', resolution: 'auto', ...body };
    expect(problem(full)).toContain(message);
  });
});
