import { formatRfc3339 } from '@quarry/common';
import { parseTimestamp } from '@quarry/ingest-core';
import { HEC_CODES, HecRejection } from './hec-status';

/** The metadata HEC attaches to an event: from the envelope (`/event`) or the query string (`/raw`). */
export interface HecMetadata {
  host?: string;
  source?: string;
  sourcetype?: string;
}

/** Events read from a HEC body, as Quarry events (field maps), and the index the body named first. */
export interface HecBatch {
  events: Record<string, unknown>[];
  /** `index` of the first envelope that has one (`/event` only): the dataset when `?index=` is absent. */
  firstIndex: string | undefined;
}

type Json = Record<string, unknown>;

/**
 * Reads a `/services/collector/event` body: HEC envelopes concatenated (`{...}{...}`), separated by
 * whitespace or newlines, as Splunk's logging libraries batch them (a JSON array is not HEC). The whole
 * body is checked before anything is returned, so a bad envelope stores nothing; the rejection names its
 * 0-based position, as Splunk's `invalid-event-number` does.
 *
 * Mapping (docs/otel-and-hec.md): an object `event` gives its keys as top-level fields, any other
 * `event` is stored in `_raw`; `fields` is merged over them; `host`, `source` and `sourcetype` become
 * fields of those names and win over both; `time` (epoch seconds with fractions, epoch ms or RFC 3339)
 * becomes `_time`; `index` picks the dataset and is not stored.
 */
export function parseHecEvents(text: string): HecBatch {
  const events: Json[] = [];
  let firstIndex: string | undefined;
  let index = 0;
  for (const envelope of concatenatedJson(text)) {
    if (envelope instanceof Error) {
      throw new HecRejection(HEC_CODES.invalidDataFormat, envelope.message, index);
    }
    const event = eventOf(envelope, index);
    if (firstIndex === undefined && typeof envelope.index === 'string' && envelope.index !== '') {
      firstIndex = envelope.index;
    }
    events.push(event);
    index++;
  }
  if (events.length === 0) throw new HecRejection(HEC_CODES.noData);
  return { events, firstIndex };
}

/**
 * Reads a `/services/collector/raw` body: each non-blank line is one event stored in `_raw`, with the
 * query string's metadata. A JSON body (`application/json`) that is one object is one event whose keys
 * are fields, as the OpenAPI document allows.
 */
export function parseHecRaw(text: string, contentType: string | undefined, metadata: HecMetadata): HecBatch {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    const whole = tryParseObject(text);
    if (whole !== undefined)
      return { events: [withMetadata(copyOf(whole), metadata)], firstIndex: undefined };
  }
  const events: Json[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const event: Json = Object.create(null) as Json;
    event._raw = line;
    events.push(withMetadata(event, metadata));
  }
  if (events.length === 0) throw new HecRejection(HEC_CODES.noData);
  return { events, firstIndex: undefined };
}

function eventOf(envelope: Json, index: number): Json {
  if (!('event' in envelope) || envelope.event === null) {
    throw new HecRejection(HEC_CODES.eventFieldRequired, `event ${index}: "event" is required`, index);
  }
  const payload = envelope.event;
  if (payload === '') {
    throw new HecRejection(HEC_CODES.eventFieldBlank, `event ${index}: "event" is an empty string`, index);
  }
  const fields = envelope.fields;
  if (fields !== undefined && fields !== null && !isObject(fields)) {
    throw new HecRejection(HEC_CODES.indexedFieldsError, `event ${index}: "fields" must be an object`, index);
  }
  let event: Json;
  if (isObject(payload)) event = copyOf(payload);
  else {
    event = Object.create(null) as Json;
    event._raw = payload;
  }
  if (isObject(fields)) Object.assign(event, copyOf(fields));
  withMetadata(event, {
    host: stringOrUndefined(envelope.host),
    source: stringOrUndefined(envelope.source),
    sourcetype: stringOrUndefined(envelope.sourcetype),
  });
  if (envelope.time !== undefined && envelope.time !== null) {
    const ms = parseTimestamp(envelope.time, undefined);
    if (ms === null) {
      throw new HecRejection(
        HEC_CODES.invalidDataFormat,
        `event ${index}: "time" ${JSON.stringify(envelope.time)} is not epoch seconds, epoch milliseconds or RFC 3339`,
        index,
      );
    }
    // RFC 3339 rather than a number: the ingest path reads bare numbers by magnitude (seconds < 1e11).
    event._time = formatRfc3339(ms);
  }
  return event;
}

function withMetadata(event: Json, metadata: HecMetadata): Json {
  if (metadata.host !== undefined) event.host = metadata.host;
  if (metadata.source !== undefined) event.source = metadata.source;
  if (metadata.sourcetype !== undefined) event.sourcetype = metadata.sourcetype;
  return event;
}

/**
 * The top-level JSON values of a body of concatenated objects, one at a time; an `Error` (and nothing
 * after it) where the body stops being that. Scans for the end of each object (strings and escapes
 * respected) and parses only that slice.
 */
export function* concatenatedJson(text: string): Generator<Json | Error> {
  let at = 0;
  for (;;) {
    at = skipSpace(text, at);
    if (at >= text.length) return;
    if (text[at] !== '{') {
      yield new Error(
        `expected a JSON object at offset ${at}, found ${JSON.stringify(text.slice(at, at + 16))}`,
      );
      return;
    }
    const end = endOfObject(text, at);
    if (end < 0) {
      yield new Error(`the JSON object starting at offset ${at} is not closed`);
      return;
    }
    try {
      yield JSON.parse(text.slice(at, end)) as Json;
    } catch (err) {
      yield new Error(`invalid JSON at offset ${at}: ${(err as Error).message}`);
      return;
    }
    at = end;
  }
}

/** One past the `}` closing the object that opens at `start`, or -1 when the text ends first. */
function endOfObject(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    at++;
  }
  return at;
}

function tryParseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A null-prototype copy: `Object.assign` onto it cannot be steered by a `__proto__` key. */
function copyOf(source: Json): Json {
  const out = Object.create(null) as Json;
  for (const key of Object.keys(source)) out[key] = source[key];
  return out;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
