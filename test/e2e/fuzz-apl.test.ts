import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type { TestServer } from '../support/test-server';
import {
  countRows,
  fuzzInputs,
  fuzzTimeoutMs,
  mutate,
  send,
  startFuzzServer,
  Tally,
  watchCrashes,
  type MutationOp,
} from './fuzz-harness';

const GOLDEN = path.join(__dirname, '..', 'golden', 'apl');
const INPUTS = fuzzInputs('apl', 3500);

/** The golden APL corpus (1,100 queries over ds, ds2, nested), comments dropped: the fuzzer's seeds. */
const corpus = fs
  .readdirSync(GOLDEN)
  .filter((f) => f.endsWith('.apl'))
  .sort()
  .map((f) =>
    fs
      .readFileSync(path.join(GOLDEN, f), 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('//'))
      .join('\n')
      .trim(),
  )
  .filter((q) => q.length > 0);

/** Pieces of APL a mutation inserts: operators, punctuation, keywords, literals at their edges. */
const TOKENS = [
  '|',
  ' | ',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  '.',
  '..',
  '=',
  '==',
  '!=',
  '=~',
  '!~',
  '<',
  '>=',
  '"',
  "'",
  '```',
  '\\',
  '//',
  '/*',
  ' and ',
  ' or ',
  ' not ',
  'where ',
  'summarize ',
  ' by ',
  'extend ',
  'project ',
  'take ',
  'top 3 by ',
  'sort by ',
  'join ',
  'union ',
  'mv-expand ',
  'parse ',
  'make-series ',
  'count()',
  'dcount(',
  'percentile(',
  'bin(_time, 1h)',
  'ago(',
  'now()',
  'datetime(',
  'dynamic(',
  'todynamic(',
  'parse_json(',
  'extract(',
  'matches regex ',
  '"(a+)+$"',
  'range x from 1 to ',
  '1e308',
  '-9223372036854775808',
  '0x',
  '1.5',
  'null',
  'true',
  'time(',
  '1d',
  '-1h',
  '_time',
  'bytes',
  'msg',
  "['geo.city']",
  'ds',
  'ds2',
  'nested',
  'ds*',
  '$left',
  '$right',
  'h"',
  '@"',
  '\u0000',
  '\u{1F600}',
];

const mutationOp: fc.Arbitrary<MutationOp> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('insert' as const, 'replace' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.constantFrom(...TOKENS),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
  }),
  fc.record({
    kind: fc.constantFrom('delete' as const, 'duplicate' as const),
    at: fc.nat(),
    length: fc.nat(12),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

const seed = fc.constantFrom(...corpus);

/** A pipeline put together from parts: valid more often than mutations, so it reaches deeper stages. */
const FIELDS = [
  '_time',
  'method',
  'status',
  'dur',
  'bytes',
  'retry',
  'city',
  'tags',
  'msg',
  'nope',
  "['geo.city']",
];
const field = fc.constantFrom(...FIELDS);
const literal = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true }).map((d) => (Number.isFinite(d) ? String(d) : '1e308')),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('null', 'true', 'ago(1h)', 'datetime(2024-05-01)', 'dynamic([1,2])', '1h', 'now()'),
);
const expr = fc
  .tuple(field, fc.constantFrom('==', '!=', '<', '>', 'contains', 'startswith', '=~', 'in'), literal)
  .map(([f, op, v]) => (op === 'in' ? `${f} in (${v})` : `${f} ${op} ${v}`));
const stage = fc.oneof(
  expr.map((e) => `where ${e}`),
  fc
    .tuple(
      fc.constantFrom(
        'count()',
        'dcount(method)',
        'avg(dur)',
        'max(bytes)',
        'make_list(msg)',
        'percentile(dur, 99)',
      ),
      field,
    )
    .map(([a, f]) => `summarize ${a} by ${f}`),
  fc.tuple(field, literal).map(([f, v]) => `extend x = ${f} + ${v}`),
  field.map((f) => `project ${f}`),
  fc.nat(100).map((n) => `take ${n}`),
  fc.tuple(field, fc.constantFrom('asc', 'desc')).map(([f, d]) => `sort by ${f} ${d}`),
  fc.tuple(fc.nat(10), field).map(([n, f]) => `top ${n} by ${f}`),
  field.map((f) => `mv-expand ${f}`),
  field.map((f) => `summarize count() by bin(_time, 1h), ${f}`),
  fc.constant('join kind=inner (ds2) on method'),
  fc.constant('union ds2'),
);
const pipeline = fc
  .tuple(
    fc.constantFrom('ds', 'ds2', 'nested', "['ds']", 'ds*', 'missing'),
    fc.array(stage, { maxLength: 5 }),
  )
  .map(([source, stages]) => [source, ...stages].join(' | '));

const aplText = fc.oneof(
  { weight: 2, arbitrary: seed },
  {
    weight: 5,
    arbitrary: fc
      .tuple(seed, fc.array(mutationOp, { minLength: 1, maxLength: 4 }))
      .map(([q, ops]) => mutate(q, ops)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(seed, seed, fc.nat(), fc.nat())
      .map(([a, b, i, j]) => a.slice(0, i % (a.length + 1)) + b.slice(j % (b.length + 1))),
  },
  { weight: 4, arbitrary: pipeline },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
);

const requestBody = fc.oneof(
  {
    weight: 8,
    arbitrary: aplText.map((apl) =>
      JSON.stringify({ apl, startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        aplText,
        fc.oneof(fc.string(), fc.constantFrom('now', 'now-1h', '2024-13-45', '')),
        fc.jsonValue(),
      )
      .map(([apl, start, end]) =>
        JSON.stringify({ apl, startTime: start, endTime: end, cursor: end, includeCursor: true }),
      ),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
);

/**
 * Issue 17, fuzzing: APL text (golden queries mutated and spliced, pipelines put together, random
 * Unicode) and query bodies against POST /v1/datasets/_apl: never a 500, never a crash, and the data
 * the queries read is unchanged at the end.
 */
describe('APL fuzzer', () => {
  let server: TestServer;
  const before: Record<string, number> = {};

  beforeAll(async () => {
    server = await startFuzzServer();
    for (const [name, file] of [
      ['ds', 'events.ndjson'],
      ['ds2', 'events2.ndjson'],
      ['nested', 'events3.ndjson'],
    ]) {
      expect((await server.request('POST', '/v2/datasets', { body: { name } })).status).toBe(200);
      const body = fs.readFileSync(path.join(GOLDEN, file));
      const res = await server.request('POST', `/v1/datasets/${name}/ingest`, {
        body,
        headers: { 'Content-Type': 'application/x-ndjson' },
      });
      expect(res.status).toBe(200);
      before[name] = await countRows(server, name);
    }
  });
  afterAll(() => server.close());

  // Found by this fuzzer: `mv-expand _time` nulls a datetime, its `bin` bucket is null, and the legacy
  // format's series could not place it (RangeError: Invalid time value -> 500).
  it('answers a legacy-format series whose time bucket is null', async () => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=legacy', {
      body: {
        apl: 'ds | mv-expand _time | summarize count() by bin(_time, 1h), dur',
        startTime: '2024-05-01T00:00:00Z',
        endTime: '2024-05-02T00:00:00Z',
      },
    });
    expect(res.status).toBe(200);
  });

  it(
    `answers ${INPUTS} generated queries without a 500 or a crash`,
    async () => {
      const tally = new Tally();
      const crashes = watchCrashes();
      const formats = ['tabular', 'legacy', 'tabular&nocache=true', 'csv', ''];
      try {
        await fc.assert(
          fc.asyncProperty(requestBody, fc.nat(formats.length - 1), async (body, f) => {
            const answer = await send(
              server.url,
              'POST',
              `/v1/datasets/_apl?format=${formats[f]}`,
              { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
              body,
            );
            tally.record(answer, () => body);
            expect(answer.status).not.toBe(500);
            expect(answer.status).toBeGreaterThan(0);
            if (answer.status >= 400) expect(typeof JSON.parse(answer.body).message).toBe('string');
          }),
          { numRuns: INPUTS },
        );
      } finally {
        crashes.stop();
        process.stdout.write(`APL fuzzer: ${tally.inputs} inputs, statuses ${tally.summary()}\n`);
      }
      expect(tally.failures()).toEqual([]);
      expect(crashes.crashes).toEqual([]);
      for (const name of Object.keys(before)) expect(await countRows(server, name)).toBe(before[name]);
    },
    fuzzTimeoutMs(INPUTS),
  );
});
