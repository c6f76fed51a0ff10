import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { TestServer } from '../support/test-server';
import {
  storedRows,
  fuzzInputs,
  fuzzTimeoutMs,
  mutate,
  send,
  startFuzzServer,
  Tally,
  watchCrashes,
  type MutationOp,
} from './fuzz-harness';

const INPUTS = fuzzInputs('ingest', 3500);
const DATASET = 'fuzz';

/** Events whose shapes stress flattening: nesting, odd keys, big and special numbers, arrays. */
const key = fc.oneof(
  fc.constantFrom(
    '_time',
    'msg',
    'a.b',
    '',
    ' ',
    '__proto__',
    'constructor',
    '_sysTime',
    'x'.repeat(300),
    'ü',
    '$',
  ),
  fc.string({ maxLength: 10 }),
);
const leaf = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom(
    '2024-05-01T00:00:00Z',
    '1714521600',
    '1714521600000',
    'not a time',
    '9999-12-31T23:59:59Z',
  ),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const event = fc.dictionary(key, value, { maxKeys: 6 });
const events = fc.array(event, { maxLength: 8 });

const mutationOp: fc.Arbitrary<MutationOp> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('insert' as const, 'replace' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.constantFrom('{', '}', '[', ']', '"', ',', '\n', '\r\n', ':', '\\u', '\u0000', 'NaN', '1e999'),
      fc.string({ maxLength: 4 }),
    ),
  }),
  fc.record({
    kind: fc.constantFrom('delete' as const, 'duplicate' as const),
    at: fc.nat(),
    length: fc.nat(8),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function csvOf(rows: Record<string, unknown>[], delimiter: string): string {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => {
    const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\n\r;\t]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [
    names.map(cell).join(delimiter),
    ...rows.map((r) => names.map((n) => cell(r[n])).join(delimiter)),
  ].join('\n');
}

interface IngestInput {
  body: Buffer;
  contentType: string;
  encoding?: string;
  query: string;
  describe: string;
}

const CONTENT_TYPES = [
  'application/json',
  'application/x-ndjson',
  'text/csv',
  'application/nd-json',
  'text/plain',
  'application/octet-stream',
  'application/json; charset=utf-16',
  '',
];

const textBody = fc.oneof(
  events.map((e) => ({ text: JSON.stringify(e), type: 'application/json' })),
  events.map((e) => ({ text: e.map((x) => JSON.stringify(x)).join('\n'), type: 'application/x-ndjson' })),
  fc
    .tuple(events, fc.constantFrom(',', ';', '\t'))
    .map(([e, d]) => ({ text: csvOf(e, d), type: 'text/csv' })),
  fc.json().map((text) => ({ text, type: 'application/json' })),
);

const ingestInput: fc.Arbitrary<IngestInput> = fc
  .record({
    base: textBody,
    ops: fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as MutationOp[]) },
      { weight: 1, arbitrary: fc.array(mutationOp, { minLength: 1, maxLength: 3 }) },
    ),
    typeChoice: fc.oneof(
      { weight: 4, arbitrary: fc.constant(-1) },
      { weight: 1, arbitrary: fc.nat(CONTENT_TYPES.length - 1) },
    ),
    encoding: fc.oneof(
      { weight: 4, arbitrary: fc.constant('none') },
      { weight: 2, arbitrary: fc.constant('gzip') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'gzip-truncated',
          'gzip-lie',
          'zstd-lie',
          'deflate',
          'br',
          'gzip, gzip',
          'bogus',
        ),
      },
    ),
    query: fc.oneof(
      { weight: 4, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom(
              'timestamp-field',
              'timestamp-format',
              'csv-delimiter',
              'csv-fields',
              'edge',
              'junk',
            ),
            fc.oneof(
              fc.constantFrom('_time', 'ts', '2006-01-02', '%Y', ';', '', 'x,y'),
              fc.string({ maxLength: 6 }),
            ),
          )
          .map(([k, v]) => `?${k}=${encodeURIComponent(v)}`),
      },
    ),
  })
  .map(({ base, ops, typeChoice, encoding, query }) => {
    const text = ops.length ? mutate(base.text, ops) : base.text;
    const contentType = typeChoice < 0 ? base.type : CONTENT_TYPES[typeChoice];
    let body = Buffer.from(text);
    let header: string | undefined;
    if (encoding === 'gzip') {
      body = gzipSync(body);
      header = 'gzip';
    } else if (encoding === 'gzip-truncated') {
      const z = gzipSync(body);
      body = z.subarray(0, Math.max(1, z.length >> 1));
      header = 'gzip';
    } else if (encoding === 'gzip-lie' || encoding === 'zstd-lie') {
      header = encoding.split('-')[0];
    } else if (encoding !== 'none') {
      header = encoding;
    }
    return {
      body,
      contentType,
      encoding: header,
      query,
      describe: `${contentType} ${encoding} ${query} ${JSON.stringify(text.slice(0, 300))}`,
    };
  });

/**
 * Issue 17, fuzzing: ingest bodies (JSON, NDJSON, CSV; generated, mutated, truncated; gzip, broken gzip,
 * lying Content-Encoding; odd Content-Types and options) against POST /v1/datasets/{id}/ingest. Never a
 * 500, never a crash, and the dataset holds exactly the events answered `ingested` — a refused request
 * stored nothing.
 */
describe('ingest fuzzer', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startFuzzServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: DATASET } })).status).toBe(200);
  });
  afterAll(() => server.close());

  // Found by this fuzzer: a field name with U+0000 was acknowledged, then every compaction failed on it
  // (PostgreSQL text cannot hold it) and the log tail was never compacted again.
  it('fails an event whose field name holds U+0000, and compaction goes on', async () => {
    const before = await storedRows(server);
    for (const [type, body] of [
      ['application/json', '[{"k\\u0000ey":1},{"ok":1}]'],
      ['text/csv', 'a\u0000b,c\n1,2'],
    ]) {
      const answer = await send(
        server.url,
        'POST',
        `/v1/datasets/${DATASET}/ingest`,
        { authorization: `Bearer ${server.token}`, 'content-type': type },
        body,
      );
      expect(answer.status).toBe(200);
      const status = JSON.parse(answer.body);
      expect(status.failures[0].error).toMatch(/U\+0000/);
      expect(await storedRows(server)).toBe(before + 1); // {"ok":1}; the CSV row fails whole
    }
  });

  it(
    `answers ${INPUTS} generated bodies without a 500 or a crash, storing only what it acknowledged`,
    async () => {
      const tally = new Tally();
      const crashes = watchCrashes();
      let ingested = 0;
      const before = await storedRows(server);
      try {
        await fc.assert(
          fc.asyncProperty(ingestInput, async (input) => {
            const headers: Record<string, string> = { authorization: `Bearer ${server.token}` };
            if (input.contentType) headers['content-type'] = input.contentType;
            if (input.encoding) headers['content-encoding'] = input.encoding;
            const answer = await send(
              server.url,
              'POST',
              `/v1/datasets/${DATASET}/ingest${input.query}`,
              headers,
              input.body,
            );
            tally.record(answer, () => input.describe);
            expect(answer.status).not.toBe(500);
            expect(answer.status).toBeGreaterThan(0);
            const parsed = JSON.parse(answer.body);
            if (answer.status === 200) {
              expect(parsed.ingested + parsed.failed).toBeGreaterThanOrEqual(0);
              ingested += parsed.ingested;
            } else {
              expect([400, 413, 415]).toContain(answer.status);
              expect(typeof parsed.message).toBe('string');
            }
          }),
          { numRuns: INPUTS },
        );
      } finally {
        crashes.stop();
        process.stdout.write(
          `ingest fuzzer: ${tally.inputs} inputs, statuses ${tally.summary()}, ${ingested} events acknowledged\n`,
        );
      }
      expect(tally.failures()).toEqual([]);
      expect(crashes.crashes).toEqual([]);
      expect(await storedRows(server)).toBe(before + ingested);
    },
    fuzzTimeoutMs(INPUTS),
  );
});
