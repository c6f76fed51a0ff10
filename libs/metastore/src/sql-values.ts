import { internal, invalid } from '@quarry/common';

/**
 * Row value conversions that hide driver differences: PGlite returns int8 as a number while `pg` returns
 * a string; both return timestamptz as a Date (a string if a type parser is off).
 */

export function isoOf(value: unknown): string {
  // Not `instanceof Date`: rows may come from another realm (a worker thread, Jest's sandbox).
  if (Object.prototype.toString.call(value) === '[object Date]')
    return new Date((value as Date).getTime()).toISOString();
  if (typeof value === 'string' || typeof value === 'number') return new Date(value).toISOString();
  throw internal(`unexpected timestamp value from the metastore: ${String(value)}`);
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoOf(value);
}

export function numberOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw internal(`unexpected numeric value from the metastore: ${String(value)}`);
  return n;
}

export function jsonOf<T>(value: unknown): T {
  // jsonb comes back parsed from both drivers; a string means the column was read as text.
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A timestamp parameter: validated and normalized to ISO so every row renders the same way. */
export function isoParam(value: string, what: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(`${what} is not a timestamp: ${value}`, { code: 'timestamp_invalid' });
  return new Date(ms).toISOString();
}
