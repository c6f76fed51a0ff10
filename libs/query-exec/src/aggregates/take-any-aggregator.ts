/**
 * `take_any(e1 [, e2, …])` / `take_any(*)` (deprecated alias `any`): the values of one row of each group
 * (Kusto's take_any page). Quarry keeps the group's first row in scan order, so `sort` before `summarize`
 * makes the choice deterministic. With one expression the page says it "tries to return a non-null/non-empty
 * value": a later row replaces a kept null or empty string (or empty array/bag) until one is found. Partial
 * states merge in order: this state's rows precede the other's.
 */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import { keptRowColumns } from './collection-aggregators';

/** Null, `""`, `[]` and `{}`: what a single-expression take_any passes over while it can. */
function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export class TakeAnyAggregator implements Aggregator {
  private rows: unknown[][] = [];
  private rowKinds: ColumnKind[][] = [];

  constructor(
    /** The static type of each output column. */
    private readonly types: ColumnKind[],
  ) {}

  /** True while group g may still take a row: none kept yet, or (one expression) the kept value is empty. */
  private open(g: number): boolean {
    const row = this.rows[g];
    return row === undefined || (this.types.length === 1 && isEmptyValue(row[0]));
  }

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const kinds = args.map((c) => c.kind);
    for (let i = 0; i < n; i++) {
      const g = groups[i];
      if (!this.open(g) || !rowPasses(predicate, i)) continue;
      const row = args.map((c) => readValue(c, i));
      if (this.rows[g] !== undefined && isEmptyValue(row[0])) continue;
      this.rows[g] = row;
      this.rowKinds[g] = kinds;
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as TakeAnyAggregator;
    o.rows.forEach((row, g) => {
      const t = groupMap[g];
      if (!this.open(t)) return;
      if (this.rows[t] !== undefined && isEmptyValue(row[0])) return;
      this.rows[t] = row;
      this.rowKinds[t] = o.rowKinds[g];
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    return keptRowColumns(this.rows, this.rowKinds, this.types, groupCount);
  }
}
