/** Timespan units of APL literals (`1h`, `30m`, `100ms`, `1.5d`), in milliseconds. */
export const TIMESPAN_UNITS: Record<string, number> = {
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  microsecond: 0.001,
  microseconds: 0.001,
  us: 0.001,
  tick: 0.0001,
  ticks: 0.0001,
  nanosecond: 0.000001,
  nanoseconds: 0.000001,
  ns: 0.000001,
};

/**
 * Kusto's text of a timespan, `[-][d.]hh:mm:ss[.fffffff]`: how a timespan literal is held inside a
 * `dynamic(...)` literal (Kusto serializes values JSON lacks as strings). The same text the executor
 * writes for `pack_array(1d)`: both use `formatTimespan` of `@quarry/common`.
 */
export { formatTimespan as timespanText } from '@quarry/common';

/** Kusto's `[-][d.]hh:mm[:ss[.fffffff]]`: hours below 24, minutes and seconds below 60, 7 fraction digits. */
const CLOCK_TEXT = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?$/;
/** `2h`, `1.5 hours`, `15 seconds`: a number and a unit of TIMESPAN_UNITS, a space allowed between. */
const UNIT_TEXT = /^(-)?(\d+(?:\.\d+)?)\s*([A-Za-z]+)$/;

/**
 * Milliseconds of the text inside a `timespan(...)` / `time(...)` literal, in the forms of Kusto's timespan
 * page: a number and a unit (`2d`, `1.5h`, `15 seconds`), a whole number of days (`timespan(2)`), or the
 * clock form `[-][d.]hh:mm[:ss[.fffffff]]` (`0.12:34:56.7` is 12h 34m 56.7s). Undefined for any other text.
 */
export function timespanFromText(text: string): number | undefined {
  const days = /^(-)?(\d+)$/.exec(text);
  if (days) return (days[1] ? -1 : 1) * Number(days[2]) * TIMESPAN_UNITS.d;
  const unit = UNIT_TEXT.exec(text);
  if (unit) {
    if (!Object.hasOwn(TIMESPAN_UNITS, unit[3])) return undefined;
    return (unit[1] ? -1 : 1) * Number(unit[2]) * TIMESPAN_UNITS[unit[3]];
  }
  const clock = CLOCK_TEXT.exec(text);
  if (!clock) return undefined;
  const [, minus, d, h, m, s, fraction] = clock;
  if (+h > 23 || +m > 59 || (s !== undefined && +s > 59)) return undefined;
  const ms =
    +(d ?? 0) * TIMESPAN_UNITS.d +
    +h * TIMESPAN_UNITS.h +
    +m * TIMESPAN_UNITS.m +
    +(s ?? 0) * TIMESPAN_UNITS.s +
    (fraction ? Number('0.' + fraction) * 1000 : 0);
  return minus ? -ms : ms;
}
