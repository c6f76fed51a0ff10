/**
 * Kusto datetime functions Axiom's APL reference does not list (Quarry extensions, docs/apl.md):
 * `format_datetime(t, format)` with Kusto's format elements and `make_datetime(y, m, d [, h, mi [, s]])`.
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

export const KUSTO_DATETIME_FUNCTIONS: Record<string, ScalarImpl> = {
  format_datetime: formatDatetime,
  make_datetime: makeDatetime,
};
