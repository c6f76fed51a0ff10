// Exports spans, log records and metrics over OTLP/gRPC: spans with the official
// @opentelemetry/exporter-trace-otlp-grpc (gzip-compressed), log records and metrics with the same gRPC
// export delegate the official logs and metrics gRPC exporters are built on (they are each a few-line
// subclass of OTLPExporterBase over createOtlpGrpcExportDelegate; not installed). Runs as its own process.
//
//   node otel-grpc-export.mjs <grpc url> <api token> <traces dataset> <logs dataset> <metrics dataset>
// Prints {"traces": {code, error?}, "logs": ..., "metrics": ..., "traceId": ...} and exits 0.
import { context, trace, SpanKind } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyOtlpGrpcOptions,
  createOtlpGrpcExportDelegate,
} from '@opentelemetry/otlp-grpc-exporter-base';
import { ProtobufLogsSerializer, ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { Metadata } from '@grpc/grpc-js';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  InMemoryMetricExporter,
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const [url, token, tracesDataset, logsDataset, metricsDataset] = process.argv.slice(2);

const metadataFor = (entries) => () => {
  const m = new Metadata();
  for (const [k, v] of Object.entries(entries)) m.set(k, v);
  return m;
};
const config = (dataset, header = 'x-axiom-dataset') => ({
  url,
  compression: 'gzip',
  metadata: metadataFor({ authorization: `Bearer ${token}`, [header]: dataset })(),
});

const exportOnce = (target, items) => new Promise((resolve) => target.export(items, resolve));
const outcome = (r) => ({ code: r.code, ...(r.error ? { error: r.error.message } : {}) });
const resource = resourceFromAttributes({ 'service.name': 'grpc-e2e' });

// Spans: a server root and a client child.
const spanSink = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({
  resource,
  spanProcessors: [new SimpleSpanProcessor(spanSink)],
}).getTracer('grpc');
const t0 = Date.now() - 5_000;
const at = (ms) => new Date(t0 + ms);
const root = tracer.startSpan('GET /grpc', {
  kind: SpanKind.SERVER,
  startTime: at(0),
  attributes: { 'http.request.method': 'GET', 'team.name': 'edge' },
});
const child = tracer.startSpan(
  'SELECT 1',
  { kind: SpanKind.CLIENT, startTime: at(10) },
  trace.setSpan(context.active(), root),
);
child.end(at(30));
root.end(at(100));

// Log records.
const logSink = new InMemoryLogRecordExporter();
const logger = new LoggerProvider({
  resource,
  processors: [new SimpleLogRecordProcessor(logSink)],
}).getLogger('grpc');
logger.emit({
  timestamp: at(20),
  severityNumber: SeverityNumber.WARN,
  severityText: 'WARN',
  body: 'slow query',
});

// Metrics: one gauge point, collected once.
const metricSink = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const meters = new MeterProvider({
  resource,
  readers: [new PeriodicExportingMetricReader({ exporter: metricSink, exportIntervalMillis: 3_600_000 })],
});
meters.getMeter('grpc').createGauge('queue.depth').record(7, { queue: 'grpc' });
await meters.forceFlush();

const traces = new OTLPTraceExporter(config(tracesDataset));
const logs = new OTLPExporterBase(
  createOtlpGrpcExportDelegate(
    convertLegacyOtlpGrpcOptions(config(logsDataset), 'LOGS'),
    ProtobufLogsSerializer,
    'LogsExportService',
    '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
  ),
);
const metrics = new OTLPExporterBase(
  createOtlpGrpcExportDelegate(
    convertLegacyOtlpGrpcOptions(config(metricsDataset, 'x-axiom-metrics-dataset'), 'METRICS'),
    ProtobufMetricsSerializer,
    'MetricsExportService',
    '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
  ),
);
const result = {
  traces: outcome(await exportOnce(traces, spanSink.getFinishedSpans())),
  logs: outcome(await exportOnce(logs, logSink.getFinishedLogRecords())),
  metrics: outcome(await exportOnce(metrics, metricSink.getMetrics()[0])),
  traceId: root.spanContext().traceId,
};
console.log(JSON.stringify(result));
await Promise.all([traces.shutdown(), logs.shutdown(), metrics.shutdown()]);
process.exit(0);
