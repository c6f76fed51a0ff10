/** make_list(_if), make_set(_if), arg_max, arg_min. */
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
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null) continue;
      const g = groups[i];
      const list = (this.lists[g] ??= []);
      if (list.length >= this.cap) continue;
      const dv = toDynamic(v, c.kind);
      if (this.distinct) {
        const seen = (this.seen[g] ??= new Set());
        const k = valueKey(dv);
        if (seen.has(k)) continue;
        seen.add(k);
      }
      list.push(dv);
    }
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

/** `arg_max(expr, c1, ...)`: the row with the largest (smallest) expr; outputs expr and the columns. */
export class ArgExtremeAggregator implements Aggregator {
  private best: (number | string)[] = [];
  private rows: unknown[][] = [];
  private kinds: (ColumnKind | null)[] = [];

  constructor(
    private readonly wantMax: boolean,
    private readonly width: number,
  ) {
    this.kinds = new Array(width).fill(null);
  }

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const target = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(target, i);
      if (typeof v !== 'number' && typeof v !== 'string') continue;
      const g = groups[i];
      const cur = this.best[g];
      if (cur !== undefined && !(this.wantMax ? v > cur : v < cur)) continue;
      this.best[g] = v;
      this.rows[g] = args.map((c) => readValue(c, i));
    }
    args.forEach((c, j) => {
      if (c.kind === 'dynamic') return;
      const k = this.kinds[j];
      this.kinds[j] = k === null || k === c.kind ? c.kind : 'dynamic';
    });
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as ArgExtremeAggregator;
    o.kinds.forEach((k, j) => {
      if (k === null) return;
      const mine = this.kinds[j];
      this.kinds[j] = mine === null || mine === k ? k : 'dynamic';
    });
    o.best.forEach((v, g) => {
      const t = groupMap[g];
      const cur = this.best[t];
      if (cur !== undefined && !(this.wantMax ? v > cur : v < cur)) return;
      this.best[t] = v;
      this.rows[t] = o.rows[g];
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const outs: AggregateOutput[] = [];
    for (let j = 0; j < this.width; j++) {
      const values = new Array(groupCount);
      for (let g = 0; g < groupCount; g++) values[g] = this.rows[g]?.[j] ?? null;
      outs.push({ values, kind: this.kinds[j] ?? 'dynamic' });
    }
    return outs;
  }
}
