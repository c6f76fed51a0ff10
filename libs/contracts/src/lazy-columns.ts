/**
 * Late materialization. `LazyColumns` is a `ColumnBatch.columns` map that builds each column the first time
 * it is read (then keeps it); names, `has` and `size` never build anything. Iterating the map builds every
 * column, so code that walks all columns behaves exactly as with a plain `Map`, only later.
 *
 * `selectRowsLate` is `selectRows` with that laziness: a filter picks its rows by evaluating only the
 * predicate's columns, and the other columns of the surviving rows are copied only if someone reads them
 * (for `where ... | top n`, only the n survivors' columns are ever built). Selections of selections compose
 * into one index vector over the original columns, so nothing in between is copied either.
 */
import type { Column, ColumnBatch } from './columns';
import { selectRows } from './column-builder';

export class LazyColumns extends Map<string, Column> {
  private readonly order: string[];
  private readonly names: Set<string>;
  private readonly built = new Map<string, Column>();

  constructor(
    names: Iterable<string>,
    private readonly load: (name: string) => Column | undefined,
  ) {
    super();
    this.order = [...names];
    this.names = new Set(this.order);
  }

  override get(name: string): Column | undefined {
    const done = this.built.get(name);
    if (done !== undefined || !this.names.has(name)) return done;
    const column = this.load(name);
    if (column === undefined) {
      this.names.delete(name);
      this.order.splice(this.order.indexOf(name), 1);
      return undefined;
    }
    this.built.set(name, column);
    return column;
  }

  /** The column if it has been built already (no work otherwise). */
  peek(name: string): Column | undefined {
    return this.built.get(name);
  }

  override has(name: string): boolean {
    return this.names.has(name);
  }

  override get size(): number {
    return this.names.size;
  }

  override set(name: string, column: Column): this {
    if (!this.names.has(name)) {
      this.names.add(name);
      this.order.push(name);
    }
    this.built.set(name, column);
    return this;
  }

  override delete(name: string): boolean {
    if (!this.names.delete(name)) return false;
    this.order.splice(this.order.indexOf(name), 1);
    this.built.delete(name);
    return true;
  }

  override clear(): void {
    this.names.clear();
    this.order.length = 0;
    this.built.clear();
  }

  override *keys(): MapIterator<string> {
    yield* [...this.order];
  }

  override *entries(): MapIterator<[string, Column]> {
    for (const name of [...this.order]) {
      const column = this.get(name);
      if (column !== undefined) yield [name, column];
    }
  }

  override *values(): MapIterator<Column> {
    for (const [, column] of this.entries()) yield column;
  }

  override [Symbol.iterator](): MapIterator<[string, Column]> {
    return this.entries();
  }

  override forEach(
    fn: (value: Column, key: string, map: Map<string, Column>) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, column] of this.entries()) fn.call(thisArg, column, name, this);
  }
}

/** Rows `selection` of one column. */
export function selectColumn(column: Column, selection: Uint32Array | readonly number[]): Column {
  return selectRows({ length: 0, columns: new Map([['c', column]]) }, selection).columns.get('c')!;
}

/** A selection over an original columns map, composed through successive `selectRowsLate` calls. */
class SelectedColumns extends LazyColumns {
  constructor(
    readonly base: Map<string, Column>,
    readonly selection: Uint32Array,
    names: Iterable<string>,
  ) {
    super(names, (name) => {
      const column = base.get(name);
      return column === undefined ? undefined : selectColumn(column, selection);
    });
  }
}

/** `selectRows` that copies a column only when it is read. */
export function selectRowsLate(batch: ColumnBatch, selection: Uint32Array): ColumnBatch {
  const src = batch.columns;
  const names = [...src.keys()];
  if (src instanceof SelectedColumns) {
    const composed = new Uint32Array(selection.length);
    for (let i = 0; i < selection.length; i++) composed[i] = src.selection[selection[i]];
    const columns = new LazyColumns(names, (name) => {
      const built = src.peek(name);
      if (built !== undefined) return selectColumn(built, selection);
      if (!src.has(name)) return undefined;
      const column = src.base.get(name);
      return column === undefined ? undefined : selectColumn(column, composed);
    });
    return { length: selection.length, columns };
  }
  return { length: selection.length, columns: new SelectedColumns(src, selection, names) };
}
