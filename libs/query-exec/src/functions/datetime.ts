import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from '@quarry/common';
import { datetimeOf, num, str, type ScalarImpl } from './scalar-impl';

/** The last representable instant before the next period (µs precision). */
const END_OFFSET_MS = 0.001;

function startOf(unit: 'day' | 'week' | 'month' | 'year', ms: number, offset: number): number {
  const d = new Date(Math.floor(ms));
  switch (unit) {
    case 'day':
      return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY + offset * MS_PER_DAY;
    case 'week': {
      const day = Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
      return day - new Date(day).getUTCDay() * MS_PER_DAY + offset * 7 * MS_PER_DAY;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + offset, 0, 1);
  }
}

function periodFn(unit: 'day' | 'week' | 'month' | 'year', end: boolean): ScalarImpl {
  return ([v, n], kinds) => {
    const t = datetimeOf(v, kinds[0]);
    if (t === null) return null;
    const offset = typeof n === 'number' ? Math.trunc(n) : 0;
    return end ? startOf(unit, t, offset + 1) - END_OFFSET_MS : startOf(unit, t, offset);
  };
}

function part(f: (d: Date, ms: number) => number): ScalarImpl {
  return ([v], [k]) => {
    const t = datetimeOf(v, k);
    return t === null ? null : f(new Date(Math.floor(t)), t);
  };
}

function isoWeek(d: Date): number {
  const date = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  return Math.ceil(((date.getTime() - yearStart) / MS_PER_DAY + 1) / 7);
}

const UNIT_MS: Record<string, number> = {
  week: 7 * MS_PER_DAY,
  day: MS_PER_DAY,
  hour: MS_PER_HOUR,
  minute: MS_PER_MINUTE,
  second: 1000,
  millisecond: 1,
  microsecond: 0.001,
  nanosecond: 0.000001,
};

function microsOfSecond(t: number): number {
  const us = Math.round(t * 1000);
  return ((us % 1_000_000) + 1_000_000) % 1_000_000;
}

function normPart(p: unknown): string {
  return String(p ?? '')
    .toLowerCase()
    .replace(/s$/, '');
}

function addMonths(ms: number, months: number): number {
  const d = new Date(Math.floor(ms));
  const frac = ms - Math.floor(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  // Clamp to the last day of the target month (Kusto).
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return (
    Date.UTC(
      target.getUTCFullYear(),
      target.getUTCMonth(),
      day,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
      d.getUTCMilliseconds(),
    ) + frac
  );
}

export const DATETIME_FUNCTIONS: Record<string, ScalarImpl> = {
  startofday: periodFn('day', false),
  startofweek: periodFn('week', false),
  startofmonth: periodFn('month', false),
  startofyear: periodFn('year', false),
  endofday: periodFn('day', true),
  endofweek: periodFn('week', true),
  endofmonth: periodFn('month', true),
  endofyear: periodFn('year', true),
  hourofday: part((d) => d.getUTCHours()),
  dayofmonth: part((d) => d.getUTCDate()),
  dayofyear: part((d) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY) + 1),
  getmonth: part((d) => d.getUTCMonth() + 1),
  monthofyear: part((d) => d.getUTCMonth() + 1),
  getyear: part((d) => d.getUTCFullYear()),
  dayofweek: part((d) => d.getUTCDay()),
  week_of_year: part((d) => isoWeek(d)),
  datetime_add: ([p, n, v], kinds) => {
    const t = datetimeOf(v, kinds[2]);
    const amount = num(n, kinds[1]);
    if (t === null || amount === null) return null;
    const unit = normPart(str(p, kinds[0]));
    if (unit === 'month') return addMonths(t, amount);
    if (unit === 'quarter') return addMonths(t, amount * 3);
    if (unit === 'year') return addMonths(t, amount * 12);
    const size = UNIT_MS[unit];
    return size === undefined ? null : t + amount * size;
  },
  datetime_diff: ([p, a, b], kinds) => {
    const t1 = datetimeOf(a, kinds[1]);
    const t2 = datetimeOf(b, kinds[2]);
    if (t1 === null || t2 === null) return null;
    const unit = normPart(str(p, kinds[0]));
    const d1 = new Date(Math.floor(t1));
    const d2 = new Date(Math.floor(t2));
    const months = (d1.getUTCFullYear() - d2.getUTCFullYear()) * 12 + d1.getUTCMonth() - d2.getUTCMonth();
    if (unit === 'year') return d1.getUTCFullYear() - d2.getUTCFullYear();
    if (unit === 'quarter')
      return (
        Math.floor(d1.getUTCMonth() / 3) -
        Math.floor(d2.getUTCMonth() / 3) +
        (d1.getUTCFullYear() - d2.getUTCFullYear()) * 4
      );
    if (unit === 'month') return months;
    if (unit === 'week') return Math.floor((startOf('week', t1, 0) - startOf('week', t2, 0)) / UNIT_MS.week);
    const size = UNIT_MS[unit];
    if (size === undefined) return null;
    // Whole microseconds (Quarry's precision), so sub-millisecond units carry no float noise: 0.1009 ms
    // and 0.1008 ms are 100 µs apart, not 98. A nanosecond difference is the microsecond one × 1000.
    const us1 = Math.round(t1 * 1000);
    const us2 = Math.round(t2 * 1000);
    if (unit === 'nanosecond') return (us1 - us2) * 1000;
    const usPerUnit = Math.round(size * 1000);
    return Math.floor(us1 / usPerUnit) - Math.floor(us2 / usPerUnit);
  },
  datetime_part: ([p, v], kinds) => {
    const t = datetimeOf(v, kinds[1]);
    if (t === null) return null;
    const d = new Date(Math.floor(t));
    switch (normPart(str(p, kinds[0]))) {
      case 'year':
        return d.getUTCFullYear();
      case 'quarter':
        return Math.floor(d.getUTCMonth() / 3) + 1;
      case 'month':
        return d.getUTCMonth() + 1;
      case 'week_of_year':
      case 'weekofyear':
        return isoWeek(d);
      case 'day':
        return d.getUTCDate();
      case 'dayofyear':
        return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY) + 1;
      case 'hour':
        return d.getUTCHours();
      case 'minute':
        return d.getUTCMinutes();
      case 'second':
        return d.getUTCSeconds();
      case 'millisecond':
        return d.getUTCMilliseconds();
      // The fraction of the second in whole microseconds (Quarry's precision), free of float noise:
      // …03.7654321 is 765432 µs and 765432000 ns (Kusto's 100 ns ticks would give 765432100).
      case 'microsecond':
        return microsOfSecond(t);
      case 'nanosecond':
        return microsOfSecond(t) * 1000;
      default:
        return null;
    }
  },
  unixtime_seconds_todatetime: ([v], [k]) => (num(v, k) === null ? null : num(v, k)! * 1000),
  unixtime_milliseconds_todatetime: ([v], [k]) => num(v, k),
  unixtime_microseconds_todatetime: ([v], [k]) => (num(v, k) === null ? null : num(v, k)! / 1000),
  unixtime_nanoseconds_todatetime: ([v], [k]) => (num(v, k) === null ? null : num(v, k)! / 1e6),
};
