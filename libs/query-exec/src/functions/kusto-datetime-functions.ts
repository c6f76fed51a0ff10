/**
 * Kusto datetime functions Axiom's APL reference does not list (Quarry extensions, docs/apl.md):
 * `format_datetime(t, format)` with Kusto's format elements, `make_datetime(y, m, d [, h, mi [, s]])`,
 * `format_timespan(ts, format)`, `make_timespan([d,] h, m [, s])`, and `datetime_utc_to_local(t, tz)` /
 * `datetime_local_to_utc(t, tz)` with IANA time zones (the runtime's ICU data).
 */
import { roundMicros } from '@quarry/common';
import { datetimeOf, num, str, type ScalarImpl } from './scalar-impl';

/** Kusto's format elements, longest first so `yyyy` wins over `yy` and `y`. */
const ELEMENT = /yyyy|yy|y|MM|M|dd|d|HH|H|hh|h|mm|m|ss|s|tt|f{1,7}|F{1,7}/g;

/** The digits of the fraction of the second, seven of them (100 ns ticks; Quarry's last one is 0). */
function fractionDigits(t: number): string {
  const us = Math.round(t * 1000);
  const micros = ((us % 1_000_000) + 1_000_000) % 1_000_000;
  return String(micros).padStart(6, '0') + '0';
}

function formatElement(element: string, d: Date, t: number): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  const hour12 = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  switch (element) {
    case 'yyyy':
      return String(d.getUTCFullYear()).padStart(4, '0');
    case 'yy':
      return p2(d.getUTCFullYear() % 100);
    case 'y':
      return String(d.getUTCFullYear() % 100);
    case 'MM':
      return p2(d.getUTCMonth() + 1);
    case 'M':
      return String(d.getUTCMonth() + 1);
    case 'dd':
      return p2(d.getUTCDate());
    case 'd':
      return String(d.getUTCDate());
    case 'HH':
      return p2(d.getUTCHours());
    case 'H':
      return String(d.getUTCHours());
    case 'hh':
      return p2(hour12);
    case 'h':
      return String(hour12);
    case 'mm':
      return p2(d.getUTCMinutes());
    case 'm':
      return String(d.getUTCMinutes());
    case 'ss':
      return p2(d.getUTCSeconds());
    case 's':
      return String(d.getUTCSeconds());
    case 'tt':
      return d.getUTCHours() < 12 ? 'AM' : 'PM';
  }
  const digits = fractionDigits(t).slice(0, element.length);
  // `F…`: the digits without trailing zeros, nothing when they are all zero.
  return element[0] === 'F' ? digits.replace(/0+$/, '') : digits;
}

/** `format_datetime(t, format)`: Kusto's elements (`yyyy-MM-dd [HH:mm:ss.fff] tt`); other text is copied. */
function formatDatetime([v, f]: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const t = datetimeOf(v, kinds[0]);
  const format = str(f, kinds[1]);
  if (t === null || format === null) return null;
  const d = new Date(Math.floor(t));
  return format.replace(ELEMENT, (element) => formatElement(element, d, t));
}

/** `make_datetime(year, month, day [, hour, minute [, second]])`; null when a part is out of range. */
function makeDatetime(args: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const parts = args.map((a, i) => num(a, kinds[i]));
  if (parts.some((p) => p === null)) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts as number[];
  const whole = [year, month, day, hour, minute];
  if (!whole.every(Number.isInteger)) return null;
  if (year < 0 || year > 9999 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  if (hour < 0 || minute < 0 || second < 0 || second >= 60) return null;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1) return null; // no 31 April
  return roundMicros(date.getTime() + second * 1000);
}

/** format_timespan's elements, longest first: days `d`…`dddddddd`, `HH H hh h mm m ss s`, fractions. */
const SPAN_ELEMENT = /d{1,8}|HH|H|hh|h|mm|m|ss|s|f{1,7}|F{1,7}/g;

/**
 * `format_timespan(ts, format)`: Kusto's elements (`dd.hh:mm:ss [fffffff]`); `h`/`hh` are the hours
 * like `H`/`HH` (the page's examples use both); other text is copied. A negative span is written with
 * a leading `-` and the parts of its absolute value.
 */
function formatTimespan([v, f]: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const ms = kinds[0] === 'timespan' || kinds[0] === 'long' || kinds[0] === 'real' ? num(v, kinds[0]) : null;
  const format = str(f, kinds[1]);
  if (ms === null || format === null || !Number.isFinite(ms)) return null;
  const us = Math.round(Math.abs(ms) * 1000);
  const days = Math.floor(us / 86_400_000_000);
  const hours = Math.floor(us / 3_600_000_000) % 24;
  const minutes = Math.floor(us / 60_000_000) % 60;
  const seconds = Math.floor(us / 1_000_000) % 60;
  const fraction = String(us % 1_000_000).padStart(6, '0') + '0';
  const text = format.replace(SPAN_ELEMENT, (e) => {
    const pad = (n: number) => String(n).padStart(e.length, '0');
    switch (e[0]) {
      case 'd':
        return pad(days);
      case 'H':
      case 'h':
        return pad(hours);
      case 'm':
        return pad(minutes);
      case 's':
        return pad(seconds);
    }
    const digits = fraction.slice(0, e.length);
    return e[0] === 'F' ? digits.replace(/0+$/, '') : digits;
  });
  return ms < 0 ? '-' + text : text;
}

/**
 * `make_timespan(hour, minute)`, `(hour, minute, second)` or `(day, hour, minute, second)`: null when
 * an hour is outside 0–23, a minute outside 0–59 or a second outside [0, 60); the second keeps its
 * fraction to the microsecond.
 */
function makeTimespan(args: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const parts = args.map((a, i) => num(a, kinds[i]));
  if (parts.some((p) => p === null)) return null;
  const [day, hour, minute, second] =
    parts.length === 4 ? (parts as number[]) : [0, ...(parts as number[]), 0].slice(0, 4);
  if (![day, hour, minute].every(Number.isInteger)) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || !(second >= 0 && second < 60)) return null;
  const us = Math.round(second * 1_000_000);
  return day * 86_400_000 + hour * 3_600_000 + minute * 60_000 + us / 1000;
}

/** One formatter per time zone (null for a zone the runtime does not know), reused across rows. */
const ZONE_FORMATTERS = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormatter(zone: string): Intl.DateTimeFormat | null {
  let f = ZONE_FORMATTERS.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      f = null; // RangeError: not an IANA zone
    }
    if (ZONE_FORMATTERS.size > 1000) ZONE_FORMATTERS.clear();
    ZONE_FORMATTERS.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC (ms) at the UTC instant `t`: local wall-clock time minus `t`. */
function zoneOffset(f: Intl.DateTimeFormat, t: number): number {
  const whole = Math.floor(t / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(whole))) parts[p.type] = p.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local = new Date(
    Date.UTC(2000, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)),
  );
  local.setUTCFullYear(year);
  return local.getTime() + Number(parts.second) * 1000 - whole;
}

/** `datetime_utc_to_local(t, timezone)`: the wall-clock time in the IANA zone; null for an unknown zone. */
function utcToLocal([v, z]: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const t = datetimeOf(v, kinds[0]);
  const zone = str(z, kinds[1]);
  const f = zone === null ? null : zoneFormatter(zone);
  return t === null || f === null ? null : roundMicros(t + zoneOffset(f, t));
}

/**
 * `datetime_local_to_utc(t, timezone)`: the UTC instant whose wall-clock time in the zone is `t`. A time
 * the clocks skip (spring forward) takes the offset after the change, as Kusto's page shows (02:00 in
 * Europe/Brussels on 2022-03-27 is 00:00 UTC); a time that occurs twice (fall back) is read as standard
 * time, the smaller offset (as .NET's ConvertTimeToUtc does).
 */
function localToUtc([v, z]: unknown[], kinds: Parameters<ScalarImpl>[1]): unknown {
  const local = datetimeOf(v, kinds[0]);
  const zone = str(z, kinds[1]);
  const f = zone === null ? null : zoneFormatter(zone);
  if (local === null || f === null) return null;
  // The offsets in force a day either side cover any transition near `local`.
  const candidates = [...new Set([-1, 0, 1].map((d) => zoneOffset(f, local + d * 86_400_000)))];
  const valid = candidates.filter((o) => zoneOffset(f, local - o) === o);
  return roundMicros(local - (valid.length > 0 ? Math.min(...valid) : Math.max(...candidates)));
}

export const KUSTO_DATETIME_FUNCTIONS: Record<string, ScalarImpl> = {
  datetime_utc_to_local: utcToLocal,
  datetime_local_to_utc: localToUtc,
  format_datetime: formatDatetime,
  make_datetime: makeDatetime,
  format_timespan: formatTimespan,
  make_timespan: makeTimespan,
};
