/**
 * APL errors over HTTP: every invalid query is a 400 with a stable `error` code, the position in
 * `detail.line` / `detail.column`, and a "did you mean" hint where a close name exists; mutated queries
 * never produce a 500.
 */
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/test-server';

const DATASET = 'e2e-apl-errors';
const RANGE = { startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' };

/** 1-based line and column of the first occurrence of `marker` (at or after `from`) in `text`. */
function positionOf(text: string, marker: string, from = 0): { line: number; column: number } {
  const offset = text.indexOf(marker, from);
  if (offset < 0) throw new Error(`marker ${JSON.stringify(marker)} not in ${text}`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

interface Case {
  apl: string;
  error: string;
  /** Text the span points at (its first occurrence after the dataset name). */
  at: string;
  suggestion?: string;
}

const D = `['${DATASET}']`;
const CASES: Case[] = [
  {
    apl: `${D} | summarize coutn() by method`,
    error: 'apl_unknown_function',
    at: 'coutn',
    suggestion: 'count',
  },
  { apl: `${D} | extend n = strln(path)`, error: 'apl_unknown_function', at: 'strln', suggestion: 'strlen' },
  {
    apl: `${D} | summarise count()`,
    error: 'apl_unknown_operator',
    at: 'summarise',
    suggestion: 'summarize',
  },
  { apl: `${D} | frobnicate`, error: 'apl_unknown_operator', at: 'frobnicate' },
  { apl: `${D}\n| where Method == "GET"`, error: 'apl_unknown_field', at: 'Method', suggestion: 'method' },
  { apl: `${D} | project staus, method`, error: 'apl_unknown_field', at: 'staus', suggestion: 'status' },
  { apl: `${D} | sort bye status`, error: 'apl_expected_token', at: 'bye', suggestion: 'by' },
  {
    apl: `${D} | where method contians "GE"`,
    error: 'apl_unexpected_token',
    at: 'contians',
    suggestion: 'contains',
  },
  { apl: `${D} | where method == "GET`, error: 'apl_unterminated_string', at: '"GET' },
  { apl: `${D} | where _time > ago(1x)`, error: 'apl_invalid_timespan_unit', at: 'x)' },
  { apl: `${D} | extend n = strlen(path, method)`, error: 'apl_wrong_arity', at: 'strlen' },
  { apl: `${D} | where count() > 1`, error: 'apl_aggregate_not_allowed', at: 'count' },
  { apl: `${D} | summarize strlen(path) by method`, error: 'apl_expected_aggregate', at: 'strlen' },
  { apl: `${D} | where strlen(path)`, error: 'apl_type_mismatch', at: 'strlen' },
  { apl: `${D} | take -1`, error: 'apl_invalid_argument', at: '-1' },
  {
    apl: `${D} | join kind=innr (${D}) on method`,
    error: 'apl_invalid_argument',
    at: 'innr',
    suggestion: 'inner',
  },
  { apl: `${D} | where path matches regex "(unclosed"`, error: 'apl_invalid_regex', at: '"(unclosed' },
  { apl: `${D} | where (status > 1`, error: 'apl_expected_token', at: '' },
  { apl: `${D} |`, error: 'apl_expected_token', at: '' },
  { apl: `${D} | WHERE status > 1`, error: 'apl_unknown_operator', at: 'WHERE', suggestion: 'where' },
];

const VALID = [
  `${D} | where status == 200 | summarize c = count() by method`,
  `${D} | extend x = strlen(path) + 1 | project x, method | take 5`,
  `${D} | where method in ("GET", "PUT") and dur between (1 .. 2) | sort by dur asc`,
  `${D} | summarize avg(dur), dcount(method), percentile(dur, 50) by bin(_time, 1h)`,
  `${D} | where path startswith "/api" | top 3 by dur desc | project _time, path`,
];
const TOKENS = [
  '|',
  '(',
  ')',
  '"',
  "'",
  '==',
  ',',
  '..',
  'where',
  'by',
  'count()',
  '1h',
  ' ',
  '\n',
  '-',
  '*',
  '#',
  'x',
];

/**
 * 200, or a user error: a 400 with an `apl_*` code (or a missing/blank query), a 404 for an unknown dataset,
 * both with the position in `detail` (a 400's message names it too); anything else (a 500) fails.
 */
interface ErrorBody {
  error?: string;
  message?: string;
  detail?: { line?: number; column?: number };
}

function expectUserOutcome(text: string, status: number, body: ErrorBody): void {
  if (![200, 400, 404].includes(status))
    throw new Error(`${JSON.stringify(text)} → ${status} ${JSON.stringify(body)}`);
  if (status === 200 || body.error === 'query_apl_missing') return;
  if (status === 400) expect(body.error).toMatch(/^apl_/);
  else expect(body.error).toBe('dataset_not_found');
  expect(body.detail).toEqual(
    expect.objectContaining({ line: expect.any(Number), column: expect.any(Number) }),
  );
  if (status === 400) expect(body.message).toContain(` at ${body.detail?.line}:${body.detail?.column}`);
}

describe('APL errors over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: DATASET } })).status).toBe(200);
    const events = [
      { _time: '2024-05-01T00:00:01Z', method: 'GET', path: '/api/users', status: 200, dur: 1.5 },
      { _time: '2024-05-01T00:10:00Z', method: 'POST', path: '/login', status: 500, dur: 20 },
      { _time: '2024-05-01T01:00:00Z', method: 'GET', path: '/', status: 404, dur: 0.2 },
    ];
    const res = await server.request('POST', `/v1/ingest/${DATASET}`, {
      body: events.map((e) => JSON.stringify(e)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
  });

  afterAll(async () => {
    await server?.close();
  });

  async function apl(text: string) {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: text, ...RANGE },
    });
    return { status: res.status, body: await res.json() };
  }

  it('answers a valid query with 200', async () => {
    for (const q of VALID) expect((await apl(q)).status).toBe(200);
  });

  it.each(CASES)('$error: $apl', async ({ apl: text, error, at, suggestion }) => {
    const { status, body } = await apl(text);
    expect(status).toBe(400);
    expect(body.error).toBe(error);
    const where = at === '' ? positionOf(text + '\u0000', '\u0000') : positionOf(text, at, D.length);
    expect(body.detail).toMatchObject(where);
    expect(body.message).toContain(` at ${where.line}:${where.column}`);
    if (suggestion) {
      expect(body.message).toMatch(new RegExp(`at \\d+:\\d+; did you mean '${suggestion}'\\?$`));
      expect(body.detail.suggestion).toBe(suggestion);
    } else {
      expect(body.message).not.toContain('did you mean');
    }
  });

  it('never answers 500 to 200 mutated queries', async () => {
    const mutations = fc.sample(
      fc.record({
        base: fc.constantFrom(...VALID),
        at: fc.nat(),
        cut: fc.nat({ max: 8 }),
        insert: fc.array(fc.constantFrom(...TOKENS), { maxLength: 3 }),
      }),
      { numRuns: 200, seed: 20240501 },
    );
    const statuses = new Map<number, number>();
    for (const { base, at, cut, insert } of mutations) {
      const i = at % (base.length + 1);
      const text = base.slice(0, i) + insert.join('') + base.slice(i + cut);
      const { status, body } = await apl(text);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expectUserOutcome(text, status, body);
    }
    expect(statuses.get(400)).toBeGreaterThan(0);
  });

  it('never answers 500 to 150 random texts, and every 400 / 404 has a position', async () => {
    const texts = fc.sample(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc
          .array(fc.constantFrom(D, ...TOKENS, 'summarize', 'project', 'method', '"a"'), {
            minLength: 1,
            maxLength: 10,
          })
          .map((xs) => xs.join(' ')),
      ),
      { numRuns: 150, seed: 20240502 },
    );
    for (const text of texts) {
      const { status, body } = await apl(text);
      expectUserOutcome(text, status, body);
    }
  });
});
