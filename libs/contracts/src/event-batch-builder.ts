import type { Column, ColumnBatch } from './columns';
import { SYS_TIME_FIELD, TIME_FIELD } from './columns';
import { StringInterner } from './string-interner';
import { decodeUtf8, isWellFormed, Utf8Interner, utf8StringColumn } from './utf8-interner';

export interface EventBatchBuilderOptions {
  /**
   * Keep string dictionaries as UTF-8 bytes (`StringColumn.utf8`, `dict` decoded on first use): for a
   * caller that hands over most strings as bytes (`setUtf8`), such as the flat NDJSON reader.
   */
  utf8?: boolean;
}

/**
 * Builds a column batch row by row, appending each field value straight into its column: the ingest path
 * uses it so that no per-event object (field map, value arrays) outlives the event. The result is exactly
 * what `columnFromValues` gives for each field's values (see `batchFromEvents`, which uses this builder):
 * a field whose values are all strings is a string column, all numbers `long` (or `real` when one is not
 * an integer), all booleans `bool`, anything else (arrays, objects, mixed families) `dynamic`; a field
 * whose every value is null is an all-null string column. Column order is first appearance.
 *
 *   const b = new EventBatchBuilder(capacity);
 *   b.beginRow(time, sysTime); b.set('a', 1); b.set('b', 'x'); b.endRow();
 *   const batch = b.finish();
 *
 * A reader that knows its fields ahead of the values can skip the name per value: `fieldIndex(name)` once,
 * then `setAt` / `setUtf8` with that index (still at most once per field per row).
 */
export class EventBatchBuilder {
  private readonly time: Float64Array;
  private readonly sys: Float64Array;
  private readonly fields = new Map<string, FieldBuilder>();
  /** In first-appearance order, for the batch's column order. */
  private readonly order: FieldBuilder[] = [];
  // The previous row's builders by position: rows of one shape set their fields in the same order, so a
  // name comparison replaces a map lookup per field (speed).
  private readonly shape: FieldBuilder[] = [];
  private position = 0;
  private row = 0;

  private readonly utf8: boolean;

  constructor(
    private readonly capacity: number,
    options: EventBatchBuilderOptions = {},
  ) {
    this.time = new Float64Array(capacity);
    this.sys = new Float64Array(capacity);
    this.utf8 = options.utf8 === true;
  }

  /** Rows finished so far. */
  get length(): number {
    return this.row;
  }

  beginRow(time: number, sysTime: number): void {
    if (this.row >= this.capacity) throw new RangeError(`EventBatchBuilder is full (${this.capacity} rows)`);
    this.time[this.row] = time;
    this.sys[this.row] = sysTime;
    this.position = 0;
  }

  /** Sets a field of the current row; each name at most once per row. */
  set(name: string, value: unknown): void {
    const j = this.position++;
    let field = j < this.shape.length ? this.shape[j] : undefined;
    if (field === undefined || field.name !== name) {
      field = this.order[this.fieldIndex(name)];
      this.shape[j] = field;
    }
    field.set(this.row, value);
  }

  /** The index of a field (added, with every row so far null, when new) for `setAt` and `setUtf8`. */
  fieldIndex(name: string): number {
    const field = this.fields.get(name);
    if (field !== undefined) return field.index;
    const added = new FieldBuilder(name, this.capacity, this.utf8, this.order.length);
    this.fields.set(name, added);
    this.order.push(added);
    return added.index;
  }

  /** `set` by field index. */
  setAt(field: number, value: unknown): void {
    this.order[field].set(this.row, value);
  }

  /** Sets a string field of the current row to the string whose UTF-8 bytes are `src[start, end)`. */
  setUtf8(field: number, src: Uint8Array, start: number, end: number): void {
    this.order[field].setUtf8(this.row, src, start, end);
  }

  endRow(): void {
    this.row++;
  }

  finish(): ColumnBatch {
    const n = this.row;
    const columns = new Map<string, Column>();
    columns.set(TIME_FIELD, { kind: 'datetime', values: trim(this.time, n), nulls: null });
    columns.set(SYS_TIME_FIELD, { kind: 'datetime', values: trim(this.sys, n), nulls: null });
    for (const field of this.order) columns.set(field.name, field.finish(n));
    return { length: n, columns };
  }
}

type Mode = 'none' | 'string' | 'number' | 'bool' | 'dynamic';

/** One field's column while rows are appended; switches to `dynamic` when a second value family shows up. */
class FieldBuilder {
  private mode: Mode = 'none';
  private codes: Int32Array | null = null;
  /** One of the two, by the builder's `utf8` option. */
  private interner: StringInterner | null = null;
  private utf8Interner: Utf8Interner | null = null;
  private numbers: Float64Array | null = null;
  private bools: Uint8Array | null = null;
  /** For `number` and `bool` modes: 1 = null (rows never set stay null). */
  private nulls: Uint8Array | null = null;
  private sawReal = false;
  private sawNaN = false;
  private dynamic: unknown[] | null = null;

  constructor(
    readonly name: string,
    private readonly capacity: number,
    private readonly utf8: boolean,
    /** Position in the builder's `order`. */
    readonly index: number,
  ) {}

  setUtf8(row: number, src: Uint8Array, start: number, end: number): void {
    if (this.mode === 'none') this.startStrings();
    if (this.mode === 'string' && this.utf8Interner !== null) {
      this.codes![row] = this.utf8Interner.intern(src, start, end);
      return;
    }
    this.set(row, decodeUtf8(src, start, end));
  }

  set(row: number, value: unknown): void {
    if (value === null || value === undefined) return; // rows not set read as null in every mode
    switch (this.mode) {
      case 'string':
        if (typeof value === 'string') return this.setString(row, value);
        break;
      case 'number':
        if (typeof value === 'number') return this.setNumber(row, value);
        break;
      case 'bool':
        if (typeof value === 'boolean') return this.setBool(row, value);
        break;
      case 'dynamic':
        this.dynamic![row] = value;
        return;
      case 'none':
        return this.start(row, value);
    }
    this.toDynamic(row);
    this.dynamic![row] = value;
  }

  private start(row: number, value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.startStrings();
        return this.setString(row, value);
      case 'number':
        this.mode = 'number';
        this.numbers = new Float64Array(this.capacity);
        this.nulls = new Uint8Array(this.capacity).fill(1);
        return this.setNumber(row, value);
      case 'boolean':
        this.mode = 'bool';
        this.bools = new Uint8Array(this.capacity);
        this.nulls = new Uint8Array(this.capacity).fill(1);
        return this.setBool(row, value);
      default:
        this.mode = 'dynamic';
        this.dynamic = new Array(this.capacity).fill(null);
        this.dynamic[row] = value;
    }
  }

  private startStrings(): void {
    this.mode = 'string';
    this.codes = new Int32Array(this.capacity).fill(-1);
    if (this.utf8) this.utf8Interner = new Utf8Interner();
    else this.interner = new StringInterner();
  }

  private setString(row: number, value: string): void {
    if (this.utf8Interner !== null) {
      if (isWellFormed(value)) {
        this.codes![row] = this.utf8Interner.internString(value);
        return;
      }
      // UTF-8 cannot hold a lone surrogate: the column's strings become JS strings from here on.
      this.interner = new StringInterner();
      for (let code = 0; code < this.utf8Interner.size; code++)
        this.interner.intern(this.utf8Interner.valueAt(code));
      this.utf8Interner = null;
    }
    this.codes![row] = this.interner!.intern(value);
  }

  private setNumber(row: number, value: number): void {
    // As in `inferKind` + `columnFromValues`: NaN makes the column `real` but is stored as null.
    if (!this.sawReal && !Number.isInteger(value)) this.sawReal = true;
    this.numbers![row] = value;
    if (Number.isNaN(value)) {
      // Kept in `numbers` so a switch to dynamic still sees the NaN; zeroed by `finish`.
      this.sawNaN = true;
      return;
    }
    this.nulls![row] = 0;
  }

  private setBool(row: number, value: boolean): void {
    this.bools![row] = value ? 1 : 0;
    this.nulls![row] = 0;
  }

  /** Rewrites rows [0, upTo) as JS values in a dynamic column. */
  private toDynamic(upTo: number): void {
    const values: unknown[] = new Array(this.capacity).fill(null);
    for (let i = 0; i < upTo; i++) values[i] = this.valueAt(i);
    this.mode = 'dynamic';
    this.dynamic = values;
    this.codes = this.numbers = this.bools = this.nulls = null;
    this.interner = this.utf8Interner = null;
  }

  private valueAt(i: number): unknown {
    switch (this.mode) {
      case 'string': {
        const code = this.codes![i];
        if (code < 0) return null;
        return this.utf8Interner !== null ? this.utf8Interner.valueAt(code) : this.interner!.values[code];
      }
      case 'number':
        return this.nulls![i] === 0 || Number.isNaN(this.numbers![i]) ? this.numbers![i] : null;
      case 'bool':
        return this.nulls![i] ? null : this.bools![i] === 1;
      default:
        return null;
    }
  }

  finish(n: number): Column {
    switch (this.mode) {
      case 'none':
        return { kind: 'string', codes: new Int32Array(n).fill(-1), dict: [] };
      case 'string':
        if (this.utf8Interner !== null)
          return utf8StringColumn(trim(this.codes!, n), this.utf8Interner.finish());
        return { kind: 'string', codes: trim(this.codes!, n), dict: this.interner!.values };
      case 'number': {
        const values = trim(this.numbers!, n);
        if (this.sawNaN) for (let i = 0; i < n; i++) if (Number.isNaN(values[i])) values[i] = 0;
        return {
          kind: this.sawReal ? 'real' : 'long',
          values,
          nulls: nullsOrNone(this.nulls!, n),
        };
      }
      case 'bool':
        return { kind: 'bool', values: trim(this.bools!, n), nulls: nullsOrNone(this.nulls!, n) };
      case 'dynamic':
        return { kind: 'dynamic', values: n === this.capacity ? this.dynamic! : this.dynamic!.slice(0, n) };
    }
  }
}

/** The first n elements, sharing the buffer when nothing is cut (a cut copies, so the rest is freed). */
function trim<T extends Float64Array | Int32Array | Uint8Array>(array: T, n: number): T {
  return (n === array.length ? array : array.slice(0, n)) as T;
}

function nullsOrNone(nulls: Uint8Array, n: number): Uint8Array | null {
  for (let i = 0; i < n; i++) if (nulls[i] !== 0) return trim(nulls, n);
  return null;
}
