import { addResourceAndScope, resourceFields, scopeFields } from './otlp-resource-fields';
import type { SignalConversion } from './otlp-spans-to-events';
import {
  anyValue,
  enumNumber,
  arr,
  attributesOf,
  idOf,
  isEmpty,
  type Json,
  nanosOf,
  obj,
  rfc3339OfNanos,
} from './otlp-values';

/** `SeverityNumber` names in number order (`SEVERITY_NUMBER_TRACE` = 1 … `SEVERITY_NUMBER_FATAL4` = 24). */
const SEVERITY_NAMES = [
  'SEVERITY_NUMBER_UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level) =>
    ['', '2', '3', '4'].map((n) => `SEVERITY_NUMBER_${level}${n}`),
  ),
];

/**
 * One event per log record, in the layout of Axiom's `otel:logs:v1` datasets (docs/otel-and-hec.md):
 * `_time` = time (else observed time, else receive time), `severity_text`, `severity_number`, `body`
 * (a string, or an object flattened under `body.`), `trace_id`/`span_id` when correlated,
 * `service.name`, `resource.*`, `scope.*`, `attributes.*`. No log record is refused.
 */
export function logsToEvents(request: Json): SignalConversion {
  const events: Json[] = [];
  for (const rl of arr(request.resourceLogs)) {
    const resource = resourceFields(obj(obj(rl).resource).attributes);
    for (const sl of arr(obj(rl).scopeLogs)) {
      const scope = scopeFields(obj(sl).scope);
      for (const r of arr(obj(sl).logRecords)) {
        const record = obj(r);
        const event = Object.create(null) as Json;
        const time = nanosOf(record.timeUnixNano) ?? nanosOf(record.observedTimeUnixNano);
        if (time !== null) event._time = rfc3339OfNanos(time);
        if (typeof record.severityText === 'string' && record.severityText !== '') {
          event.severity_text = record.severityText;
        }
        const severity = enumNumber(record.severityNumber, SEVERITY_NAMES);
        if (severity > 0) event.severity_number = severity;
        if (record.body !== undefined && record.body !== null) event.body = anyValue(record.body);
        const traceId = idOf(record.traceId);
        if (traceId !== '') event.trace_id = traceId;
        const spanId = idOf(record.spanId);
        if (spanId !== '') event.span_id = spanId;
        if (typeof record.eventName === 'string' && record.eventName !== '')
          event.event_name = record.eventName;
        addResourceAndScope(event, resource, scope);
        const attributes = attributesOf(record.attributes);
        if (!isEmpty(attributes)) event.attributes = attributes;
        events.push(event);
      }
    }
  }
  return { events, rejected: 0, errors: [] };
}
