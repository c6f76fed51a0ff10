// Records a counter, a gauge and a histogram with the official OpenTelemetry JS SDK and exports them
// once with the OTLP/HTTP protobuf exporter. Runs as its own process: the exporter loads its HTTP
// transport with a dynamic import(), which Jest's module sandbox cannot run.
//
//   node otel-metrics-export.mjs <base url> <api token> <metrics dataset>
// Exits 0 after an export the server acknowledged, 1 otherwise.
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

const [base, token, dataset] = process.argv.slice(2);
const inner = new OTLPMetricExporter({
  url: `${base}/v1/metrics`,
  headers: { Authorization: `Bearer ${token}`, 'x-axiom-metrics-dataset': dataset },
});
// The reader swallows export errors (it only logs them through diag); count results ourselves.
const results = [];
const exporter = {
  export: (metrics, done) =>
    inner.export(metrics, (result) => {
      results.push(result);
      done(result);
    }),
  forceFlush: () => inner.forceFlush(),
  shutdown: () => inner.shutdown(),
  selectAggregationTemporality: (kind) => inner.selectAggregationTemporality(kind),
  selectAggregation: (kind) => inner.selectAggregation(kind),
};
const provider = new MeterProvider({
  resource: resourceFromAttributes({ 'service.name': 'checkout', 'host.cores': 8 }),
  readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })],
});

const meter = provider.getMeter('quarry-e2e');
const requests = meter.createCounter('http.requests', { unit: '{request}' });
requests.add(2, { route: '/pay', code: 200 });
requests.add(3, { route: '/pay', code: 200 });
requests.add(1, { route: '/cart', code: 500 });
meter.createGauge('queue.depth').record(42, { queue: 'emails' });
const latency = meter.createHistogram('http.latency', { unit: 'ms' });
for (const ms of [3, 7, 400]) latency.record(ms, { route: '/pay' });

// One export only (shutdown would export the cumulative state a second time).
await provider.forceFlush();
const failed = results.filter((r) => r.code !== 0);
if (results.length === 0 || failed.length > 0) {
  console.error(
    `export failed: ${failed.map((r) => r.error?.message ?? 'unknown').join('; ') || 'nothing exported'}`,
  );
  process.exit(1);
}
console.log(`exported ${results.length} batch(es)`);
process.exit(0);
