import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../support/test-server';

const run = promisify(execFile);
const EXPORTER = path.join(__dirname, '..', 'support', 'otel-metrics-export.mjs');

/**
 * The official OpenTelemetry JS SDK and OTLP/HTTP protobuf exporter (in a child process, see
 * otel-metrics-export.mjs), pointed at Quarry as at Axiom: what it records must come back from MPL and
 * the metrics info endpoints.
 */
describe('OpenTelemetry JS exporter round trip', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '100' });
    const created = await server.request('POST', '/v2/datasets', {
      body: { name: 'otel-sdk', kind: 'otel:metrics:v1' },
    });
    expect(created.status).toBe(200);
  });
  afterAll(() => server.close());

  const mpl = async (query: string) => {
    const res = await server.request('POST', '/v1/query/_mpl?format=metrics-v2', {
      body: { mpl: query, startTime: 'now-1h', endTime: 'now+1m' },
    });
    expect(res.status).toBe(200);
    return (await res.json()).series as { tags: Record<string, unknown>; data: (number | null)[] }[];
  };
  const values = (series: { data: (number | null)[] }) => series.data.filter((v): v is number => v !== null);

  it('records a counter, a gauge and a histogram, and reads them back', async () => {
    const exported = await run(process.execPath, [EXPORTER, server.url, server.token, 'otel-sdk']);
    expect(exported.stdout).toMatch(/exported 1 batch/);

    const info = (p: string, accept = 'application/json') =>
      server.request('GET', `/v1/query/metrics/info/datasets/otel-sdk${p}`, { headers: { Accept: accept } });
    expect(await (await info('/metrics', 'application/vnd.metrics-info.v2+json')).json()).toEqual({
      'http.latency': { type: 'Histogram', temporality: 'Cumulative', unit: 'ms' },
      'http.requests': { type: 'CounterMonotonic', temporality: 'Cumulative', unit: '{request}' },
      'queue.depth': { type: 'Gauge', temporality: null, unit: null },
    });
    const tags: string[] = await (await info('/metrics/http.requests/tags')).json();
    expect(tags).toEqual(expect.arrayContaining(['code', 'host.cores', 'route', 'service.name']));
    const window = 'start=now-1h&end=now%2B1m';
    expect(await (await info(`/metrics/http.requests/tags/code/values?${window}`)).json()).toEqual([
      200, 500,
    ]);
    expect(await (await info(`/tags/service.name/values`)).json()).toEqual(['checkout']);

    const counters = await mpl(
      '`otel-sdk`:`http.requests` | align to 1h using max | group by route using sum',
    );
    const byRoute = Object.fromEntries(counters.map((s) => [s.tags.route, values(s)]));
    expect(byRoute).toEqual({ '/pay': [5], '/cart': [1] });

    const gauge = await mpl(
      '`otel-sdk`:`queue.depth` | where queue == "emails" and `host.cores` == 8 | align to 1h using last',
    );
    expect(gauge.map(values)).toEqual([[42]]);

    const count = await mpl(
      '`otel-sdk`:`http.latency` | where `axiom.histogram` == "count" | align to 1h using max',
    );
    expect(count.map(values)).toEqual([[3]]);
    const sum = await mpl(
      '`otel-sdk`:`http.latency` | where `axiom.histogram` == "sum" | align to 1h using max',
    );
    expect(sum.map(values)).toEqual([[410]]);
  });
});
