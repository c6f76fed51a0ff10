/**
 * Reading OTLP values the same way from protobuf (`toObject`: ids as `Uint8Array`, 64-bit integers as
 * strings) and from OTLP/JSON (ids as hex, `bytesValue` as base64, integers as strings or numbers).
 */

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Json) : {};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * A trace or span id as lowercase hex; '' when absent or all zero bytes (OTLP's "no id"). OTLP/JSON
 * writes ids as hex, but encoders that follow the plain proto3 JSON mapping write base64: text that is
 * not hex is read as base64.
 */
export function idOf(value: unknown): string {
  let hex = '';
  if (value instanceof Uint8Array) hex = Buffer.from(value).toString('hex');
  else if (typeof value === 'string') {
    hex = HEX_ID.test(value) ? value.toLowerCase() : Buffer.from(value, 'base64').toString('hex');
  }
  return /^0*$/.test(hex) ? '' : hex;
}

const HEX_ID = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * An OTLP enum value as its number: OTLP/JSON sends integers, some encoders the enum's name
 * (`SPAN_KIND_SERVER`); `names` lists the names in number order. 0 when unknown.
 */
export function enumNumber(value: unknown, names: readonly string[]): number {
  if (typeof value === 'string' && !/^\d+$/.test(value)) {
    const at = names.indexOf(value);
    return at < 0 ? 0 : at;
  }
  const n = Number(value ?? 0);
  return Number.isInteger(n) ? n : 0;
}

/** An `AnyValue` as a JSON value: kvlists become objects, arrays arrays, bytes base64, int64 numbers. */
export function anyValue(value: unknown): unknown {
  const v = obj(value);
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.arrayValue !== undefined) return arr(obj(v.arrayValue).values).map(anyValue);
  if (v.kvlistValue !== undefined) return attributesOf(obj(v.kvlistValue).values);
  if (v.bytesValue !== undefined) {
    return v.bytesValue instanceof Uint8Array
      ? Buffer.from(v.bytesValue).toString('base64')
      : String(v.bytesValue);
  }
  return null;
}

/**
 * A `KeyValue` list as an object (null prototype: a `__proto__` key is a plain key). Keys keep their
 * dots: the ingest path flattens `{"http.method": ...}` under a prefix into `<prefix>.http.method`.
 */
export function attributesOf(list: unknown): Json {
  const out = Object.create(null) as Json;
  for (const kv of arr(list)) {
    const key = obj(kv).key;
    if (typeof key !== 'string' || key === '') continue;
    out[key] = anyValue(obj(kv).value);
  }
  return out;
}

export const isEmpty = (o: Json): boolean => Object.keys(o).length === 0;

const NANOS_PER_SECOND = 1_000_000_000n;

/** Unix nanoseconds (string or number) as a BigInt; null when absent, zero or not an integer. */
export function nanosOf(value: unknown): bigint | null {
  if (value === undefined || value === null || value === '') return null;
  try {
    const n = BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
    return n > 0n ? n : null;
  } catch {
    return null;
  }
}

/**
 * Unix nanoseconds as RFC 3339 with all nine fraction digits (`…T10:00:00.123456789Z`): text, so no
 * precision is lost on the way; the ingest path keeps microseconds.
 */
export function rfc3339OfNanos(nanos: bigint): string {
  const seconds = nanos / NANOS_PER_SECOND;
  const fraction = (nanos % NANOS_PER_SECOND).toString().padStart(9, '0');
  const iso = new Date(Number(seconds) * 1000).toISOString(); // …T10:00:00.000Z
  return `${iso.slice(0, iso.length - 5)}.${fraction}Z`;
}
