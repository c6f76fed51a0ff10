import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { TestServer } from '../support/test-server';
import {
  fuzzInputs,
  fuzzTimeoutMs,
  send,
  startFuzzServer,
  storedRows,
  Tally,
  watchCrashes,
} from './fuzz-harness';

const INPUTS = fuzzInputs('headers', 1500);
const DATASET = 'hdr';
const EVENTS = '{"msg":"a"}\n{"msg":"b"}';

/** Requests whose bodies are fine: only their headers are fuzzed. */
const ROUTES: { method: string; path: string; body?: () => Buffer; ingests?: boolean }[] = [
  { method: 'POST', path: `/v1/datasets/${DATASET}/ingest`, body: () => Buffer.from(EVENTS), ingests: true },
  { method: 'POST', path: `/v1/ingest/${DATASET}`, body: () => gzipSync(EVENTS), ingests: true },
  {
    method: 'POST',
    path: `/services/collector/event?index=${DATASET}`,
    body: () => Buffer.from('{"event":"x"}'),
    ingests: true,
  },
  {
    method: 'POST',
    path: '/v1/datasets/_apl?format=tabular',
    body: () => Buffer.from(JSON.stringify({ apl: `['${DATASET}'] | count` })),
  },
  {
    method: 'POST',
    path: '/v1/query/_apl?format=legacy',
    body: () => Buffer.from(JSON.stringify({ apl: `['${DATASET}'] | take 1` })),
  },
  { method: 'GET', path: '/v2/datasets' },
  { method: 'GET', path: `/v2/datasets/${DATASET}` },
  { method: 'GET', path: '/v2/tokens' },
  { method: 'GET', path: '/v2/user' },
  { method: 'GET', path: '/v2/orgs' },
  { method: 'GET', path: '/v1/datasets' },
  { method: 'GET', path: '/v2/dashboards' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/metrics' },
  { method: 'OPTIONS', path: '/v2/datasets' },
  { method: 'HEAD', path: '/v2/datasets' },
];

/** Header values node:http will send (visible ASCII and spaces); anything else it refuses itself. */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

/**
 * Issue 17, fuzzing: headers. Fine bodies on real routes with fuzzed Authorization (schemes, tokens,
 * lengths), org ids, Content-Type, Content-Encoding, Accept and Axiom's own headers. Never a 500, never a
 * crash, and the dataset holds exactly the events that were acknowledged.
 */
describe('headers fuzzer', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startFuzzServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: DATASET } })).status).toBe(200);
  });
  afterAll(() => server.close());

  it(
    `answers ${INPUTS} requests with fuzzed headers without a 500 or a crash`,
    async () => {
      const token = server.token;
      const authorization = fc.oneof(
        fc.constant(`Bearer ${token}`),
        fc.constant(`Bearer ${server.pat}`),
        fc.constant(`Splunk ${token}`),
        fc.constant(`Basic ${Buffer.from(`x:${token}`).toString('base64')}`),
        fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          'Basic',
          'Basic !!!',
          'Bearer xaat-',
          'Bearer xapt-',
          `Bearer ${token}x`,
          `bearer ${token}`,
          `Bearer  ${token}`,
          `Bearer ${'x'.repeat(4000)}`,
        ),
        headerText.map((t) => `Bearer ${t}`),
        headerText,
      );
      const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
      const headers = fc.record({
        authorization: optional(authorization),
        'x-axiom-org-id': optional(fc.oneof(fc.constant(server.orgId), headerText)),
        'content-type': optional(
          fc.oneof(
            fc.constantFrom(
              'application/json',
              'application/x-ndjson',
              'text/csv',
              'application/json; charset=latin1',
              'multipart/form-data; boundary=x',
              '*/*',
            ),
            headerText,
          ),
        ),
        'content-encoding': optional(
          fc.oneof(fc.constantFrom('gzip', 'zstd', 'identity', 'gzip, gzip', 'br', 'x'), headerText),
        ),
        accept: optional(
          fc.oneof(
            fc.constantFrom('application/json', 'text/event-stream', 'application/x-ndjson'),
            headerText,
          ),
        ),
        'accept-encoding': optional(headerText),
        'x-axiom-check': optional(headerText),
        'x-forwarded-for': optional(headerText),
        'x-axiom-metrics-dataset': optional(headerText),
        'timestamp-field': optional(headerText),
      });
      const tally = new Tally();
      const crashes = watchCrashes();
      const before = await storedRows(server);
      let acknowledged = 0;
      let refusedByClient = 0;
      try {
        await fc.assert(
          fc.asyncProperty(fc.nat(ROUTES.length - 1), headers, async (r, h) => {
            const route = ROUTES[r];
            const sent: Record<string, string> = {};
            for (const [k, v] of Object.entries(h)) if (v !== undefined) sent[k] = v;
            const answer = await send(server.url, route.method, route.path, sent, route.body?.());
            if (answer.status === -1) {
              refusedByClient++;
              return;
            }
            tally.record(answer, () => `${route.method} ${route.path} ${JSON.stringify(sent).slice(0, 600)}`);
            expect(answer.status).not.toBe(500);
            expect(answer.status).toBeGreaterThan(0);
            if (route.ingests && answer.status === 200) {
              const parsed = JSON.parse(answer.body);
              // HEC answers {text, code}; the Axiom endpoints say how many events they stored.
              acknowledged += route.path.startsWith('/services/') ? 1 : parsed.ingested;
            }
          }),
          { numRuns: INPUTS },
        );
      } finally {
        crashes.stop();
        process.stdout.write(
          `headers fuzzer: ${tally.inputs} inputs (${refusedByClient} refused by node:http), statuses ${tally.summary()}\n`,
        );
      }
      expect(tally.failures()).toEqual([]);
      expect(crashes.crashes).toEqual([]);
      expect(await storedRows(server)).toBe(before + acknowledged);
    },
    fuzzTimeoutMs(INPUTS),
  );
});
