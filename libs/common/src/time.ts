/**
 * Time values across Quarry are milliseconds since the Unix epoch held in a JS number, with a fractional
 * part for sub-millisecond precision. A float64 keeps microseconds exact for any date in years 1–9999
 * (|ms| < 2.6e14 needs 48 bits of the 53-bit mantissa for whole ms, leaving room for 1e-3 steps), so
 * Quarry's datetime precision is the microsecond; nanosecond digits in inputs are rounded (docs/apl.md).
 */

export const MS_PER_SECOND = 1000;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an RFC 3339 / ISO 8601 timestamp (date-only, minutes-only and offset-less forms are accepted and
 * read as UTC). Returns epoch milliseconds (microsecond precision) or `null` when the text is not one.
 */
export function parseRfc3339(text: string): number | null {
  const m = RFC3339_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const month = +mo;
  const day = +d;
  const hour = +h;
  const minute = +mi;
  const second = +s;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  let ms = Date.UTC(+y, month - 1, day, hour, minute, second);
  if (+y < 100) {
    // Date.UTC maps years 0-99 to 1900-1999; set the year explicitly.
    const date = new Date(ms);
    date.setUTCFullYear(+y);
    ms = date.getTime();
  }
  if (Number.isNaN(ms)) return null;
  if (frac) {
    // Round to the microsecond (our precision), then add as a fraction of a millisecond.
    const micros = Math.round(Number((frac + '000000000').slice(0, 9)) / 1000);
    ms += micros / 1000;
  }
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    ms -= sign * (zh * 60 + zm) * MS_PER_MINUTE;
  }
  return roundMicros(ms);
}

/** Rounds epoch milliseconds to whole microseconds (removes float noise from arithmetic). */
export function roundMicros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * Formats epoch milliseconds as RFC 3339 in UTC with `Z`, fraction trimmed of trailing zeros (Go's
 * RFC3339Nano style, which Axiom emits): `2024-05-01T00:03:16.926Z`, `2024-05-01T00:00:00Z`.
 */
export function formatRfc3339(ms: number): string {
  const totalMicros = Math.round(ms * 1000);
  const wholeMs = Math.floor(totalMicros / 1000);
  const subMicros = totalMicros - wholeMs * 1000;
  const iso = new Date(wholeMs).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ (or ±YYYYYY for far years)
  const base = iso.slice(0, iso.length - 5); // drop .mmmZ
  const millis = iso.slice(iso.length - 4, iso.length - 1);
  let fraction = millis + String(subMicros).padStart(3, '0');
  fraction = fraction.replace(/0+$/, '');
  return fraction ? `${base}.${fraction}Z` : `${base}Z`;
}

const RELATIVE_UNITS: Record<string, number> = {
  ms: 1,
  s: MS_PER_SECOND,
  m: MS_PER_MINUTE,
  h: MS_PER_HOUR,
  d: MS_PER_DAY,
  w: 7 * MS_PER_DAY,
};

const RELATIVE_RE = /^now(?:\s*([+-])\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w))?$/;

/**
 * Parses a query time bound: RFC 3339 or a relative form `now`, `now-1h`, `now-30m`, `now+1d`, `now-1w`.
 * Returns `null` when the text is neither.
 */
export function parseTimeBound(text: string, nowMs: number): number | null {
  const trimmed = text.trim();
  const rel = RELATIVE_RE.exec(trimmed);
  if (rel) {
    if (!rel[1]) return nowMs;
    const delta = Number(rel[2]) * RELATIVE_UNITS[rel[3]];
    return rel[1] === '-' ? nowMs - delta : nowMs + delta;
  }
  return parseRfc3339(trimmed);
}

/** Clock abstraction so tests can pin time. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

export function fixedClock(ms: number): Clock {
  return { nowMs: () => ms };
}

/** Go's duration units (`time.ParseDuration`), in milliseconds. */
const GO_DURATION_UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/**
 * A Go duration as clients send them (`1h`, `1h0m0s`, `90m`, `1.5h`, `250ms`) in milliseconds, or null
 * when the text is not one (no sign: callers that take durations take positive ones).
 */
export function parseGoDurationMs(text: string): number | null {
  let total = 0;
  let parts = 0;
  GO_DURATION_PART.lastIndex = 0;
  while (GO_DURATION_PART.lastIndex < text.length) {
    const at = GO_DURATION_PART.lastIndex;
    const match = GO_DURATION_PART.exec(text);
    if (!match || match.index !== at) return null;
    total += Number(match[1]) * GO_DURATION_UNIT_MS[match[2]];
    parts++;
  }
  return parts === 0 ? null : total;
}
