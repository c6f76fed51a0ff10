/**
 * histogram(x, nbins), histogramif(x, nbins, pred): per group a dynamic array of `nbins` equal-width bins
 * `{lower, upper, count}` over [min(x), max(x)] (bins are half-open [lower, upper) except the last, which
 * includes max). Datetime bounds render as ISO strings. Non-numeric values and nulls are skipped.
 */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { toDynamic } from '../functions/scalar-impl';
import { HistogramSketch } from '../sketches/histogram-sketch';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';

export class HistogramAggregator implements Aggregator {
  private sketches: HistogramSketch[] = [];
  private kind: ColumnKind | null = null;

  constructor(private readonly nbins: number) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    if (c.kind === 'datetime' || c.kind === 'timespan') this.kind ??= c.kind;
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (typeof v !== 'number') continue;
      (this.sketches[groups[i]] ??= new HistogramSketch()).add(v);
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as HistogramAggregator;
    this.kind ??= o.kind;
    o.sketches.forEach((s, g) => (this.sketches[groupMap[g]] ??= new HistogramSketch()).merge(s));
  }

  finish(groupCount: number): AggregateOutput[] {
    const kind = this.kind ?? 'real';
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const s = this.sketches[g];
      values[g] = s
        ? s.bins(this.nbins).map((b) => ({
            lower: toDynamic(b.lower, kind),
            upper: toDynamic(b.upper, kind),
            count: b.count,
          }))
        : [];
    }
    return [{ values, kind: 'dynamic' }];
  }
}
