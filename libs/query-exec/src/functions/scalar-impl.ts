import type { ColumnKind } from '@quarry/contracts';
import { formatRfc3339, parseKustoDatetime } from '@quarry/common';
import { formatTimespan, valueToString } from '../columns';

/**
 * A row-wise scalar function: receives one row's argument values (datetimes and timespans as ms numbers)
 * and the kinds of the argument columns in this batch. Vectorized drivers call it once per row, or once
 * per dictionary entry when the only varying argument is a dictionary-encoded string.
 */
export type ScalarImpl = (args: unknown[], kinds: ColumnKind[]) => unknown;

export const str = (v: unknown, k: ColumnKind): string | null =>
  v === null || v === undefined ? null : valueToString(v, k);

export function num(v: unknown, k: ColumnKind): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    // Decimal text only: `Number()` alone would also read "0x10", "0b1" and "Infinity".
    const t = v.trim();
    return DECIMAL.test(t) ? Number(t) : null;
  }
  void k;
  return null;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function datetimeOf(v: unknown, k: ColumnKind): number | null {
  if (v === null || v === undefined) return null;
  if (k === 'datetime' && typeof v === 'number') return v;
  // Kusto's datetime texts: ISO 8601, RFC 822/850, month/day/year (`02/17/2016 08:40:00`).
  if (typeof v === 'string') return parseKustoDatetime(v);
  return null;
}

export function isNullish(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v));
}

/**
 * JSON-ready form of a value of a given kind: datetimes as RFC 3339 and timespans as their text
 * (`01:30:00`, as Kusto keeps them in dynamic values), never the milliseconds Quarry counts them in.
 */
export function toDynamic(v: unknown, k: ColumnKind): unknown {
  if (v === null || v === undefined) return null;
  if (k === 'datetime' && typeof v === 'number') return formatRfc3339(v);
  if (k === 'timespan' && typeof v === 'number') return formatTimespan(v);
  return v;
}
