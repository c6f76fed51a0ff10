import { invalid } from '@quarry/common';
import type { FieldValue, NormalizedEvent } from '@quarry/contracts';
import type { IngestLimits } from './limits';
import { parseTimestamp } from './timestamp';

/** Axiom's replacement for a string over the size limit (api.md §3.5). */
export const TOO_LONG_STRING = '<invalid string: too long>';

/** Names Axiom reserves for system fields; user fields with these names become `_user_<rest>` (api.md §3.4). */
const RESERVED_NAMES = new Set(['_sysTime', '_rowID', '_blockInfo', '_cursor', '_source']);

const TIME_FIELD = '_time';

/** Everything about a request that the per-event normalization needs; built once per request. */
export interface NormalizeContext {
  timestampField: string;
  timestampFormat: string | undefined;
  /** Already flattened and sanitized; applied after the event's own fields, so labels win. */
  labels: Record<string, FieldValue> | null;
  mapFields: ReadonlySet<string>;
  nowMs: number;
  limits: IngestLimits;
}

/** A record that could not become an event; the reason names the field. */
export class EventFailure {
  constructor(readonly reason: string) {}
}

/**
 * The field map of a normalized event: an object whose prototype (`fieldMapPrototype`) has no properties
 * and a null prototype itself, so like an `Object.create(null)` map, `__proto__`, `constructor` and
 * `toString` are plain keys that can never reach `Object.prototype`. Unlike `Object.create(null)`, which
 * V8 keeps in slow dictionary mode, these objects get hidden classes: events of one shape share one, and
 * setting, `in` and `for…in` over their fields stay fast.
 */
const fieldMapPrototype: object = Object.freeze(Object.create(null) as object);
export function newFieldMap(): Record<string, FieldValue> {
  return Object.create(fieldMapPrototype) as Record<string, FieldValue>;
}

/**
 * One event's fields while (and after) it is flattened: parallel name/value arrays, reused from event to
 * event, so the ingest path allocates no field map per event (`parseIngestBatch` appends the entries
 * straight into columns). Names are distinct; a repeated name keeps its first position and its last value,
 * as assignments to an object would.
 */
export class FlattenState {
  readonly names: string[] = [];
  readonly values: FieldValue[] = [];
  /** Entries in `names`/`values`. */
  size = 0;
  /** Distinct fields seen, the time fields included until the time is resolved (the field limit counts them). */
  count = 0;
  error: string | null = null;
  /**
   * Name → entry, only once a name could repeat: flattening an object cannot repeat a name unless it has
   * both a key with a dot and a nested object (`{"a.b":1,"a":{"b":2}}`), or a renamed key (`_sysTime` →
   * `_user_sysTime`), or labels.
   */
  seen: Map<string, number> | null = null;
  sawDottedKey = false;
  sawNestedObject = false;
  /**
   * The timestamp field (`timestampField`) and `_time` are kept apart while flattening; they count as
   * fields until the time is resolved.
   */
  timestampName = TIME_FIELD;
  hasTimestamp = false;
  timestamp: FieldValue = null;
  hasTime = false;
  time: FieldValue = null;

  reset(timestampName: string): void {
    this.size = 0;
    this.count = 0;
    this.error = null;
    this.seen = null;
    this.sawDottedKey = false;
    this.sawNestedObject = false;
    this.timestampName = timestampName;
    this.hasTimestamp = false;
    this.timestamp = null;
    this.hasTime = false;
    this.time = null;
  }

  /** From now on, look names up in a map (see `seen`). */
  trackNames(): void {
    if (this.seen !== null) return;
    this.seen = new Map();
    for (let i = 0; i < this.size; i++) this.seen.set(this.names[i], i);
  }

  /** Sets an entry (a new name is appended); true when the name is new. */
  put(name: string, value: FieldValue): boolean {
    const at = this.seen?.get(name);
    if (at !== undefined) {
      this.values[at] = value;
      return false;
    }
    this.names[this.size] = name;
    this.values[this.size] = value;
    this.seen?.set(name, this.size);
    this.size++;
    return true;
  }

  /** The entries as a field map (for callers that want one object per event). */
  toFieldMap(): Record<string, FieldValue> {
    const out = newFieldMap();
    for (let i = 0; i < this.size; i++) out[this.names[i]] = this.values[i];
    return out;
  }
}

/**
 * Turns one parsed JSON object into a `NormalizedEvent`: grouped form unwrapped, nested objects flattened to
 * dotted names (except declared map fields), reserved names renamed, time resolved and removed, labels
 * merged, limits applied. Field maps have a null prototype, so `__proto__` and `constructor` keys are plain
 * fields and can never reach `Object.prototype`.
 */
export function normalizeRecord(
  record: Record<string, unknown>,
  ctx: NormalizeContext,
): NormalizedEvent | EventFailure {
  const state = new FlattenState();
  const time = flattenRecord(record, ctx, state);
  if (time instanceof EventFailure) return time;
  return { time, fields: state.toFieldMap() };
}

/**
 * `normalizeRecord` into a reusable `FlattenState` (reset first): the event's fields are left in `state`'s
 * entries, and its time (epoch ms) is returned, or the reason it fails.
 */
export function flattenRecord(
  record: Record<string, unknown>,
  ctx: NormalizeContext,
  state: FlattenState,
): number | EventFailure {
  let source = record;
  let groupLabels: Record<string, unknown> | null = null;
  let groupTime: unknown = undefined;
  if (isGroupedForm(record)) {
    source = record.data as Record<string, unknown>;
    if (isPlainObject(record.labels)) groupLabels = record.labels;
    groupTime = record.time;
  }
  state.reset(ctx.timestampField);
  flattenInto(source, '', 1, state, ctx);
  if (state.error !== null) return new EventFailure(state.error);
  if (groupLabels) {
    state.trackNames(); // labels may repeat the data's names; they win
    flattenInto(groupLabels, '', 1, state, ctx);
    if (state.error !== null) return new EventFailure(state.error);
  }

  let time = ctx.nowMs;
  let rawTime: unknown;
  let timeName = ctx.timestampField;
  if (groupTime !== undefined && groupTime !== null) {
    rawTime = groupTime;
    timeName = 'time';
  } else if (state.hasTimestamp) {
    rawTime = state.timestamp;
  } else if (state.hasTime) {
    // A custom timestamp field absent from this event: fall back to `_time` rather than to now.
    rawTime = state.time;
    timeName = TIME_FIELD;
  }
  // `_time` is the system column; a user field of that name cannot exist next to it. Neither name was
  // put among the entries (see FlattenState); they stop counting as fields here.
  if (state.hasTimestamp) state.count--;
  if (state.hasTime) state.count--;
  if (rawTime !== undefined && rawTime !== null) {
    const parsed = parseTimestamp(rawTime, ctx.timestampFormat);
    if (parsed === null) return new EventFailure(timeFailure(timeName, rawTime, ctx.timestampFormat));
    if (parsed < EARLIEST_EVENT_TIME_MS) return new EventFailure(beforeEpochFailure(timeName, parsed));
    time = parsed;
  }

  if (ctx.labels) {
    state.trackNames();
    for (const name in ctx.labels) if (state.put(name, ctx.labels[name])) state.count++;
  }
  if (state.count > ctx.limits.maxFieldsPerEvent) {
    return new EventFailure(`event has ${state.count} fields; the limit is ${ctx.limits.maxFieldsPerEvent}`);
  }
  return time;
}

/** `{time?, data, labels?}` and nothing else, with `data` an object (service-spec §2.1). */
function isGroupedForm(record: Record<string, unknown>): boolean {
  if (!isPlainObject(record.data)) return false;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k !== 'time' && k !== 'data' && k !== 'labels') return false;
  }
  return true;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Flattens `obj` into `state`'s entries. Recursion depth is bounded by `limits.maxDepth` (a deeper object becomes
 * null), so the JS stack is never at risk whatever the body's nesting.
 */
function flattenInto(
  obj: Record<string, unknown>,
  prefix: string,
  depth: number,
  state: FlattenState,
  ctx: NormalizeContext,
): void {
  const keys = Object.keys(obj);
  const { limits } = ctx;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const value = obj[key];
    const name = prefix === '' ? renameReserved(key) : `${prefix}.${key}`;
    if (prefix === '' && name !== key) state.trackNames();
    else if (!state.sawDottedKey && key.includes('.')) {
      state.sawDottedKey = true;
      if (state.sawNestedObject) state.trackNames();
    }
    if (isPlainObject(value) && !(depth === 1 && ctx.mapFields.has(key))) {
      if (depth + 1 > limits.maxDepth) {
        guardHardDepth(value, depth + 1, limits);
        if (!setField(name, null, state, limits)) return;
        continue;
      }
      if (!state.sawNestedObject) {
        state.sawNestedObject = true;
        if (state.sawDottedKey) state.trackNames();
      }
      // Under the name "" keys are not prefixed (`{"":{"n":1},"n":2}` has two fields named n).
      if (name === '') state.trackNames();
      flattenInto(value, name, depth + 1, state, ctx);
      if (state.error !== null) return;
      continue;
    }
    if (!setField(name, sanitizeValue(value, depth, limits), state, limits)) return;
  }
}

function setField(name: string, value: FieldValue, state: FlattenState, limits: IngestLimits): boolean {
  // Char count is a lower bound of the UTF-8 byte count, and 3 bytes per UTF-16 unit an upper bound,
  // so byteLength is computed only for names near the limit.
  if (
    name.length > limits.maxFieldNameBytes ||
    (name.length * 3 > limits.maxFieldNameBytes && Buffer.byteLength(name, 'utf8') > limits.maxFieldNameBytes)
  ) {
    state.error = `field "${shorten(name, 64)}": name is ${Buffer.byteLength(name, 'utf8')} bytes; the limit is ${limits.maxFieldNameBytes}`;
    return false;
  }
  // The metastore (PostgreSQL text) cannot hold U+0000: such a name would stall compaction for good.
  if (name.includes('\u0000')) {
    state.error = `field "${shorten(name.replaceAll('\u0000', '\\u0000'), 64)}": a name must not contain U+0000`;
    return false;
  }
  const isTimestamp = name === state.timestampName;
  const isTime = !isTimestamp && name === TIME_FIELD;
  const isNew = isTimestamp ? !state.hasTimestamp : isTime ? !state.hasTime : state.put(name, value);
  if (isNew) {
    state.count++;
    if (state.count > limits.maxFieldsPerEvent + 1) {
      // Stop early: an object with a million keys should not cost a million field writes.
      state.error = `event has more than ${limits.maxFieldsPerEvent} fields; the limit is ${limits.maxFieldsPerEvent}`;
      return false;
    }
  }
  if (isTimestamp) {
    state.hasTimestamp = true;
    state.timestamp = value;
  } else if (isTime) {
    state.hasTime = true;
    state.time = value;
  }
  return true;
}

/**
 * Makes a value safe to store: long strings replaced, non-finite numbers null (JSON's `1e400` parses to
 * Infinity), values deeper than the limit null, objects rebuilt with a null prototype.
 */
export function sanitizeValue(value: unknown, depth: number, limits: IngestLimits): FieldValue {
  switch (typeof value) {
    case 'string':
      return value.length * 3 > limits.maxStringBytes &&
        Buffer.byteLength(value, 'utf8') > limits.maxStringBytes
        ? TOO_LONG_STRING
        : value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'object': {
      if (value === null) return null;
      if (depth > limits.maxDepth) {
        guardHardDepth(value, depth, limits);
        return null;
      }
      if (Array.isArray(value)) {
        const out: FieldValue[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) out[i] = sanitizeValue(value[i], depth + 1, limits);
        return out;
      }
      const out: Record<string, FieldValue> = Object.create(null);
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        out[keys[i]] = sanitizeValue((value as Record<string, unknown>)[keys[i]], depth + 1, limits);
      }
      return out;
    }
    default:
      return null;
  }
}

/**
 * Rejects the request when a value reaches the hard depth. Iterative (explicit stack), since the point is
 * to look at values too deep for recursion; it stops as soon as the hard depth is reached.
 */
function guardHardDepth(value: unknown, depth: number, limits: IngestLimits): void {
  const stack: unknown[] = [value];
  const depths: number[] = [depth];
  while (stack.length > 0) {
    const v = stack.pop();
    const d = depths.pop()!;
    if (d >= limits.hardMaxDepth) {
      throw invalid(
        `event nesting is ${limits.hardMaxDepth} levels deep or more; values deeper than ${limits.maxDepth} levels are stored as null, but ${limits.hardMaxDepth} is refused`,
        {
          code: 'ingest_too_deep',
        },
      );
    }
    if (typeof v !== 'object' || v === null) continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (typeof c === 'object' && c !== null) {
        stack.push(c);
        depths.push(d + 1);
      }
    }
  }
}

/** A top-level name Axiom reserves for a system field (renamed `_user_<rest>`). */
export function isReservedName(key: string): boolean {
  return RESERVED_NAMES.has(key);
}

function renameReserved(key: string): string {
  return isReservedName(key) ? `_user_${key.slice(1)}` : key;
}

/**
 * The earliest event time ingest accepts: the Unix epoch. Queries cover `[startTime, endTime)` with
 * `startTime` at the epoch when it is not given (api.md §4.1), and times before it are not part of the
 * datetime model the query engine, the block statistics and the output formats are tested with, so an
 * older event would be acknowledged and then never returned. It fails instead, with a reason, in
 * `failures` (docs/reliability.md, "Events dated before 1970").
 */
export const EARLIEST_EVENT_TIME_MS = 0;

function beforeEpochFailure(name: string, ms: number): string {
  const when = Number.isFinite(ms) && ms >= -8.64e15 ? new Date(ms).toISOString() : String(ms);
  return `field "${shorten(name, 64)}": timestamp ${when} is before 1970-01-01T00:00:00Z; events must be dated from the Unix epoch on`;
}

function timeFailure(name: string, raw: unknown, format: string | undefined): string {
  const shown =
    typeof raw === 'string'
      ? JSON.stringify(shorten(raw, 64))
      : shorten(JSON.stringify(raw) ?? String(raw), 64);
  const how = format ? ` with format "${format}"` : '';
  return `field "${shorten(name, 64)}": cannot parse timestamp ${shown}${how}`;
}

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Flattens and sanitizes the `X-Axiom-Event-Labels` object once per request. Labels that break a limit
 * would fail every event, so they fail the request instead.
 */
export function prepareLabels(
  labels: Record<string, unknown> | null | undefined,
  ctx: Omit<NormalizeContext, 'labels'>,
): Record<string, FieldValue> | null {
  if (!labels) return null;
  // Only `_time` is set aside (and dropped): labels named like a custom timestamp field stay labels.
  const state = new FlattenState();
  flattenInto(labels, '', 1, state, { ...ctx, labels: null });
  if (state.error !== null)
    throw invalid(`X-Axiom-Event-Labels: ${state.error}`, { code: 'ingest_labels_invalid' });
  return state.size > 0 ? state.toFieldMap() : null;
}
