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
      ['durations', 'otel:traces:v1'],
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
          // A timespan (otel:traces:v1 declares it), in the engine's timespan text.
          duration: '00:00:00.1000000',
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
          duration: '00:00:00.0300000',
          parent_span_id: ids.rootSpanId,
          error: false,
        }),
        expect.objectContaining({
          name: 'charge card',
          kind: 'internal',
          duration: '00:00:00.0100000',
          error: true,
          'status.code': 'ERROR',
          'status.message': 'card declined',
        }),
      ]);
    });

    it('answers Axiom-style APL over spans', async () => {
      const byName = await apl(`['${traces}'] | summarize avg(duration) by name | sort by name asc`);
      expect(byName).toEqual([
        { name: 'GET /checkout', avg_duration: '00:00:00.1000000' },
        { name: 'SELECT orders', avg_duration: '00:00:00.0300000' },
        { name: 'charge card', avg_duration: '00:00:00.0100000' },
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
    // One clock reading for both ends: two could straddle a millisecond and make the span 3 ms long.
    const span = (spanId: string, extra: object = {}, startMs = Date.now() - 1_000) => ({
      traceId,
      spanId,
      name: 'hand-built',
      kind: 2,
      startTimeUnixNano: String(BigInt(startMs) * 1_000_000n + 123_456n),
      endTimeUnixNano: String(BigInt(startMs) * 1_000_000n + 2_123_456n),
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

  /**
   * An otel:traces:v1 dataset's `duration` is stored as integer nanoseconds (blocks written before stay
   * so) and read as a timespan, as in Axiom: timespan literals, arithmetic, aggregates and bins work, and
   * the fields endpoint says `timespan`. Checked on the un-compacted tail and again on compacted blocks.
   */
  describe('duration is a timespan in trace datasets', () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const startNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    // service a: 50 ms, 150 ms, 250 ms; service b: 120 ms, 1.5 s, and 0.25 ms (250 µs).
    const spans: [service: string, spanId: string, durationNs: bigint][] = [
      ['a', '00000000000000a1', 50_000_000n],
      ['a', '00000000000000a2', 150_000_000n],
      ['a', '00000000000000a3', 250_000_000n],
      ['b', '00000000000000b1', 120_000_000n],
      ['b', '00000000000000b2', 1_500_000_000n],
      ['b', '00000000000000b3', 250_000n],
    ];
    const body = {
      resourceSpans: spans.map(([service, spanId, durationNs], i) => ({
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [
          {
            scope: { name: 'durations' },
            spans: [
              {
                traceId,
                spanId,
                name: `op-${service}`,
                kind: 2,
                startTimeUnixNano: String(startNs + BigInt(i) * 1_000_000n),
                endTimeUnixNano: String(startNs + BigInt(i) * 1_000_000n + durationNs),
              },
            ],
          },
        ],
      })),
    };

    beforeAll(async () => {
      const res = await server.request('POST', '/v1/traces', {
        body,
        headers: { 'x-axiom-dataset': 'durations' },
      });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });
    });

    const checkAnswers = async () => {
      expect(await apl(`['durations'] | where duration > 100ms | count`)).toEqual([{ count: 4 }]);
      expect(await apl(`['durations'] | where duration between (100ms .. 200ms) | count`)).toEqual([
        { count: 2 },
      ]);
      expect(await apl(`['durations'] | where duration < 1ms | project duration`)).toEqual([
        { duration: '00:00:00.0002500' },
      ]);
      expect(
        await apl(
          `['durations'] | summarize avg(duration), percentile(duration, 50), sum(duration), min(duration), max(duration) by ['service.name'] | sort by ['service.name'] asc`,
        ),
      ).toEqual([
        {
          'service.name': 'a',
          avg_duration: '00:00:00.1500000',
          percentile_duration: '00:00:00.1500000',
          sum_duration: '00:00:00.4500000',
          min_duration: '00:00:00.0500000',
          max_duration: '00:00:00.2500000',
        },
        {
          'service.name': 'b',
          // (120 + 1500 + 0.25) / 3 ms
          avg_duration: '00:00:00.5400833',
          percentile_duration: '00:00:00.1200000',
          sum_duration: '00:00:01.6202500',
          min_duration: '00:00:00.0002500',
          max_duration: '00:00:01.5000000',
        },
      ]);
      expect(
        await apl(
          `['durations'] | where duration > 100ms | summarize avg(duration), percentile(duration, 95) by ['service.name'] | sort by ['service.name'] asc`,
        ),
      ).toEqual([
        { 'service.name': 'a', avg_duration: '00:00:00.2000000', percentile_duration: '00:00:00.2500000' },
        { 'service.name': 'b', avg_duration: '00:00:00.8100000', percentile_duration: '00:00:01.5000000' },
      ]);
      expect(
        await apl(
          `['durations'] | extend ms = duration / 1ms, doubled = duration * 2 + 1s | where ['service.name'] == 'a' | sort by ms asc | project ms, doubled`,
        ),
      ).toEqual([
        { ms: 50, doubled: '00:00:01.1000000' },
        { ms: 150, doubled: '00:00:01.3000000' },
        { ms: 250, doubled: '00:00:01.5000000' },
      ]);
      expect(
        await apl(`['durations'] | summarize count() by bin(duration, 100ms) | sort by duration asc`),
      ).toEqual([
        { duration: '00:00:00', count_: 2 },
        { duration: '00:00:00.1000000', count_: 2 },
        { duration: '00:00:00.2000000', count_: 1 },
        { duration: '00:00:01.5000000', count_: 1 },
      ]);
      expect(await apl(`['durations'] | getschema | where ColumnName == 'duration'`)).toEqual([
        expect.objectContaining({ ColumnName: 'duration', ColumnType: 'timespan' }),
      ]);
      const legacy = await server.request('POST', '/v1/datasets/_apl?format=legacy', {
        body: { apl: `['durations'] | where duration > 1s | project duration` },
      });
      const legacyBody = await legacy.json();
      expect(legacyBody.matches.map((m: { data: object }) => m.data)).toEqual([
        { duration: '00:00:01.5000000' },
      ]);
      const legacyAgg = await server.request('POST', '/v1/datasets/_apl?format=legacy', {
        body: { apl: `['durations'] | summarize avg(duration) by ['service.name']` },
      });
      const legacyAggBody = await legacyAgg.json();
      expect(
        legacyAggBody.buckets.totals
          .map((t: { group: object; aggregations: object[] }) => ({ ...t.group, ...t.aggregations[0] }))
          .sort((x: { 'service.name': string }, y: { 'service.name': string }) =>
            x['service.name'].localeCompare(y['service.name']),
          ),
      ).toEqual([
        { 'service.name': 'a', op: 'avg_duration', value: '00:00:00.1500000' },
        { 'service.name': 'b', op: 'avg_duration', value: '00:00:00.5400833' },
      ]);
      expect(legacyAggBody.fieldsMetaMap.durations).toContainEqual(
        expect.objectContaining({ name: 'duration', type: 'timespan' }),
      );
      const fields = await server.request('GET', '/v2/datasets/durations/fields');
      expect(fields.status).toBe(200);
      const listed = (await fields.json()) as { name: string; type: string }[];
      expect(listed.find((f) => f.name === 'duration')).toMatchObject({ name: 'duration', type: 'timespan' });
    };

    it('answers timespan comparisons, arithmetic, aggregates and bins over the tail', async () => {
      await checkAnswers();
    });

    it('answers the same over compacted blocks, which hold integer nanoseconds', async () => {
      await server.compact();
      const id = server.quarry.storage.registry.getByName('durations')!.id;
      expect(server.quarry.storage.tail.snapshot(id)).toEqual([]);
      const stored = await server.metastore.datasets.listFields(id);
      expect(stored.find((f) => f.name === 'duration')?.type).toBe('integer');
      await checkAnswers();
      // Setting its metadata keeps the stored type (integer) and the declared one (timespan).
      const put = await server.request('PUT', '/v2/datasets/durations/fields/duration', {
        body: { name: 'duration', type: 'timespan', description: 'span duration' },
      });
      expect({ status: put.status, body: await put.json() }).toMatchObject({
        status: 200,
        body: { name: 'duration', type: 'timespan', description: 'span duration' },
      });
      const after = await server.metastore.datasets.listFields(id);
      expect(after.find((f) => f.name === 'duration')?.type).toBe('integer');
      await checkAnswers();
    });

    it('answers the same when a summarize is split across query workers', async () => {
      const split = await startTestServer({
        QUARRY_QUERY_WORKERS: '2',
        QUARRY_QUERY_SPLIT_MIN_ROWS: '1',
        QUARRY_COMPACT_INTERVAL_MS: '3600000',
      });
      try {
        const created = await split.request('POST', '/v2/datasets', {
          body: { name: 'durations', kind: 'otel:traces:v1' },
        });
        expect(created.status).toBe(200);
        // Two blocks (one per half), so the workers each get one.
        for (const half of [body.resourceSpans.slice(0, 3), body.resourceSpans.slice(3)]) {
          const res = await split.request('POST', '/v1/traces', {
            body: { resourceSpans: half },
            headers: { 'x-axiom-dataset': 'durations' },
          });
          expect(res.status).toBe(200);
          await split.compact();
        }
        const before = split.quarry.storage.querySplits;
        const res = await split.request('POST', '/v1/datasets/_apl?format=tabular', {
          body: {
            apl: `['durations'] | where duration > 100ms | summarize avg(duration), percentile(duration, 95), count() by ['service.name'] | sort by ['service.name'] asc`,
          },
        });
        expect(res.status).toBe(200);
        expect(rowsOf((await res.json()).tables[0])).toEqual([
          {
            'service.name': 'a',
            avg_duration: '00:00:00.2000000',
            percentile_duration: '00:00:00.2500000',
            count_: 2,
          },
          {
            'service.name': 'b',
            avg_duration: '00:00:00.8100000',
            percentile_duration: '00:00:01.5000000',
            count_: 2,
          },
        ]);
        expect(split.quarry.storage.querySplits).toBe(before + 1);
      } finally {
        await split.close();
      }
    });

    it('stays an integer in a plain event dataset', async () => {
      const res = await server.request('POST', '/v1/traces', {
        body,
        headers: { 'x-axiom-dataset': 'plain-events' },
      });
      expect(res.status).toBe(200);
      const rows = await apl(
        `['plain-events'] | where name == 'op-a' | sort by duration asc | project duration`,
      );
      expect(rows).toEqual([{ duration: 50_000_000 }, { duration: 150_000_000 }, { duration: 250_000_000 }]);
      const fields = await server.request('GET', '/v2/datasets/plain-events/fields');
      const listed = (await fields.json()) as { name: string; type: string }[];
      expect(listed.find((f) => f.name === 'duration')?.type).toBe('integer');
    });
  });
});
