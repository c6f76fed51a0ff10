import { invalid } from '@quarry/common';
import { EventBatchBuilder, type ColumnBatch, type NormalizedEvent } from '@quarry/contracts';
import { isUtf8 } from 'node:buffer';
import { detectBodyFormat } from './body-format';
import { parseCsv, parseCsvFieldsHeader } from './csv-body';
import { JsonArrayElements } from './json-array-elements';
import {
  type FlatRecordSource,
  isFlatRecordSource,
  NdjsonLines,
  noJsonLine,
  RecordError,
  recordsOf,
  type RecordSource,
} from './json-body';
import { type IngestLimits, resolveLimits } from './limits';
import {
  EventFailure,
  flattenRecord,
  FlattenState,
  isPlainObject,
  type NormalizeContext,
  prepareLabels,
} from './normalize-event';

export interface IngestParseOptions {
  /** `Content-Type` as received; absent or empty → sniffed (JSON only). */
  contentType?: string;
  /** `timestamp-field`; default `_time`. */
  timestampField?: string;
  /** `timestamp-format`: a Go layout or a Go layout name (`RFC1123`); absent → auto-detect. */
  timestampFormat?: string;
  /** `csv-delimiter`; default `,`. */
  csvDelimiter?: string;
  /** `X-Axiom-CSV-Fields` (raw header or names); empty/absent → the first CSV line is the header. */
  csvFields?: string | readonly string[];
  /** Parsed `X-Axiom-Event-Labels` (see `parseEventLabels`), merged into every event. */
  labels?: Record<string, unknown> | null;
  /** Top-level keys kept as one map field instead of being flattened. */
  mapFields?: Iterable<string>;
  /** Receive time (epoch ms), the time of events without one. */
  nowMs: number;
  limits?: Partial<IngestLimits>;
}

export interface IngestParseFailure {
  /** 0-based position of the event in the body (among non-empty NDJSON lines / CSV rows / array elements). */
  index: number;
  /** Why, prefixed with where: `line 3: invalid JSON: ...`, `event 2: field "x": ...`. */
  error: string;
}

export interface IngestParseResult {
  events: NormalizedEvent[];
  failures: IngestParseFailure[];
}

export interface IngestBatchResult {
  /** The accepted events as columns (`EventBatchBuilder` semantics), or null when none was accepted. */
  batch: ColumnBatch | null;
  failures: IngestParseFailure[];
}

/**
 * Parses a decoded ingest body into normalized events. Whole-request problems (malformed JSON array, no
 * parseable event, too many events, unsupported type) throw a `QuarryError`; problems of one event become
 * a failure with a reason and the other events are still ingested.
 *
 * An empty body (or `[]`) is not an error: it yields no events, as Axiom answers `ingested: 0`.
 */
export function parseIngestBody(body: Buffer, options: IngestParseOptions): IngestParseResult {
  const events: NormalizedEvent[] = [];
  const state = new FlattenState();
  const failures = parseInto(body, options, state, (time) =>
    events.push({ time, fields: state.toFieldMap() }),
  );
  return { events, failures };
}

/**
 * `parseIngestBody` straight into columns: each event is flattened into a reused `FlattenState` and
 * appended to an `EventBatchBuilder` before the next line is parsed, so no per-event object outlives its
 * event (the ingest hot path). Every row's `_sysTime` is `options.nowMs`. The batch equals
 * `batchFromEvents(parseIngestBody(body, options).events, options.nowMs)`.
 */
export function parseIngestBatch(body: Buffer, options: IngestParseOptions): IngestBatchResult {
  const state = new FlattenState();
  let builder: EventBatchBuilder | null = null;
  const failures = parseInto(
    body,
    options,
    state,
    (time, capacity) => {
      builder ??= new EventBatchBuilder(capacity);
      builder.beginRow(time, options.nowMs);
      const { names, values, size } = state;
      for (let i = 0; i < size; i++) builder.set(names[i], values[i]);
      builder.endRow();
    },
    (records, ctx) => {
      // Plain NDJSON lines, JSON array elements and unquoted CSV rows go from bytes to columns (the
      // source's flat reader); the others take the general path into the same builder. Labels are merged
      // by the general path only; value bytes are copied as they are, so the body must be valid UTF-8
      // (else `toString` would have replaced the bad sequences).
      if (ctx.labels !== null || !isUtf8(body)) return null;
      builder = new EventBatchBuilder(records.count, { utf8: true });
      return records.flatReader(ctx, builder);
    },
  );
  const built = builder as EventBatchBuilder | null;
  return { batch: built === null || built.length === 0 ? null : built.finish(), failures };
}

/**
 * Reads every record of the body, flattens it into `state` and hands each accepted event to `accept` (with
 * its time, and the number of records as a capacity hint) before reading the next; returns the failures.
 * With `flatReader`, the records of a source that can read them from bytes (NDJSON lines, JSON array
 * elements, CSV rows) are first offered to the reader it gives, and only those it gives back are parsed
 * here.
 */
function parseInto(
  body: Buffer,
  options: IngestParseOptions,
  state: FlattenState,
  accept: (time: number, capacity: number) => void,
  flatReader?: (records: FlatRecordSource, ctx: NormalizeContext) => ((i: number) => boolean) | null,
): IngestParseFailure[] {
  const limits = resolveLimits(options.limits);
  const start = hasUtf8Bom(body) ? 3 : 0;
  const first = firstNonSpaceByte(body, start);
  const format = detectBodyFormat(options.contentType, first);

  const base = {
    timestampField: options.timestampField || '_time',
    timestampFormat: options.timestampFormat || undefined,
    mapFields: new Set(options.mapFields ?? []),
    nowMs: options.nowMs,
    limits,
  };
  const ctx: NormalizeContext = { ...base, labels: prepareLabels(options.labels, base) };

  const records = recordsFor(format, body, start, first, options, limits);
  const flat = flatReader && isFlatRecordSource(records) ? flatReader(records, ctx) : null;
  const failures: IngestParseFailure[] = [];
  for (let i = 0; i < records.count; i++) {
    if (flat !== null && flat(i)) continue;
    const value = records.read(i);
    if (value instanceof RecordError) {
      failures.push({ index: i, error: `${records.where(i)}: ${value.message}` });
      continue;
    }
    if (!isPlainObject(value)) {
      failures.push({ index: i, error: `${records.where(i)}: event must be a JSON object` });
      continue;
    }
    const time = flattenRecord(value, ctx, state);
    if (time instanceof EventFailure)
      failures.push({ index: i, error: `${records.where(i)}: ${time.reason}` });
    else accept(time, records.count);
  }
  if (records instanceof NdjsonLines && !records.parsedAny) throw noJsonLine(records.firstError);
  return failures;
}

function recordsFor(
  format: string,
  body: Buffer,
  start: number,
  first: string,
  options: IngestParseOptions,
  limits: IngestLimits,
): RecordSource {
  if (format === 'csv') {
    return parseCsv(
      body,
      start,
      options.csvDelimiter ?? ',',
      parseCsvFieldsHeader(options.csvFields),
      limits,
    );
  }
  if (first === '') return recordsOf([], () => '');
  if (first === '[') {
    if (format === 'ndjson') {
      throw invalid('NDJSON body starts with "[": send a JSON array as application/json', {
        code: 'ingest_body_malformed',
      });
    }
    return JsonArrayElements.of(body, start, limits);
  }
  const lines = new NdjsonLines(body, start, limits);
  if (format === 'json' && lines.count > 0) {
    // `application/json` also carries NDJSON (api.md §3.1), and a single (pretty-printed) value is one
    // event: one line is the whole body; when the first of several lines is not JSON alone, the whole
    // body may still be one value.
    const firstLine = lines.read(0);
    const whole =
      lines.count === 1
        ? firstLine
        : firstLine instanceof RecordError
          ? tryParse(body.toString('utf8', start))
          : undefined;
    if (whole !== undefined && !(whole instanceof RecordError)) {
      if (!isPlainObject(whole)) {
        throw invalid('JSON body must be an array of events or NDJSON (one object per line)', {
          code: 'ingest_body_malformed',
        });
      }
      return recordsOf([whole], () => 'event 1');
    }
  }
  return lines;
}

function hasUtf8Bom(body: Uint8Array): boolean {
  return body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
}

/** The first byte from `start` that is not JSON whitespace, as a character, or '' for a blank body. */
function firstNonSpaceByte(body: Uint8Array, start: number): string {
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return String.fromCharCode(c);
  }
  return '';
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Parses the `X-Axiom-Event-Labels` header: a JSON object, or absent/empty for none. Anything else is
 * `invalid` (400), naming the header.
 */
export function parseEventLabels(header: string | undefined): Record<string, unknown> | null {
  if (header === undefined || header.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch (err) {
    throw invalid(`X-Axiom-Event-Labels is not valid JSON: ${(err as Error).message}`, {
      code: 'ingest_labels_invalid',
    });
  }
  if (!isPlainObject(parsed)) {
    throw invalid('X-Axiom-Event-Labels must be a JSON object', { code: 'ingest_labels_invalid' });
  }
  return parsed;
}
