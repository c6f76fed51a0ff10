/**
 * rate(x): the sum of x per second of the period the row group covers — the bucket size when grouped by
 * `bin(_time, …)`, else the query window (the binder puts it in `AggregateCall.periodMs`).
 */
import type { BoolColumn, Column } from '@quarry/contracts';
import type { AggregateOutput, Aggregator } from './aggregator';
import { SumAggregator } from './basic-aggregators';

export class RateAggregator implements Aggregator {
  private readonly sum = new SumAggregator('sum', true);

  constructor(private readonly periodMs: number | undefined) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    this.sum.update(groups, n, args, predicate);
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    this.sum.merge((other as RateAggregator).sum, groupMap);
  }

  finish(groupCount: number): AggregateOutput[] {
    const sums = this.sum.finish(groupCount)[0].values;
    const seconds = this.periodMs !== undefined && this.periodMs > 0 ? this.periodMs / 1000 : null;
    const values = sums.map((s) => (typeof s === 'number' && seconds !== null ? s / seconds : null));
    return [{ values, kind: 'real' }];
  }
}
