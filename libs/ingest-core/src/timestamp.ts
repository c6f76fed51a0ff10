import { parseRfc3339, roundMicros } from '@quarry/common';
import { parseWithGoLayout } from './go-time-layout';

/** Layouts tried, in order, when no `timestamp-format` is given and the text is not RFC 3339. */
const AUTO_LAYOUTS = [
  'RFC1123',
  'RFC1123Z',
  'RFC850',
  'RFC822',
  'RFC822Z',
  'UnixDate',
  'RubyDate',
  'ANSIC',
  '02/Jan/2006:15:04:05 -0700',
];

const NUMERIC_RE = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Reads an epoch number by magnitude, as Axiom does: seconds below 1e11 (until year 5138), milliseconds
 * below 1e14, microseconds below 1e17, nanoseconds beyond. Returns epoch ms (µs precision).
 */
export function epochToMs(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const abs = Math.abs(value);
  let ms: number;
  if (abs < 1e11) ms = value * 1000;
  else if (abs < 1e14) ms = value;
  else if (abs < 1e17) ms = value / 1000;
  else ms = value / 1e6;
  // Beyond ±8.64e15 ms a JS Date cannot represent it.
  if (Math.abs(ms) > 8.64e15) return null;
  return roundMicros(ms);
}

/**
 * Parses an event time. With a format, strings must match the Go layout; numbers are always epochs.
 * Without one: RFC 3339 / ISO 8601, common named layouts, then numeric strings as epochs.
 * Returns epoch ms or null when the value is not a time.
 */
export function parseTimestamp(value: unknown, format: string | undefined): number | null {
  if (typeof value === 'number') return epochToMs(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (format) return parseWithGoLayout(text, format);
  const fast = parseCanonicalUtc(text);
  if (fast !== null) return fast;
  const rfc = parseRfc3339(text);
  if (rfc !== null) return rfc;
  if (NUMERIC_RE.test(text)) return epochToMs(Number(text));
  for (let i = 0; i < AUTO_LAYOUTS.length; i++) {
    const ms = parseWithGoLayout(text, AUTO_LAYOUTS[i]);
    if (ms !== null) return ms;
  }
  return null;
}

const DIGIT_0 = 48;

/**
 * Fast path for the form nearly every client sends (`toISOString()`, Go's RFC3339Nano in UTC):
 * `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`. Char-code arithmetic instead of a regex: this runs once per event.
 * Returns null for anything else (the general parser then decides).
 */
export function parseCanonicalUtc(text: string): number | null {
  return canonicalUtc(text, 0, text.length);
}

/** `parseCanonicalUtc` of the ASCII text `bytes[start, end)`, read where it lies (the NDJSON fast path). */
export function parseCanonicalUtcBytes(bytes: Uint8Array, start: number, end: number): number | null {
  return canonicalUtc(bytes, start, end - start);
}

/**
 * `parseTimestamp` of the UTF-8 text `bytes[start, end)`: the canonical UTC form read where it lies when
 * no format is given, else the text decoded and parsed (the flat readers' event times).
 */
export function parseTimestampBytes(
  bytes: Buffer,
  start: number,
  end: number,
  format: string | undefined,
): number | null {
  if (format === undefined) {
    const canonical = parseCanonicalUtcBytes(bytes, start, end);
    if (canonical !== null) return canonical;
  }
  return parseTimestamp(bytes.toString('utf8', start, end), format);
}

function canonicalUtc(src: string | Uint8Array, at: number, len: number): number | null {
  if (len < 20 || len > 30 || code(src, at + len - 1) !== 90 /* Z */) return null;
  if (code(src, at + 4) !== 45 || code(src, at + 7) !== 45 || code(src, at + 10) !== 84) return null;
  if (code(src, at + 13) !== 58 || code(src, at + 16) !== 58) return null;
  const year = digits(src, at, 4);
  const month = digits(src, at + 5, 2);
  const day = digits(src, at + 8, 2);
  const hour = digits(src, at + 11, 2);
  const minute = digits(src, at + 14, 2);
  const second = digits(src, at + 17, 2);
  if (
    year < 100 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return null;
  }
  let micros = 0;
  if (len > 20) {
    if (code(src, at + 19) !== 46 /* . */) return null;
    const fracLen = len - 21;
    if (fracLen < 1) return null;
    const frac = digits(src, at + 20, fracLen);
    if (frac < 0) return null;
    micros = Math.round(frac * 10 ** (6 - fracLen));
  } else if (len !== 20) {
    return null;
  }
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  // Feb 30 and the like: the general parser is the judge of such dates.
  if (day > daysInMonth(year, month)) return null;
  const ms = daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000;
  return roundMicros(ms + micros / 1000);
}

function code(src: string | Uint8Array, i: number): number {
  return typeof src === 'string' ? src.charCodeAt(i) : src[i];
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (year >= 0), by H. Hinnant's `days_from_civil`:
 * the same value as `Date.UTC(...) / 86400000` without a Date per event.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The decimal value of `count` digits at `start`, or -1 when one is not a digit. */
function digits(src: string | Uint8Array, start: number, count: number): number {
  let v = 0;
  for (let i = start; i < start + count; i++) {
    const d = code(src, i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
