/** Small column helpers used by the evaluator and operators. */
import { columnFromValues, valueAt, type Column, type ColumnKind } from '@quarry/contracts';
import { formatRfc3339, formatTimespan } from '@quarry/common';

/** Kusto-style timespan text `[-][d.]hh:mm:ss[.fffffff]` (one implementation, in `@quarry/common`). */
export { formatTimespan };

export function nullColumn(kind: ColumnKind, n: number): Column {
  switch (kind) {
    case 'string':
      return { kind: 'string', codes: new Int32Array(n).fill(-1), dict: [] };
    case 'dynamic':
      return { kind: 'dynamic', values: new Array(n).fill(null) };
    case 'bool':
      return { kind: 'bool', values: new Uint8Array(n), nulls: new Uint8Array(n).fill(1) };
    default:
      return { kind, values: new Float64Array(n), nulls: new Uint8Array(n).fill(1) };
  }
}

export function constantColumn(value: unknown, kind: ColumnKind, n: number): Column {
  if (value === null || value === undefined) return nullColumn(kind, n);
  switch (kind) {
    case 'string':
      return { kind: 'string', codes: new Int32Array(n), dict: [String(value)] };
    case 'bool':
      return { kind: 'bool', values: new Uint8Array(n).fill(value ? 1 : 0), nulls: null };
    case 'dynamic':
      return { kind: 'dynamic', values: new Array(n).fill(value) };
    default:
      return { kind, values: new Float64Array(n).fill(value as number), nulls: null };
  }
}

/** Builds a column of `kind` from JS values; numbers that are NaN become null. */
export function buildColumn(values: unknown[], kind: ColumnKind): Column {
  return columnFromValues(values, kind);
}

export function isNullAt(c: Column, i: number): boolean {
  switch (c.kind) {
    case 'string':
      return c.codes[i] < 0;
    case 'dynamic':
      return c.values[i] === null || c.values[i] === undefined;
    default:
      return c.nulls !== null && c.nulls[i] === 1;
  }
}

/** Row i as a JS value (datetimes/timespans as numbers). */
export const readValue = valueAt;

/** Converts a value of a column kind to the text `tostring` gives it. */
export function valueToString(v: unknown, kind: ColumnKind): string {
  if (v === null || v === undefined) return '';
  if (kind === 'datetime' && typeof v === 'number') return formatRfc3339(v);
  if (kind === 'timespan' && typeof v === 'number') return formatTimespan(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The kind of a JS value found in a dynamic column. */
export function kindOfValue(v: unknown): ColumnKind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'long' : 'real';
    default:
      return 'dynamic';
  }
}
