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
 * setting, `in` and `for…in` over their fields (normalization, building columns) stay fast.
 */
const fieldMapPrototype: object = Object.freeze(Object.create(null) as object);
function newFieldMap(): Record<string, FieldValue> {
  return Object.create(fieldMapPrototype) as Record<string, FieldValue>;
}

/** Mutable state of one event's flattening (kept in one object to avoid closures in the hot path). */
interface FlattenState {
  out: Record<string, FieldValue>;
  count: number;
  error: string | null;
  /**
   * The timestamp field (`timestampField`) and `_time`, kept out of `out` while flattening: deleting them
   * afterwards would turn every field map into a slow dictionary-mode object. They count as fields until
   * the time is resolved, exactly as if they had been set and deleted.
   */
  timestampName: string;
  hasTimestamp: boolean;
  timestamp: FieldValue;
  hasTime: boolean;
  time: FieldValue;
}

function newFlattenState(timestampName: string): FlattenState {
  return {
    out: newFieldMap(),
    count: 0,
    error: null,
    timestampName,
    hasTimestamp: false,
    timestamp: null,
    hasTime: false,
    time: null,
  };
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
  let source = record;
  let groupLabels: Record<string, unknown> | null = null;
  let groupTime: unknown = undefined;
  if (isGroupedForm(record)) {
    source = record.data as Record<string, unknown>;
    if (isPlainObject(record.labels)) groupLabels = record.labels;
    groupTime = record.time;
  }
  const state = newFlattenState(ctx.timestampField);
  flattenInto(source, '', 1, state, ctx);
  if (state.error !== null) return new EventFailure(state.error);
  if (groupLabels) {
    flattenInto(groupLabels, '', 1, state, ctx);
    if (state.error !== null) return new EventFailure(state.error);
  }
  const fields = state.out;

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
  // put in `fields` (see FlattenState); they stop counting as fields here.
  if (state.hasTimestamp) state.count--;
  if (state.hasTime) state.count--;
  if (rawTime !== undefined && rawTime !== null) {
    const parsed = parseTimestamp(rawTime, ctx.timestampFormat);
    if (parsed === null) return new EventFailure(timeFailure(timeName, rawTime, ctx.timestampFormat));
    time = parsed;
  }

  if (ctx.labels) {
    for (const name in ctx.labels) {
      if (!(name in fields)) state.count++;
      fields[name] = ctx.labels[name];
    }
  }
  if (state.count > ctx.limits.maxFieldsPerEvent) {
    return new EventFailure(`event has ${state.count} fields; the limit is ${ctx.limits.maxFieldsPerEvent}`);
  }
  return { time, fields };
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
 * Flattens `obj` into `state.out`. Recursion depth is bounded by `limits.maxDepth` (a deeper object becomes
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
    if (isPlainObject(value) && !(depth === 1 && ctx.mapFields.has(key))) {
      if (depth + 1 > limits.maxDepth) {
        guardHardDepth(value, depth + 1, limits);
        if (!setField(name, null, state, limits)) return;
        continue;
      }
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
  const isTimestamp = name === state.timestampName;
  const isTime = !isTimestamp && name === TIME_FIELD;
  const isNew = isTimestamp ? !state.hasTimestamp : isTime ? !state.hasTime : !(name in state.out);
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
  } else state.out[name] = value;
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

function renameReserved(key: string): string {
  return RESERVED_NAMES.has(key) ? `_user_${key.slice(1)}` : key;
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
  const state = newFlattenState(TIME_FIELD);
  flattenInto(labels, '', 1, state, { ...ctx, labels: null });
  if (state.error !== null)
    throw invalid(`X-Axiom-Event-Labels: ${state.error}`, { code: 'ingest_labels_invalid' });
  return Object.keys(state.out).length > 0 ? state.out : null;
}
