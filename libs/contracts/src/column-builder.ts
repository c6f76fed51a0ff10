import type {
  BoolColumn,
  Column,
  ColumnBatch,
  ColumnKind,
  DynamicColumn,
  NumericColumn,
  StringColumn,
} from './columns';
import type { NormalizedEvent } from './events';
import { EventBatchBuilder } from './event-batch-builder';
import { withCodes } from './utf8-interner';

/**
 * Builds columns from JS values: the slow path used for the un-compacted tail, inline tables and results
 * of row-wise operators. Scans over blocks never come through here.
 */

/** The column kind that holds every non-null value of `values` without loss. */
export function inferKind(values: readonly unknown[]): ColumnKind {
  let sawString = false;
  let sawBool = false;
  let sawInt = false;
  let sawReal = false;
  let sawOther = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    switch (typeof v) {
      case 'string':
        sawString = true;
        break;
      case 'boolean':
        sawBool = true;
        break;
      case 'number':
        if (Number.isInteger(v)) sawInt = true;
        else sawReal = true;
        break;
      default:
        sawOther = true;
    }
  }
  const numeric = sawInt || sawReal;
  const families = Number(sawString) + Number(sawBool) + Number(numeric) + Number(sawOther);
  if (families === 0) return 'string'; // all null: any kind works; string is the cheapest
  if (families > 1 || sawOther) return 'dynamic';
  if (sawString) return 'string';
  if (sawBool) return 'bool';
  return sawReal ? 'real' : 'long';
}

/** Builds a column of the given kind (inferred when omitted). Values that do not fit the kind become null. */
export function columnFromValues(values: readonly unknown[], kind: ColumnKind = inferKind(values)): Column {
  const n = values.length;
  switch (kind) {
    case 'string': {
      const codes = new Int32Array(n);
      const dict: string[] = [];
      const index = new Map<string, number>();
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v !== 'string') {
          codes[i] = -1;
          continue;
        }
        let code = index.get(v);
        if (code === undefined) {
          code = dict.length;
          dict.push(v);
          index.set(v, code);
        }
        codes[i] = code;
      }
      const col: StringColumn = { kind: 'string', codes, dict };
      return col;
    }
    case 'bool': {
      const out = new Uint8Array(n);
      let nulls: Uint8Array | null = null;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v === 'boolean') out[i] = v ? 1 : 0;
        else (nulls ??= new Uint8Array(n))[i] = 1;
      }
      const col: BoolColumn = { kind: 'bool', values: out, nulls };
      return col;
    }
    case 'long':
    case 'real':
    case 'datetime':
    case 'timespan': {
      const out = new Float64Array(n);
      let nulls: Uint8Array | null = null;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v === 'number' && !Number.isNaN(v)) out[i] = v;
        else (nulls ??= new Uint8Array(n))[i] = 1;
      }
      const col: NumericColumn = { kind, values: out, nulls };
      return col;
    }
    case 'dynamic': {
      const col: DynamicColumn = { kind: 'dynamic', values: values.map((v) => (v === undefined ? null : v)) };
      return col;
    }
  }
}

/** Reads row `i` of a column as a JS value (datetimes and timespans as epoch/duration ms; null for null). */
export function valueAt(column: Column, i: number): unknown {
  switch (column.kind) {
    case 'string': {
      const code = column.codes[i];
      return code < 0 ? null : column.dict[code];
    }
    case 'bool':
      return column.nulls && column.nulls[i] ? null : column.values[i] === 1;
    case 'dynamic': {
      const v = column.values[i];
      return v === undefined ? null : v;
    }
    default:
      return column.nulls && column.nulls[i] ? null : column.values[i];
  }
}

/**
 * Builds a batch from normalized events: `_time` and `_sysTime` as datetime columns, every other field
 * with its inferred kind (`EventBatchBuilder` semantics).
 */
export function batchFromEvents(
  events: readonly NormalizedEvent[],
  sysTimes: number | readonly number[],
): ColumnBatch {
  const builder = new EventBatchBuilder(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const fields = event.fields;
    builder.beginRow(event.time, typeof sysTimes === 'number' ? sysTimes : sysTimes[i]);
    for (const name in fields) builder.set(name, fields[name]);
    builder.endRow();
  }
  return builder.finish();
}

/** Rows `[start, end)` of every column, as views where the column's storage allows (no copy). */
export function sliceRows(batch: ColumnBatch, start: number, end: number): ColumnBatch {
  const columns = new Map<string, Column>();
  for (const [name, col] of batch.columns) {
    switch (col.kind) {
      case 'string':
        columns.set(name, withCodes(col, col.codes.subarray(start, end)));
        break;
      case 'dynamic':
        columns.set(name, { kind: 'dynamic', values: col.values.slice(start, end) });
        break;
      case 'bool':
        columns.set(name, {
          kind: 'bool',
          values: col.values.subarray(start, end),
          nulls: col.nulls ? col.nulls.subarray(start, end) : null,
        });
        break;
      default:
        columns.set(name, {
          kind: col.kind,
          values: col.values.subarray(start, end),
          nulls: col.nulls ? col.nulls.subarray(start, end) : null,
        });
    }
  }
  return { length: end - start, columns };
}

/** Keeps the rows whose index is listed in `selection` (ascending), for every column. */
export function selectRows(batch: ColumnBatch, selection: Uint32Array | readonly number[]): ColumnBatch {
  const n = selection.length;
  const columns = new Map<string, Column>();
  for (const [name, col] of batch.columns) {
    switch (col.kind) {
      case 'string': {
        const codes = new Int32Array(n);
        for (let j = 0; j < n; j++) codes[j] = col.codes[selection[j]];
        columns.set(name, withCodes(col, codes));
        break;
      }
      case 'dynamic': {
        const values = new Array(n);
        for (let j = 0; j < n; j++) values[j] = col.values[selection[j]];
        columns.set(name, { kind: 'dynamic', values });
        break;
      }
      case 'bool': {
        const values = new Uint8Array(n);
        const nulls = col.nulls ? new Uint8Array(n) : null;
        for (let j = 0; j < n; j++) {
          values[j] = col.values[selection[j]];
          if (nulls) nulls[j] = col.nulls![selection[j]];
        }
        columns.set(name, { kind: 'bool', values, nulls });
        break;
      }
      default: {
        const values = new Float64Array(n);
        const nulls = col.nulls ? new Uint8Array(n) : null;
        for (let j = 0; j < n; j++) {
          values[j] = col.values[selection[j]];
          if (nulls) nulls[j] = col.nulls![selection[j]];
        }
        columns.set(name, { kind: col.kind, values, nulls });
      }
    }
  }
  return { length: n, columns };
}
