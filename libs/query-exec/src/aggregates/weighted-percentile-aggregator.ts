/**
 * `percentilew(x, w, p)`, `percentilesw(x, w, p1, …)` and `percentilesw_array(x, w, p1, …)` (Kusto's
 * percentilesw page): the nearest-rank percentile of the values, each counted `w` times. Exact: each group
 * keeps its distinct values with their summed weights (weighted input is usually pre-aggregated buckets,
 * so there are few), and partial states merge by adding weights, without loss. A row whose weight is
 * null counts once and one whose weight is not positive is skipped (Axiom's percentilesw_array page);
 * a fractional weight counts as given.
 */
import { invalid } from '@quarry/common';
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { toDynamic } from '../functions/scalar-impl';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';

/**
 * Distinct values one weighted percentile aggregate keeps across all its groups (as many as the unweighted
 * percentile keeps exactly before it switches to a sketch). Past it the query fails with a 400 rather than
 * growing without bound: weighted input is meant to be buckets, and raw values can be bucketed first.
 */
export const MAX_WEIGHTED_PERCENTILE_VALUES = 8_000_000;

/** How the ranks come out: one column, one column per rank, or one dynamic array. */
export type PercentileShape = 'one' | 'columns' | 'array';

export class WeightedPercentileAggregator implements Aggregator {
  private weights: Map<number, number>[] = [];
  private kind: ColumnKind | null = null;
  private distinctValues = 0;

  constructor(
    private readonly ranks: number[],
    private readonly shape: PercentileShape,
    private readonly maxValues = MAX_WEIGHTED_PERCENTILE_VALUES,
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const [c, w] = args;
    if (c.kind === 'long' || c.kind === 'real' || c.kind === 'datetime' || c.kind === 'timespan')
      this.kind ??= c.kind;
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (typeof v !== 'number' || Number.isNaN(v)) continue;
      const raw = readValue(w, i);
      const weight = raw === null ? 1 : typeof raw === 'number' ? raw : Number.NaN;
      if (!(weight > 0)) continue;
      this.add((this.weights[groups[i]] ??= new Map()), v, weight);
    }
  }

  private add(m: Map<number, number>, v: number, weight: number): void {
    const before = m.get(v);
    if (before === undefined && ++this.distinctValues > this.maxValues) {
      throw invalid(
        `a weighted percentile keeps each distinct value, and this one has more than ` +
          `${this.maxValues.toLocaleString('en')}; bucket the values first ` +
          '(e.g. bin(x, …) with summed weights) or filter',
        { code: 'query_limit_exceeded' },
      );
    }
    m.set(v, (before ?? 0) + weight);
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as WeightedPercentileAggregator;
    this.kind ??= o.kind;
    o.weights.forEach((m, g) => {
      const mine = (this.weights[groupMap[g]] ??= new Map());
      for (const [v, weight] of m) this.add(mine, v, weight);
    });
  }

  /** The nearest-rank percentiles of one group (null without values), in the order of `ranks`. */
  private quantiles(m: Map<number, number> | undefined): (number | null)[] {
    if (m === undefined || m.size === 0) return this.ranks.map(() => null);
    const values = [...m.keys()].sort((a, b) => a - b);
    let total = 0;
    for (const v of values) total += m.get(v)!;
    return this.ranks.map((p) => {
      // P-th percentile: the smallest value with at least P% of the weight at or below it; P = 0 is the minimum.
      const rank = Math.max(Math.ceil((p / 100) * total - 1e-9), Number.MIN_VALUE);
      let cumulative = 0;
      for (const v of values) {
        cumulative += m.get(v)!;
        if (cumulative >= rank) return v;
      }
      return values[values.length - 1];
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const kind = this.kind ?? 'real';
    const perGroup = Array.from({ length: groupCount }, (_, g) => this.quantiles(this.weights[g]));
    if (this.shape === 'array') {
      // In an array (a dynamic value) datetimes and timespans are text, as in every dynamic value.
      const values = perGroup.map((qs) => qs.map((q) => toDynamic(q, kind)));
      return [{ values, kind: 'dynamic' }];
    }
    const columns = this.shape === 'one' ? 1 : this.ranks.length;
    return Array.from({ length: columns }, (_, j) => ({ values: perGroup.map((qs) => qs[j]), kind }));
  }
}
