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
 * `dynamic(...)` literal (Kusto serializes values JSON lacks as strings). The executor's
 * `formatTimespan` (libs/query-exec/src/columns.ts) writes the same text for `pack_array(1d)`.
 */
export function timespanText(ms: number): string {
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const days = Math.floor(rest / 86_400_000);
  rest -= days * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  rest -= s * 1000;
  const ticks = Math.round(rest * 10_000);
  const pad = (x: number, w = 2) => String(x).padStart(w, '0');
  let text = `${neg ? '-' : ''}${days ? days + '.' : ''}${pad(h)}:${pad(m)}:${pad(s)}`;
  if (ticks) text += '.' + pad(ticks, 7);
  return text;
}
