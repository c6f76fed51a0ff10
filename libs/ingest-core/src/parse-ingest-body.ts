import { invalid } from '@quarry/common';
import type { NormalizedEvent } from '@quarry/contracts';
import { detectBodyFormat, firstNonSpace } from './body-format';
import { parseCsv, parseCsvFieldsHeader } from './csv-body';
import { parseJsonArray, parseNdjson, type ParsedRecords } from './json-body';
import { type IngestLimits, resolveLimits } from './limits';
import {
  EventFailure,
  isPlainObject,
  type NormalizeContext,
  normalizeRecord,
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

/**
 * Parses a decoded ingest body into normalized events. Whole-request problems (malformed JSON array, no
 * parseable event, too many events, unsupported type) throw a `QuarryError`; problems of one event become
 * a failure with a reason and the other events are still ingested.
 *
 * An empty body (or `[]`) is not an error: it yields no events, as Axiom answers `ingested: 0`.
 */
export function parseIngestBody(body: Buffer, options: IngestParseOptions): IngestParseResult {
  const limits = resolveLimits(options.limits);
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = detectBodyFormat(options.contentType, text);

  const base = {
    timestampField: options.timestampField || '_time',
    timestampFormat: options.timestampFormat || undefined,
    mapFields: new Set(options.mapFields ?? []),
    nowMs: options.nowMs,
    limits,
  };
  const ctx: NormalizeContext = { ...base, labels: prepareLabels(options.labels, base) };

  const records = parseRecords(format, text, options, limits);
  const events: NormalizedEvent[] = [];
  const failures: IngestParseFailure[] = [];
  const { values, errors, where } = records;
  for (let i = 0; i < values.length; i++) {
    const err = errors[i];
    if (err !== null) {
      failures.push({ index: i, error: `${where(i)}: ${err}` });
      continue;
    }
    const value = values[i];
    if (!isPlainObject(value)) {
      failures.push({ index: i, error: `${where(i)}: event must be a JSON object` });
      continue;
    }
    const result = normalizeRecord(value, ctx);
    if (result instanceof EventFailure) failures.push({ index: i, error: `${where(i)}: ${result.reason}` });
    else events.push(result);
  }
  return { events, failures };
}

function parseRecords(
  format: string,
  text: string,
  options: IngestParseOptions,
  limits: IngestLimits,
): ParsedRecords {
  if (format === 'csv') {
    return parseCsv(text, options.csvDelimiter ?? ',', parseCsvFieldsHeader(options.csvFields), limits);
  }
  const first = firstNonSpace(text);
  if (first === '') return { values: [], errors: [], where: () => '' };
  if (first === '[') {
    if (format === 'ndjson') {
      throw invalid('NDJSON body starts with "[": send a JSON array as application/json', {
        code: 'ingest_body_malformed',
      });
    }
    return parseJsonArray(text, limits);
  }
  if (format === 'json') {
    // `application/json` also carries NDJSON (api.md §3.1); a single pretty-printed object is one event.
    // Parsing the whole text first costs one line's work when it is NDJSON (the error comes at line 2).
    const single = tryParse(text);
    if (single !== undefined) {
      if (!isPlainObject(single)) {
        throw invalid('JSON body must be an array of events or NDJSON (one object per line)', {
          code: 'ingest_body_malformed',
        });
      }
      return { values: [single], errors: [null], where: () => 'event 1' };
    }
  }
  return parseNdjson(text, limits);
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
