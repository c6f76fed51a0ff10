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
