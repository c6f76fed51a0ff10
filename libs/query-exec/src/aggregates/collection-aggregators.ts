/**
 * make_list(_if), make_list_with_nulls, make_set(_if), arg_max, arg_min. make_set of an array value adds the array's elements
 * (Kusto's make_set page, "Set from array column"); make_list keeps each array as one element, as its
 * page's examples show (its page documents no flattening).
 */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { toDynamic } from '../functions/scalar-impl';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import { valueKey } from './sketch-aggregators';

export class MakeListAggregator implements Aggregator {
  private lists: unknown[][] = [];
  private seen: Set<string>[] = [];

  constructor(
    private readonly distinct: boolean,
    private readonly cap: number,
    /** make_list_with_nulls: nulls are elements too. */
    private readonly keepNulls = false,
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null && !this.keepNulls) continue;
      const g = groups[i];
      const list = (this.lists[g] ??= []);
      if (list.length >= this.cap) continue;
      const dv = v === null ? null : toDynamic(v, c.kind);
      if (!this.distinct) {
        list.push(dv);
        continue;
      }
      const seen = (this.seen[g] ??= new Set());
      // Kusto's make_set page ("Set from array column"): an array adds its elements, not itself.
      if (Array.isArray(dv)) {
        for (const e of dv) this.addDistinct(list, seen, e);
      } else {
        this.addDistinct(list, seen, dv);
      }
    }
  }

  /** Adds `v` to a set's list unless it is null, already there, or the list is full. */
  private addDistinct(list: unknown[], seen: Set<string>, v: unknown): void {
    if (v === null || v === undefined || list.length >= this.cap) return;
    const k = valueKey(v);
    if (seen.has(k)) return;
    seen.add(k);
    list.push(v);
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as MakeListAggregator;
    o.lists.forEach((list, g) => {
      const t = groupMap[g];
      const mine = (this.lists[t] ??= []);
      const seen = (this.seen[t] ??= new Set(mine.map(valueKey)));
      for (const v of list) {
        if (mine.length >= this.cap) break;
        if (this.distinct) {
          const k = valueKey(v);
          if (seen.has(k)) continue;
          seen.add(k);
        }
        mine.push(v);
      }
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = this.lists[g] ?? [];
    return [{ values, kind: 'dynamic' }];
  }
}

/**
 * `arg_max(expr, c1, ...)`: the row with the largest (smallest) expr; outputs expr and the columns. Each
 * kept row remembers the column kinds it was read with, because a field can change kind between batches
 * (a column of nulls in one batch, an array in the next): an output column takes the kind of the values it
 * holds, `dynamic` when they differ, and its static type when it holds only nulls. A group whose expr is
 * null in every row answers its first row (Kusto's arg_max page: null expr, the first row's columns).
 */
export class ArgExtremeAggregator implements Aggregator {
  private best: (number | string)[] = [];
  private rows: unknown[][] = [];
  private rowKinds: ColumnKind[][] = [];

  constructor(
    private readonly wantMax: boolean,
    /** The static type of each output column (expr, then c1, ...). */
    private readonly types: ColumnKind[],
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const target = args[0];
    const kinds = args.map((c) => c.kind);
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(target, i);
      const g = groups[i];
      if (typeof v !== 'number' && typeof v !== 'string') {
        if (this.rows[g] === undefined) {
          this.rows[g] = args.map((c) => readValue(c, i));
          this.rowKinds[g] = kinds;
        }
        continue;
      }
      const cur = this.best[g];
      if (cur !== undefined && !(this.wantMax ? v > cur : v < cur)) continue;
      this.best[g] = v;
      this.rows[g] = args.map((c) => readValue(c, i));
      this.rowKinds[g] = kinds;
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as ArgExtremeAggregator;
    o.best.forEach((v, g) => {
      const t = groupMap[g];
      const cur = this.best[t];
      if (cur !== undefined && !(this.wantMax ? v > cur : v < cur)) return;
      this.best[t] = v;
      this.rows[t] = o.rows[g];
      this.rowKinds[t] = o.rowKinds[g];
    });
    // Groups where the other part saw only null exprs: its first row, unless this part has one.
    o.rows.forEach((row, g) => {
      const t = groupMap[g];
      if (o.best[g] !== undefined || this.rows[t] !== undefined) return;
      this.rows[t] = row;
      this.rowKinds[t] = o.rowKinds[g];
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    return keptRowColumns(this.rows, this.rowKinds, this.types, groupCount);
  }
}

/**
 * The output columns of an aggregation that keeps one row per group (`arg_max`/`arg_min`, `take_any`):
 * a column takes the kind of the values it holds (a field can change kind between batches), `dynamic`
 * when they differ — datetimes then as their text, like any dynamic datetime — and its static type when
 * it holds only nulls.
 */
export function keptRowColumns(
  rows: readonly (unknown[] | undefined)[],
  rowKinds: readonly ColumnKind[][],
  types: readonly ColumnKind[],
  groupCount: number,
): AggregateOutput[] {
  const outs: AggregateOutput[] = [];
  for (let j = 0; j < types.length; j++) {
    let kind: ColumnKind | null = null;
    for (let g = 0; g < groupCount; g++) {
      const v = rows[g]?.[j];
      if (v === null || v === undefined) continue;
      const k = rowKinds[g][j];
      kind = kind === null || kind === k ? k : 'dynamic';
    }
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const v = rows[g]?.[j] ?? null;
      values[g] = kind === 'dynamic' && v !== null ? toDynamic(v, rowKinds[g][j]) : v;
    }
    outs.push({ values, kind: kind ?? types[j] });
  }
  return outs;
}
