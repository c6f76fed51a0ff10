// Records spans and log records with the official OpenTelemetry JS SDK (sdk-trace-base, sdk-logs) and
// exports them with the OTLP/HTTP exporters, built exactly as @opentelemetry/exporter-trace-otlp-proto,
// exporter-trace-otlp-http, exporter-logs-otlp-proto and exporter-logs-otlp-http build theirs (those
// four packages are not installed; they are each a ten-line subclass of OTLPExporterBase over
// createOtlpHttpExportDelegate with the serializer below). Runs as its own process: the HTTP transport
// loads with a dynamic import(), which Jest's module sandbox cannot run.
//
//   node otel-traces-logs-export.mjs <base url> <api token> <traces dataset> <logs dataset> <proto|json>
// Prints {"traceId": ...} and exits 0 after exports the server acknowledged, 1 otherwise.
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const [base, token, tracesDataset, logsDataset, protocol] = process.argv.slice(2);
const proto = protocol === 'proto';

function exporter(signal, dataset) {
  const serializer =
    signal === 'TRACES'
      ? proto
        ? ProtobufTraceSerializer
        : JsonTraceSerializer
      : proto
        ? ProtobufLogsSerializer
        : JsonLogsSerializer;
  const path = signal === 'TRACES' ? 'v1/traces' : 'v1/logs';
  const config = {
    url: `${base}/${path}`,
    headers: { Authorization: `Bearer ${token}`, 'x-axiom-dataset': dataset },
  };
  const contentType = { 'Content-Type': proto ? 'application/x-protobuf' : 'application/json' };
  return new OTLPExporterBase(
    createOtlpHttpExportDelegate(convertLegacyHttpOptions(config, signal, path, contentType), serializer),
  );
}

const exportOnce = (target, items) =>
  new Promise((resolve) => target.export(items, (result) => resolve(result)));

const resource = resourceFromAttributes({ 'service.name': 'checkout', 'deployment.environment': 'e2e' });

// Spans: a server root with a client child and a failing internal child, at fixed offsets from t0.
const spanSink = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  resource,
  spanProcessors: [new SimpleSpanProcessor(spanSink)],
});
const tracer = tracerProvider.getTracer('quarry-e2e', '1.2.3');
// Dates, not numbers: the SDK reads a number below performance.timeOrigin as relative to it.
const t0 = Date.now() - 5_000;
const at = (offsetMs) => new Date(t0 + offsetMs);
const root = tracer.startSpan('GET /checkout', {
  kind: SpanKind.SERVER,
  startTime: at(0),
  attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, 'app.cart.items': 3 },
});
const inRoot = trace.setSpan(context.active(), root);
const db = tracer.startSpan(
  'SELECT orders',
  { kind: SpanKind.CLIENT, startTime: at(10), attributes: { 'db.system': 'postgresql' } },
  inRoot,
);
db.addEvent('rows fetched', { rows: 12 }, at(35));
db.end(at(40));
const pay = tracer.startSpan(
  'charge card',
  {
    kind: SpanKind.INTERNAL,
    startTime: at(50),
    links: [{ context: db.spanContext(), attributes: { why: 'retry' } }],
  },
  inRoot,
);
pay.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
pay.end(at(60));
root.end(at(100));

// Log records: one correlated with the failing span, one with a structured body.
const logSink = new InMemoryLogRecordExporter();
const loggerProvider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor(logSink)] });
const logger = loggerProvider.getLogger('quarry-e2e-logs');
logger.emit({
  timestamp: at(55),
  severityNumber: SeverityNumber.ERROR,
  severityText: 'ERROR',
  body: 'payment failed: card declined',
  attributes: { 'order.id': 42 },
  context: trace.setSpan(context.active(), pay),
});
logger.emit({
  timestamp: at(101),
  severityNumber: SeverityNumber.INFO,
  severityText: 'INFO',
  body: { message: 'checkout done', items: 3 },
});

const spans = spanSink.getFinishedSpans();
const logs = logSink.getFinishedLogRecords();
const results = [
  await exportOnce(exporter('TRACES', tracesDataset), spans),
  await exportOnce(exporter('LOGS', logsDataset), logs),
];
const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) {
  console.error(`export failed: ${failed.map((r) => r.error?.message ?? 'unknown').join('; ')}`);
  process.exit(1);
}
console.log(
  JSON.stringify({
    traceId: root.spanContext().traceId,
    rootSpanId: root.spanContext().spanId,
    dbSpanId: db.spanContext().spanId,
    paySpanId: pay.spanContext().spanId,
    spans: spans.length,
    logs: logs.length,
  }),
);
process.exit(0);
