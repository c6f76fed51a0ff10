import { classifyRoute, type RouteTarget } from './routes';

/** Examples of the routing table: `METHOD path` → the pool (or the gateway itself). */
const EXAMPLES: [string, RouteTarget][] = [
  // ingest
  ['POST /v1/ingest/logs', 'ingest'],
  ['POST /v1/ingest/logs?timestamp-field=ts&csv-delimiter=%3B', 'ingest'],
  ['POST /v1/datasets/foo/ingest', 'ingest'],
  ['POST /v1/metrics', 'ingest'],
  ['POST /v1/logs', 'ingest'],
  ['POST /v1/traces', 'ingest'],
  ['POST /services/collector', 'ingest'],
  ['POST /services/collector/event', 'ingest'],
  ['POST /services/collector/raw?index=logs', 'ingest'],
  ['GET /services/collector/health/1.0', 'ingest'],
  // query
  ['POST /v1/datasets/_apl', 'query'],
  ['POST /v1/datasets/_apl?format=tabular', 'query'],
  ['POST /v1/query/_apl?format=legacy', 'query'],
  ['POST /v1/query/_mpl', 'query'],
  ['OPTIONS /v1/query/_mpl', 'query'],
  ['POST /v1/query/batch', 'query'],
  ['GET /v1/query/metrics/info/datasets/otel/metrics', 'query'],
  ['GET /v1/query/metrics/info/datasets/otel/metrics/http.duration/tags/route/values', 'query'],
  ['POST /v1/datasets/foo/query', 'query'],
  // never forwarded: the nodes' internal RPC
  ['POST /internal/v1/aggregate', 'internal'],
  ['POST /internal/v1/rows', 'internal'],
  ['POST /internal/v1/mpl', 'internal'],
  ['GET /internal', 'internal'],
  // management
  ['GET /v1/cluster', 'management'],
  ['GET /v1/datasets', 'management'],
  ['POST /v1/datasets', 'management'],
  ['GET /v1/datasets/foo', 'management'],
  ['PUT /v1/datasets/foo', 'management'],
  ['DELETE /v1/datasets/foo', 'management'],
  ['POST /v1/datasets/foo/trim', 'management'],
  ['GET /v1/datasets/_apl', 'management'],
  ['GET /v1/datasets/foo/ingest', 'management'],
  ['GET /v1/user', 'management'],
  ['GET /v1/tokens/api', 'management'],
  ['GET /v2/datasets', 'management'],
  ['POST /v2/datasets/foo/trim', 'management'],
  ['POST /v2/datasets/_apl/delete', 'management'],
  ['GET /v2/datasets/foo/fields', 'management'],
  ['POST /v2/tokens/abc/regenerate', 'management'],
  ['PUT /v2/dashboards/uid/abc', 'management'],
  ['GET /v2/monitors/abc/history', 'management'],
  ['GET /v2/user', 'management'],
  ['GET /', 'management'],
  ['GET /v1/ingest', 'management'],
  ['GET /v1/metricsfoo', 'management'],
  // the gateway's own
  ['GET /healthz', 'gateway'],
  ['GET /readyz', 'gateway'],
  ['GET /metrics', 'gateway'],
  ['HEAD /metrics?x=1', 'gateway'],
];

describe('classifyRoute', () => {
  it.each(EXAMPLES)('%s → %s', (request, target) => {
    const [method, url] = request.split(' ');
    expect(classifyRoute(method, url)).toBe(target);
  });

  it('ignores the case of the method', () => {
    expect(classifyRoute('post', '/v1/datasets/_apl')).toBe('query');
  });
});
