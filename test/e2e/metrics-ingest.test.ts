import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as protobuf from 'protobufjs';
import { startTestServer, type TestServer } from '../support/test-server';

// The OTLP messages as the conformance sender writes them (official field numbers).
const proto = protobuf.loadSync(path.join(__dirname, '..', 'conformance', 'mpl', 'otlp_metrics.proto'));
const Request = proto.lookupType('mplcorpus.otlp.ExportMetricsServiceRequest');
const Response = proto.lookupType('mplcorpus.otlp.ExportMetricsServiceResponse');

const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const nanos = (sec: number, sub = 0) => String(BigInt(sec) * 1_000_000_000n + BigInt(sub));
const attr = (key: string, value: string | number | boolean) => ({
  key,
  value:
    typeof value === 'string'
      ? { stringValue: value }
      : typeof value === 'boolean'
        ? { boolValue: value }
        : Number.isInteger(value)
          ? { intValue: String(value) }
          : { doubleValue: value },
});

/** An OTLP/JSON request with one resource and the given metrics. */
function otlp(
  metrics: object[],
  resource: Record<string, string | number | boolean> = { host: 'h1', cores: 4 },
) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: Object.entries(resource).map(([k, v]) => attr(k, v)) },
        scopeMetrics: [{ scope: { name: 'test' }, metrics }],
      },
    ],
  };
}

const gaugeMetric = (
  name: string,
  points: [number, number][],
  attrs: Record<string, string | number | boolean> = {},
) => ({
  name,
  unit: 'By',
  gauge: {
    dataPoints: points.map(([t, v]) => ({
      timeUnixNano: nanos(t, 734_000_000),
      asDouble: v,
      attributes: Object.entries(attrs).map(([k, a]) => attr(k, a)),
    })),
  },
});

const encode = (request: object) => Request.encode(Request.fromObject(request)).finish();

describe('POST /v1/metrics (OTLP ingest)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '100' });
    expect(
      (await server.request('POST', '/v2/datasets', { body: { name: 'otel-m', kind: 'otel:metrics:v1' } }))
        .status,
    ).toBe(200);
    expect((await server.request('POST', '/v2/datasets', { body: { name: 'events-ds' } })).status).toBe(200);
  });
  afterAll(() => server.close());

  const send = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
    server.request('POST', '/v1/metrics', {
      body,
      headers: { 'Content-Type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'otel-m', ...headers },
    });
  const info = (p: string, headers: Record<string, string> = {}) =>
    server.request('GET', `/v1/query/metrics/info/datasets/otel-m${p}`, { headers });

  it('accepts protobuf gauges, sums and histograms and answers an empty protobuf response', async () => {
    const request = otlp([
      gaugeMetric('mem.used', [
        [T0, 100],
        [T0 + 10, 200],
      ]),
      {
        name: 'req.count',
        unit: '{request}',
        sum: {
          aggregationTemporality: 2,
          isMonotonic: true,
          dataPoints: [
            {
              startTimeUnixNano: nanos(T0 - 60),
              timeUnixNano: nanos(T0, 5),
              asInt: '7',
              attributes: [attr('code', '200')],
            },
          ],
        },
      },
      {
        name: 'req.latency',
        unit: 's',
        histogram: {
          aggregationTemporality: 1,
          dataPoints: [
            {
              timeUnixNano: nanos(T0),
              count: '3',
              sum: 0.6,
              bucketCounts: ['1', '2', '0'],
              explicitBounds: [0.1, 1],
            },
          ],
        },
      },
    ]);
    const res = await send(encode(request));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-protobuf');
    const decoded = Response.toObject(Response.decode(new Uint8Array(await res.arrayBuffer())));
    expect(decoded.partialSuccess).toBeUndefined();

    const metrics = await info('/metrics', { Accept: 'application/vnd.metrics-info.v2+json' });
    expect(await metrics.json()).toEqual({
      'mem.used': { type: 'Gauge', temporality: null, unit: 'By' },
      'req.count': { type: 'CounterMonotonic', temporality: 'Cumulative', unit: '{request}' },
      'req.latency': { type: 'Histogram', temporality: 'Delta', unit: 's' },
    });
    expect(await (await info('/metrics')).json()).toEqual(['mem.used', 'req.count', 'req.latency']);
    // Resource attributes keep their types; point attributes merge into the same tag map.
    expect(await (await info('/metrics/req.count/tags')).json()).toEqual(['code', 'cores', 'host']);
    const window = `start=2025-05-01T00:00:00Z&end=2025-05-01T01:00:00Z`;
    expect(await (await info(`/metrics/mem.used/tags/cores/values?${window}`)).json()).toEqual([4]);
    expect(await (await info(`/metrics/req.count/tags/code/values?${window}`)).json()).toEqual(['200']);
  });

  it('stores timestamps truncated to whole seconds and one point per second', async () => {
    expect(
      (
        await send(
          encode(
            otlp([
              gaugeMetric('trunc', [
                [T0 + 100, 1],
                [T0 + 100, 2],
              ]),
            ]),
          ),
        )
      ).status,
    ).toBe(200);
    const dataset = server.quarry.storage.registry.getByName('otel-m')!;
    const source = server.quarry.storage.metrics.store.sourceFor(() => dataset.id);
    const got = [];
    for await (const s of source.selectSeries({
      dataset: 'otel-m',
      metric: 'trunc',
      start: T0,
      end: T0 + 1000,
    }))
      got.push(s);
    expect(got).toHaveLength(1);
    expect(got[0].kind === 'scalar' && [...got[0].times, ...got[0].values]).toEqual([T0 + 100, 2]);
  });

  it('accepts OTLP/JSON and gzip, and answers JSON to JSON', async () => {
    const body = gzipSync(JSON.stringify(otlp([gaugeMetric('json.gauge', [[T0, 1]])])));
    const res = await send(body, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await (await info('/metrics')).json()).toContain('json.gauge');
  });

  it('rejects points over the limits and exponential histograms in partial_success, keeping the rest', async () => {
    const request = otlp([
      gaugeMetric('ok.metric', [[T0, 1]]),
      gaugeMetric('x'.repeat(257), [[T0, 1]]),
      gaugeMetric(
        'long.value',
        [
          [T0, 1],
          [T0 + 10, 1],
        ],
        { big: 'v'.repeat(1025) },
      ),
      {
        name: 'exp.hist',
        exponentialHistogram: {
          aggregationTemporality: 2,
          dataPoints: [
            { timeUnixNano: nanos(T0), count: '1' },
            { timeUnixNano: nanos(T0 + 10), count: '1' },
          ],
        },
      },
    ]);
    const res = await send(JSON.stringify(request), { 'Content-Type': 'application/json' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.partialSuccess.rejectedDataPoints).toBe('5');
    expect(body.partialSuccess.errorMessage).toMatch(/exponential histograms/);
    expect(body.partialSuccess.errorMessage).toMatch(/longer than 1024 bytes/);
    const names: string[] = await (await info('/metrics')).json();
    expect(names).toContain('ok.metric');
    expect(names).not.toContain('long.value');
    expect(names).not.toContain('exp.hist');

    const pb = await send(encode(otlp([gaugeMetric('y'.repeat(300), [[T0, 1]])])));
    expect(pb.status).toBe(200);
    const decoded = Response.toObject(Response.decode(new Uint8Array(await pb.arrayBuffer())), {
      longs: Number,
    });
    expect(decoded.partialSuccess.rejectedDataPoints).toBe(1);
  });

  it('answers clear 4xx errors', async () => {
    const bad = await send(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/not a valid OTLP ExportMetricsServiceRequest/);

    expect((await send('hello', { 'Content-Type': 'text/plain' })).status).toBe(415);

    const tooBig = await send(new Uint8Array(4 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    const bomb = await send(gzipSync(Buffer.alloc(5 * 1024 * 1024)), { 'Content-Encoding': 'gzip' });
    expect(bomb.status).toBe(413);

    const pat = await send(encode(otlp([])), {
      Authorization: `Bearer ${server.pat}`,
      'X-Axiom-Org-Id': server.orgId,
    });
    expect(pat.status).toBe(403);

    const noHeader = await server.request('POST', '/v1/metrics', {
      body: encode(otlp([])),
      headers: { 'Content-Type': 'application/x-protobuf' },
    });
    expect(noHeader.status).toBe(400);
    expect((await noHeader.json()).message).toMatch(/x-axiom-metrics-dataset/);

    expect((await send(encode(otlp([])), { 'x-axiom-metrics-dataset': 'nope' })).status).toBe(404);

    const events = await send(encode(otlp([])), { 'x-axiom-metrics-dataset': 'events-ds' });
    expect(events.status).toBe(400);
    expect((await events.json()).message).toMatch(/otel:metrics:v1/);
  });

  it('checks the ingest capability on the header dataset', async () => {
    const created = await server.request('POST', '/v2/tokens', {
      body: { name: 'other-ds-only', datasetCapabilities: { 'some-other': { ingest: ['create'] } } },
    });
    expect(created.status).toBe(200);
    const { token } = await created.json();
    expect((await send(encode(otlp([])), { Authorization: `Bearer ${token}` })).status).toBe(403);
  });

  it('answers the info endpoints with 404 for unknown datasets, metrics and tags, 400 without a window', async () => {
    expect((await server.request('GET', '/v1/query/metrics/info/datasets/nope/metrics')).status).toBe(404);
    expect((await info('/metrics/nope/tags')).status).toBe(404);
    expect((await info('/metrics/mem.used/tags/nope/values?start=now-1h&end=now')).status).toBe(404);
    expect((await info('/tags/nope/values')).status).toBe(404);
    expect((await info('/metrics/mem.used/tags/host/values')).status).toBe(400);
    expect((await info('/metrics/mem.used/tags/host/values?start=2025-05-01T00:00:00Z')).status).toBe(400);
    const find = await server.request('POST', '/v1/query/metrics/info/datasets/otel-m/metrics', {
      body: { value: 'h1' },
    });
    expect(find.status).toBe(200);
    expect((await find.json())['mem.used']).toEqual(['host']);
    expect(await (await info('/tags/host/values')).json()).toEqual(['h1']);
  });

  it('deleting a metrics dataset deletes its series', async () => {
    expect(
      (
        await server.request('POST', '/v2/datasets', {
          body: { name: 'short-lived', kind: 'otel:metrics:v1' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await send(encode(otlp([gaugeMetric('gone', [[T0, 1]])])), {
          'x-axiom-metrics-dataset': 'short-lived',
        })
      ).status,
    ).toBe(200);
    expect((await server.request('DELETE', '/v2/datasets/short-lived')).status).toBe(204);
    expect(
      (
        await server.request('POST', '/v2/datasets', {
          body: { name: 'short-lived', kind: 'otel:metrics:v1' },
        })
      ).status,
    ).toBe(200);
    const names = await server.request('GET', '/v1/query/metrics/info/datasets/short-lived/metrics');
    expect(await names.json()).toEqual([]);
  });
});

describe('metrics durability across restarts', () => {
  it('replays acknowledged points that were never compacted, and serves compacted ones from blocks', async () => {
    // No compaction while the first server runs: the points live only in the metrics log.
    let server = await startTestServer({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '3600000' });
    const dataDir = server.dataDir;
    try {
      await server.request('POST', '/v2/datasets', { body: { name: 'durable', kind: 'otel:metrics:v1' } });
      const points: [number, number][] = Array.from({ length: 50 }, (_, i) => [T0 + i * 10, i]);
      const res = await server.request('POST', '/v1/metrics', {
        body: encode(otlp([gaugeMetric('kept', points)])),
        headers: { 'Content-Type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'durable' },
      });
      expect(res.status).toBe(200);
      expect(server.quarry.storage.metrics.store.stats.tailPoints).toBe(50);
      await server.quarry.close();

      const read = async (s: TestServer) => {
        const id = s.quarry.storage.registry.getByName('durable')!.id;
        const out: number[] = [];
        for await (const series of s.quarry.storage.metrics.store
          .sourceFor(() => id)
          .selectSeries({ dataset: 'durable', metric: 'kept', start: T0, end: T0 + 1000 })) {
          if (series.kind === 'scalar') out.push(...series.values);
        }
        return out;
      };
      server = await startTestServer({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '3600000' }, dataDir);
      expect(await read(server)).toEqual(points.map((p) => p[1]));
      // Compact, restart again: the same points, now from blocks, exactly once.
      await server.quarry.storage.metrics.flush();
      expect(server.quarry.storage.metrics.store.stats.tailPoints).toBe(0);
      await server.quarry.close();
      server = await startTestServer({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '3600000' }, dataDir);
      expect(server.quarry.storage.metrics.store.stats.tailPoints).toBe(0);
      expect(await read(server)).toEqual(points.map((p) => p[1]));
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
