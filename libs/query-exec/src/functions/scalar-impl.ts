import type { ColumnKind } from '@quarry/contracts';
import { formatRfc3339, parseRfc3339 } from '@quarry/common';
import { valueToString } from '../columns';

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
    const t = v.trim();
    if (t === '') return null;
    const n = Number(t);
    return Number.isNaN(n) ? null : n;
  }
  void k;
  return null;
}

export function datetimeOf(v: unknown, k: ColumnKind): number | null {
  if (v === null || v === undefined) return null;
  if (k === 'datetime' && typeof v === 'number') return v;
  if (typeof v === 'string') return parseRfc3339(v);
  return null;
}

export function isNullish(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v));
}

/** JSON-ready form of a value of a given kind (datetimes as RFC 3339). */
export function toDynamic(v: unknown, k: ColumnKind): unknown {
  if (v === null || v === undefined) return null;
  if (k === 'datetime' && typeof v === 'number') return formatRfc3339(v);
  return v;
}
