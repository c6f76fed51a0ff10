import { AxiomWithoutBatching } from '@axiomhq/js';
import { startTestServer, type TestServer } from '../support/test-server';

const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const RANGE = { startTime: '2025-05-01T00:00:00Z', endTime: '2025-05-01T01:00:00Z' };
const WINDOW = { start: RANGE.startTime, end: RANGE.endTime };
const DATASET = 'js-metrics';
// A metric name with a slash and a space: the client percent-encodes path segments.
const METRIC = 'http.server/request count';

/** One OTLP/JSON gauge point a minute for an hour per route; the client has no OTLP ingest of its own. */
function otlpBody() {
  const point = (route: string, code: number, i: number) => ({
    timeUnixNano: String(BigInt(T0 + 60 * i) * 1_000_000_000n),
    asDouble: route === '/a' ? i : 10,
    attributes: [
      { key: 'route', value: { stringValue: route } },
      { key: 'code', value: { intValue: String(code) } },
    ],
  });
  const points = Array.from({ length: 60 }, (_, i) => [point('/a', 200, i), point('/b', 500, i)]).flat();
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
        scopeMetrics: [{ metrics: [{ name: METRIC, unit: 'By', gauge: { dataPoints: points } }] }],
      },
    ],
  };
}

/**
 * The official client (`@axiomhq/js`) against Quarry's MPL endpoint and the metrics info endpoints it
 * wraps. Both live on Axiom's edge, so the client needs `edgeUrl` (here: the same server).
 */
describe('@axiomhq/js metrics round trip', () => {
  let server: TestServer;
  let axiom: AxiomWithoutBatching;

  beforeAll(async () => {
    server = await startTestServer();
    axiom = new AxiomWithoutBatching({ token: server.token, url: server.url, edgeUrl: server.url });
    const created = await axiom.datasets.create({ name: DATASET, kind: 'otel:metrics:v1' });
    expect(created).toMatchObject({ name: DATASET, kind: 'otel:metrics:v1' });
    expect((await axiom.datasets.list()).find((d) => d.name === DATASET)?.kind).toBe('otel:metrics:v1');
    const ingested = await server.request('POST', '/v1/metrics', {
      headers: { 'x-axiom-metrics-dataset': DATASET },
      body: otlpBody(),
    });
    expect(ingested.status).toBe(200);
  });
  afterAll(() => server.close());

  const mpl = `\`${DATASET}\`:\`${METRIC}\` | align to 30m using avg`;

  it('queries MPL as metrics-v2 by default and as metrics-v1 on request', async () => {
    const v2 = await axiom.query(mpl, { type: 'mpl', ...RANGE });
    const series = (code: number, route: string, data: number[]) => ({
      metric: METRIC,
      tags: { code, route, 'service.name': 'shop' },
      start: T0,
      resolution: 1800,
      data,
      summary: data[data.length - 1],
    });
    expect(v2).toEqual({
      metadata: expect.objectContaining({ group_keys: [], unit: 'By', warnings: [] }),
      series: [series(200, '/a', [14.5, 44.5]), series(500, '/b', [10, 10])],
    });

    const v1 = await axiom.query(`${mpl} | group by route using max`, {
      type: 'mpl',
      format: 'metrics-v1',
      ...RANGE,
    });
    expect(v1).toEqual([
      { metric: METRIC, tags: { route: '/a' }, start: T0, resolution: 1800, data: [14.5, 44.5] },
      { metric: METRIC, tags: { route: '/b' }, start: T0, resolution: 1800, data: [10, 10] },
    ]);

    // `accept` picks the format when `format` is absent.
    const v3 = await axiom.query(mpl, { type: 'mpl', accept: 'application/vnd.metrics.v3+json', ...RANGE });
    expect((v3 as { series: { summary?: number }[] }).series[0]).not.toHaveProperty('summary');
  });

  it('surfaces a query mistake as a 400 with the position', async () => {
    const failed = await axiom
      .query(`\`${DATASET}\`:\`${METRIC}\` | align to 5m usin avg`, { type: 'mpl', ...RANGE })
      .then(
        () => null,
        (e: unknown) => e as { status?: number; message: string },
      );
    expect(failed?.status).toBe(400);
    expect(failed?.message).toMatch(/expected "using", found "usin" at 1:\d+/);
  });

  it('reads the metrics info endpoints the client wraps', async () => {
    // The map the client's types describe needs the v2 Accept; without it the answer is a name list.
    expect(
      await axiom.datasets.metrics(DATASET, { ...WINDOW, accept: 'application/vnd.metrics-info.v2+json' }),
    ).toEqual({ [METRIC]: { type: 'Gauge', temporality: null, unit: 'By' } });
    expect(await axiom.datasets.metrics(DATASET, WINDOW)).toEqual([METRIC]);

    expect(await axiom.datasets.metricTags(DATASET, METRIC, WINDOW)).toEqual([
      'code',
      'route',
      'service.name',
    ]);
    expect(await axiom.datasets.metricTagValues(DATASET, METRIC, 'code', WINDOW)).toEqual([200, 500]);
    expect(await axiom.datasets.metricTagValues(DATASET, METRIC, 'route', WINDOW)).toEqual(['/a', '/b']);
    expect(await axiom.datasets.metricDatasetTags(DATASET, WINDOW)).toEqual([
      'code',
      'route',
      'service.name',
    ]);
    expect(await axiom.datasets.metricDatasetTagValues(DATASET, 'service.name', WINDOW)).toEqual(['shop']);

    // Outside the data's time range nothing is reported.
    const later = { start: '2025-05-02T00:00:00Z', end: '2025-05-02T01:00:00Z' };
    expect(await axiom.datasets.metrics(DATASET, later)).toEqual([]);
    await expect(axiom.datasets.metricTags(DATASET, 'no such metric', WINDOW)).rejects.toMatchObject({
      status: 404,
    });
  });
});
