import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

const run = promisify(execFile);
const EXPORTER = path.join(__dirname, 'otel-traces-logs-export.mjs');

/**
 * OTLP/HTTP traces and logs ('POST /v1/traces', 'POST /v1/logs'): the official OpenTelemetry JS SDK
 * records spans and log records and its OTLP/HTTP exporters send them, in protobuf and in JSON (see
 * otel-traces-logs-export.mjs); APL over the stored spans and logs must read them in Axiom's layout.
 */
describe('OTLP traces and logs', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    for (const [name, kind] of [
      ['traces', 'otel:traces:v1'],
      ['logs', 'otel:logs:v1'],
      ['traces-json', 'otel:traces:v1'],
      ['logs-json', 'otel:logs:v1'],
      ['plain-events', 'axiom:events:v1'],
      ['otel-metrics', 'otel:metrics:v1'],
    ]) {
      const created = await server.request('POST', '/v2/datasets', { body: { name, kind } });
      expect(created.status).toBe(200);
    }
  });
  afterAll(() => server?.close());

  const apl = async (query: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', { body: { apl: query } });
    const body = await res.json();
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return rowsOf(body.tables[0]);
  };

  const exportWithSdk = async (tracesDataset: string, logsDataset: string, protocol: 'proto' | 'json') => {
    const { stdout } = await run(process.execPath, [
      EXPORTER,
      server.url,
      server.token,
      tracesDataset,
      logsDataset,
      protocol,
    ]);
    return JSON.parse(stdout) as { traceId: string; rootSpanId: string; dbSpanId: string; paySpanId: string };
  };

  describe.each([
    ['proto', 'traces', 'logs'],
    ['json', 'traces-json', 'logs-json'],
  ] as const)('official SDK exporters over OTLP/HTTP %s', (protocol, traces, logs) => {
    let ids: Awaited<ReturnType<typeof exportWithSdk>>;
    beforeAll(async () => {
      ids = await exportWithSdk(traces, logs, protocol);
    });

    it('stores one event per span with the trace fields', async () => {
      const rows = await apl(
        `['${traces}'] | where trace_id == '${ids.traceId}' | sort by _time asc | project name, kind, duration, span_id, parent_span_id, error, ['status.code'], ['status.message'], ['service.name'], ['scope.name'], ['scope.version'], ['resource.deployment.environment']`,
      );
      expect(rows).toEqual([
        {
          name: 'GET /checkout',
          kind: 'server',
          duration: 100_000_000,
          span_id: ids.rootSpanId,
          parent_span_id: null,
          error: false,
          'status.code': null,
          'status.message': null,
          'service.name': 'checkout',
          'scope.name': 'quarry-e2e',
          'scope.version': '1.2.3',
          'resource.deployment.environment': 'e2e',
        },
        expect.objectContaining({
          name: 'SELECT orders',
          kind: 'client',
          duration: 30_000_000,
          parent_span_id: ids.rootSpanId,
          error: false,
        }),
        expect.objectContaining({
          name: 'charge card',
          kind: 'internal',
          duration: 10_000_000,
          error: true,
          'status.code': 'ERROR',
          'status.message': 'card declined',
        }),
      ]);
    });

    it('answers Axiom-style APL over spans', async () => {
      const byName = await apl(`['${traces}'] | summarize avg(duration) by name | sort by name asc`);
      expect(byName).toEqual([
        { name: 'GET /checkout', avg_duration: 100_000_000 },
        { name: 'SELECT orders', avg_duration: 30_000_000 },
        { name: 'charge card', avg_duration: 10_000_000 },
      ]);
      const roots = await apl(
        `['${traces}'] | where isnull(parent_span_id) | summarize count() by ['service.name']`,
      );
      expect(roots).toEqual([{ 'service.name': 'checkout', count_: 1 }]);
      const attributes = await apl(
        `['${traces}'] | where ['attributes.db.system'] == 'postgresql' | project ['attributes.db.system'], name`,
      );
      expect(attributes).toEqual([{ 'attributes.db.system': 'postgresql', name: 'SELECT orders' }]);
      // A semantic convention is attributes.<key>; app.cart.items is none: it is in the map attributes.custom.
      const http = await apl(
        `['${traces}'] | where name == 'GET /checkout' | project ['attributes.http.response.status_code'], items = ['attributes.custom']['app.cart.items'], custom = ['attributes.custom']`,
      );
      expect(http).toEqual([
        { 'attributes.http.response.status_code': 200, items: 3, custom: { 'app.cart.items': 3 } },
      ]);
      const fields = await (await server.request('GET', `/v2/datasets/${traces}/mapfields`)).json();
      expect(fields).toEqual(['attributes.custom']);
      const schema = await apl(`['${traces}'] | getschema | where ColumnName startswith 'attributes.'`);
      expect(schema.map((r) => r.ColumnName)).not.toContain('attributes.app.cart.items');
    });

    it('keeps span events and links as arrays', async () => {
      const [db] = await apl(`['${traces}'] | where span_id == '${ids.dbSpanId}' | project events`);
      expect(db.events).toEqual([
        { name: 'rows fetched', timestamp: expect.stringMatching(/Z$/), attributes: { rows: 12 } },
      ]);
      const [pay] = await apl(`['${traces}'] | where span_id == '${ids.paySpanId}' | project links`);
      expect(pay.links).toEqual([
        { trace_id: ids.traceId, span_id: ids.dbSpanId, attributes: { why: 'retry' } },
      ]);
    });

    it('stores one event per log record, correlated with its span', async () => {
      const rows = await apl(
        `['${logs}'] | sort by _time asc | project severity_text, severity_number, body, ['body.message'], ['body.items'], trace_id, span_id, ['service.name'], ['attributes.order.id'], ['scope.name']`,
      );
      expect(rows).toEqual([
        {
          severity_text: 'ERROR',
          severity_number: 17,
          body: 'payment failed: card declined',
          'body.message': null,
          'body.items': null,
          trace_id: ids.traceId,
          span_id: ids.paySpanId,
          'service.name': 'checkout',
          'attributes.order.id': 42,
          'scope.name': 'quarry-e2e-logs',
        },
        {
          severity_text: 'INFO',
          severity_number: 9,
          body: null,
          'body.message': 'checkout done',
          'body.items': 3,
          trace_id: null,
          span_id: null,
          'service.name': 'checkout',
          'attributes.order.id': null,
          'scope.name': 'quarry-e2e-logs',
        },
      ]);
      const errors = await apl(`['${logs}'] | where severity_number >= 17 | count`);
      expect(errors).toEqual([{ count: 1 }]);
    });
  });

  describe('OTLP/JSON bodies sent by hand', () => {
    const traceId = '5b8efff798038103d269b633813fc60c';
    const span = (spanId: string, extra: object = {}) => ({
      traceId,
      spanId,
      name: 'hand-built',
      kind: 2,
      startTimeUnixNano: String(BigInt(Date.now() - 1_000) * 1_000_000n + 123_456n),
      endTimeUnixNano: String(BigInt(Date.now() - 1_000) * 1_000_000n + 2_123_456n),
      ...extra,
    });
    const tracesBody = (spans: object[]) => ({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'hand' }, spans }] }],
    });
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      server.request('POST', p, { body, headers: { 'x-axiom-dataset': 'plain-events', ...headers } });

    it('takes gzip bodies into a plain event dataset and answers {} in JSON', async () => {
      const res = await server.request('POST', '/v1/traces', {
        body: gzipSync(JSON.stringify(tracesBody([span('eee19b7ec3c1b174')]))),
        headers: {
          'x-axiom-dataset': 'plain-events',
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
        },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      const rows = await apl(
        `['plain-events'] | where trace_id == '${traceId}' | project duration, kind, _time`,
      );
      expect(rows).toEqual([
        // The start is 123 456 ns past a millisecond: the microseconds survive.
        { duration: 2_000_000, kind: 'server', _time: expect.stringMatching(/\.\d{3}123Z$/) },
      ]);
    });

    it('reports spans without ids as partial success and stores the others', async () => {
      const res = await post(
        '/v1/traces',
        tracesBody([span('aaaaaaaaaaaaaaaa', { name: 'kept' }), span('')]),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        partialSuccess: { rejectedSpans: '1', errorMessage: 'span without a trace_id or span_id' },
      });
      expect(await apl(`['plain-events'] | where name == 'kept' | count`)).toEqual([{ count: 1 }]);
    });

    it('refuses bad requests with a clear message and stores nothing', async () => {
      const before = await apl(`['plain-events'] | count`);
      const cases: [string, Promise<Response>, number, RegExp][] = [
        [
          'no dataset header',
          server.request('POST', '/v1/traces', { body: tracesBody([span('bbbbbbbbbbbbbbbb')]) }),
          400,
          /x-axiom-dataset/,
        ],
        [
          'unknown dataset',
          post('/v1/logs', { resourceLogs: [] }, { 'x-axiom-dataset': 'nope' }),
          404,
          /not found/,
        ],
        [
          'metrics dataset',
          post('/v1/traces', tracesBody([]), { 'x-axiom-dataset': 'otel-metrics' }),
          400,
          /otel:traces:v1/,
        ],
        [
          'logs into a traces dataset',
          post('/v1/logs', { resourceLogs: [] }, { 'x-axiom-dataset': 'traces' }),
          400,
          /otel:logs:v1/,
        ],
        [
          'text body',
          server.request('POST', '/v1/traces', {
            body: 'hello',
            headers: { 'x-axiom-dataset': 'plain-events', 'Content-Type': 'text/plain' },
          }),
          415,
          /application\/x-protobuf/,
        ],
        [
          'broken protobuf',
          server.request('POST', '/v1/traces', {
            body: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]),
            headers: { 'x-axiom-dataset': 'plain-events', 'Content-Type': 'application/x-protobuf' },
          }),
          400,
          /not a valid OTLP ExportTraceServiceRequest/,
        ],
        [
          'broken JSON',
          post('/v1/logs', '{"resourceLogs": [', { 'Content-Type': 'application/json' }),
          400,
          /not valid JSON/,
        ],
        ['resourceSpans not an array', post('/v1/traces', { resourceSpans: {} }), 400, /must be an array/],
      ];
      for (const [what, response, status, message] of cases) {
        const res = await response;
        const body = (await res.json()) as { message?: string };
        expect({ what, status: res.status, message: body.message }).toEqual({
          what,
          status,
          message: expect.stringMatching(message),
        });
      }
      expect(await apl(`['plain-events'] | count`)).toEqual(before);
    });

    it('needs ingest|create on the dataset', async () => {
      const secret = `xaat-${randomUUID()}`;
      await server.metastore.tokens.create({
        kind: 'api',
        name: 'query only',
        secretHash: sha256Hex(secret),
        userId: server.userId,
        expiresAt: null,
        orgCapabilities: {},
        datasetCapabilities: { '*': { query: ['read'] } },
      });
      const res = await server.request('POST', '/v1/traces', {
        body: tracesBody([span('cccccccccccccccc')]),
        headers: { Authorization: `Bearer ${secret}`, 'x-axiom-dataset': 'plain-events' },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).message).toMatch(/ingest\|create/);
    });
  });
});
