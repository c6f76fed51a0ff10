import { isSemanticConvention } from './otel-semconv';
import {
  addResourceAndScope,
  type ResourceFields,
  resourceFields,
  scopeFields,
} from './otlp-resource-fields';
import {
  arr,
  attributesOf,
  enumNumber,
  idOf,
  isEmpty,
  type Json,
  nanosOf,
  obj,
  rfc3339OfNanos,
} from './otlp-values';

/** OTLP `Span.SpanKind` by number, as Axiom shows `kind`. */
const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const SPAN_KIND_NAMES = SPAN_KINDS.map((k) => `SPAN_KIND_${k.toUpperCase()}`);
/** OTLP `Status.StatusCode` by number; UNSET is stored as null. */
const STATUS_CODES: (string | null)[] = [null, 'OK', 'ERROR'];
const STATUS_CODE_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const STATUS_ERROR = 2;

export interface SignalConversion {
  events: Json[];
  /** Items not turned into events (counted in `partial_success`). */
  rejected: number;
  /** Distinct reasons, for `partial_success.error_message`. */
  errors: string[];
}

/**
 * One event per span, in the layout of Axiom's `otel:traces:v1` datasets (docs/otel-and-hec.md):
 * `_time` = start, `trace_id`/`span_id`/`parent_span_id` hex, `name`, `kind`, `duration` (stored as
 * integer nanoseconds; an otel:traces:v1 dataset reads it as a timespan, libs/server kind-field-types.ts),
 * `error`, `status.code`/`status.message`, `service.name`, `resource.*`, `scope.*`, `attributes.*` for
 * semantic-convention attributes and the map `attributes.custom` for the others, `events` and `links` as
 * arrays. A span without a trace or span id is rejected (partial success).
 */
export function spansToEvents(request: Json): SignalConversion {
  const out: SignalConversion = { events: [], rejected: 0, errors: [] };
  const reasons = new Set<string>();
  for (const rs of arr(request.resourceSpans)) {
    const resource = resourceFields(obj(obj(rs).resource).attributes);
    for (const ss of arr(obj(rs).scopeSpans)) {
      const scope = scopeFields(obj(ss).scope);
      for (const s of arr(obj(ss).spans)) {
        const span = obj(s);
        const traceId = idOf(span.traceId);
        const spanId = idOf(span.spanId);
        if (traceId === '' || spanId === '') {
          out.rejected++;
          reasons.add('span without a trace_id or span_id');
          continue;
        }
        out.events.push(spanEvent(span, traceId, spanId, resource, scope));
      }
    }
  }
  out.errors = [...reasons];
  return out;
}

function spanEvent(
  span: Json,
  traceId: string,
  spanId: string,
  resource: ResourceFields,
  scope: Json | null,
): Json {
  const start = nanosOf(span.startTimeUnixNano);
  const end = nanosOf(span.endTimeUnixNano);
  const status = obj(span.status);
  const statusCode = enumNumber(status.code, STATUS_CODE_NAMES);
  const event = Object.create(null) as Json;
  if (start !== null) event._time = rfc3339OfNanos(start);
  event.trace_id = traceId;
  event.span_id = spanId;
  // null rather than absent: roots are found with `isnull(parent_span_id)`, which needs the field.
  event.parent_span_id = idOf(span.parentSpanId) || null;
  event.name = typeof span.name === 'string' ? span.name : '';
  event.kind = SPAN_KINDS[enumNumber(span.kind, SPAN_KIND_NAMES)] ?? 'unspecified';
  event.duration = start !== null && end !== null && end >= start ? Number(end - start) : 0;
  event.error = statusCode === STATUS_ERROR;
  event['status.code'] = STATUS_CODES[statusCode] ?? null;
  if (typeof status.message === 'string' && status.message !== '') event['status.message'] = status.message;
  if (typeof span.traceState === 'string' && span.traceState !== '') event.trace_state = span.traceState;
  addResourceAndScope(event, resource, scope);
  const { conventional, custom } = splitAttributes(attributesOf(span.attributes));
  if (!isEmpty(conventional)) event.attributes = conventional;
  // Top-level name with a dot: the map field `attributes.custom` of the dataset (ingest keeps it whole).
  if (!isEmpty(custom)) event[CUSTOM_ATTRIBUTES] = custom;
  const events = arr(span.events).map((e) => spanEventOf(obj(e)));
  if (events.length > 0) event.events = events;
  const links = arr(span.links).map((l) => linkOf(obj(l)));
  if (links.length > 0) event.links = links;
  return event;
}

/** Where Axiom puts span attributes that are no semantic convention: one map field. */
export const CUSTOM_ATTRIBUTES = 'attributes.custom';

/** Semantic-convention attributes stay `attributes.<key>`; every other one goes to `attributes.custom`. */
function splitAttributes(attributes: Json): { conventional: Json; custom: Json } {
  const conventional = Object.create(null) as Json;
  const custom = Object.create(null) as Json;
  for (const key of Object.keys(attributes)) {
    if (isSemanticConvention(key)) conventional[key] = attributes[key];
    else custom[key] = attributes[key];
  }
  return { conventional, custom };
}

function spanEventOf(e: Json): Json {
  const at = nanosOf(e.timeUnixNano);
  const out: Json = { name: typeof e.name === 'string' ? e.name : '' };
  if (at !== null) out.timestamp = rfc3339OfNanos(at);
  const attributes = attributesOf(e.attributes);
  if (!isEmpty(attributes)) out.attributes = attributes;
  return out;
}

function linkOf(l: Json): Json {
  const out: Json = { trace_id: idOf(l.traceId), span_id: idOf(l.spanId) };
  if (typeof l.traceState === 'string' && l.traceState !== '') out.trace_state = l.traceState;
  const attributes = attributesOf(l.attributes);
  if (!isEmpty(attributes)) out.attributes = attributes;
  return out;
}
