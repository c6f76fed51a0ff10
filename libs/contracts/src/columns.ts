/**
 * In-memory columnar batches: the currency between storage (blocks, the un-compacted tail) and the query
 * engine. No per-row objects: numbers and times in Float64Array, booleans in Uint8Array, strings
 * dictionary-encoded, and only values that are not scalars of one type ("dynamic": arrays, objects, or a
 * field whose type varies between events of the same batch) as JS values.
 *
 * A column absent from a batch means "null in every row of this batch". A field may have a different
 * kind in different batches (a number in one block, a string in another); consumers must handle that.
 */

export type ColumnKind = 'long' | 'real' | 'bool' | 'datetime' | 'timespan' | 'string' | 'dynamic';

/** Numeric columns. `datetime` values are epoch milliseconds (µs precision); `timespan` values are ms. */
export interface NumericColumn {
  kind: 'long' | 'real' | 'datetime' | 'timespan';
  values: Float64Array;
  /** `nulls[i] === 1` marks row i as null; `null` when the column has no nulls. */
  nulls: Uint8Array | null;
}

export interface BoolColumn {
  kind: 'bool';
  /** 0 or 1. */
  values: Uint8Array;
  nulls: Uint8Array | null;
}

export interface StringColumn {
  kind: 'string';
  /** Index into `dict` per row; -1 is null. */
  codes: Int32Array;
  /** Distinct values; order unspecified (not necessarily sorted). */
  dict: string[];
  /**
   * The same values as UTF-8, when the column was built from bytes (the ingest path reads strings out of
   * the request body without making JS strings of them). `dict` is then decoded on first use only, and
   * the ingest log copies these bytes instead of encoding `dict`.
   */
  utf8?: Utf8Dict;
  /**
   * `dict` as space-separated tokens, when a block stored it so (the token layout of free text,
   * docs/block-format.md): value d is its `counts[d]` tokens, taken in order from `codes`, joined by
   * single spaces (U+0020). String operators that cannot match across a space (`contains` of text
   * without one, `has` of one term) then test each distinct token once instead of every value. It
   * describes `dict` exactly: a column built with another `dict` must not carry it.
   */
  tokens?: DictTokens;
}

/** The values of a string dictionary as tokens (see `StringColumn.tokens`). */
export interface DictTokens {
  /** The distinct tokens. */
  tokens: Utf8Dict;
  /** Tokens per value, one entry per value of `dict`. */
  counts: Int32Array;
  /** Token codes (indexes into `tokens`) of every value, value after value. */
  codes: Int32Array;
}

/** Strings as UTF-8 bytes back to back: value d is `bytes[ends[d - 1] ?? 0, ends[d])`. */
export interface Utf8Dict {
  bytes: Uint8Array;
  ends: Int32Array;
}

export interface DynamicColumn {
  kind: 'dynamic';
  /** JSON-compatible values (`null`/`undefined` are null): arrays, objects, or mixed scalars. */
  values: unknown[];
}

export type Column = NumericColumn | BoolColumn | StringColumn | DynamicColumn;

export interface ColumnBatch {
  length: number;
  columns: Map<string, Column>;
}

/** Names of the system fields every event carries. */
export const TIME_FIELD = '_time';
export const SYS_TIME_FIELD = '_sysTime';

/**
 * Type names used on the wire (`fields[].type` in tabular results, dataset field schemas). These are
 * Axiom's storage type names, not APL type names.
 */
export type WireType =
  'string' | 'integer' | 'float' | 'boolean' | 'datetime' | 'timespan' | 'array' | 'map' | string;

export function wireTypeOfKind(kind: ColumnKind): WireType {
  switch (kind) {
    case 'long':
      return 'integer';
    case 'real':
      return 'float';
    case 'bool':
      return 'boolean';
    case 'datetime':
      return 'datetime';
    case 'timespan':
      return 'timespan';
    case 'string':
      return 'string';
    case 'dynamic':
      return 'array';
  }
}
