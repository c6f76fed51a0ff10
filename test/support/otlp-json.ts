import type { TestTarget } from './test-server';

/** One gauge point: a time in milliseconds, a value and string tags. */
export interface GaugePoint {
  timeMs: number;
  value: number;
  tags: Record<string, string>;
}

/**
 * Exports one gauge metric to a metrics dataset as OTLP/JSON over `POST /v1/metrics`, for suites that
 * need a few points in place (metrics info, authorization) rather than to test the exporter itself.
 */
export async function exportGauge(
  server: TestTarget,
  dataset: string,
  metric: { name: string; unit?: string },
  points: GaugePoint[],
): Promise<number> {
  const dataPoints = points.map((p) => ({
    timeUnixNano: String(BigInt(p.timeMs) * 1_000_000n),
    asDouble: p.value,
    attributes: Object.entries(p.tags).map(([key, value]) => ({ key, value: { stringValue: value } })),
  }));
  const res = await server.request('POST', '/v1/metrics', {
    headers: { 'x-axiom-metrics-dataset': dataset },
    body: { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ ...metric, gauge: { dataPoints } }] }] }] },
  });
  await res.arrayBuffer();
  return res.status;
}
