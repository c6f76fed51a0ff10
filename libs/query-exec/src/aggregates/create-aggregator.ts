import { QuarryError } from '@quarry/common';
import type { AggregateCall } from '@quarry/query-plan';
import type { Aggregator } from './aggregator';
import { CountAggregator, MinMaxAggregator, SumAggregator, VarianceAggregator } from './basic-aggregators';
import { ArgExtremeAggregator, MakeListAggregator } from './collection-aggregators';
import { DcountAggregator, PercentileAggregator } from './sketch-aggregators';
import { MAKE_BAG_DEFAULT_MAX, MakeBagAggregator } from './bag-aggregator';
import { HistogramAggregator } from './histogram-aggregator';
import { RateAggregator } from './rate-aggregator';
import { TopkAggregator } from './topk-aggregator';
import { TakeAnyAggregator } from './take-any-aggregator';
import {
  HllAggregator,
  HllMergeAggregator,
  TdigestAggregator,
  TdigestMergeAggregator,
} from './hll-tdigest-aggregators';
import { WeightedPercentileAggregator } from './weighted-percentile-aggregator';
import { PhrasesAggregator, PresenceAggregator } from './text-aggregators';

export function createAggregator(call: AggregateCall): Aggregator {
  const cap = typeof call.params[0] === 'number' ? (call.params[0] as number) : Infinity;
  switch (call.fn) {
    case 'count':
    case 'countif':
      return new CountAggregator();
    // Kusto's aggregation defaults: sum/sumif/variance/stdev of no values is 0; avg/min/max/percentile null.
    case 'sum':
    case 'sumif':
      return new SumAggregator('sum', true);
    case 'avg':
    case 'avgif':
      return new SumAggregator('avg', false);
    case 'min':
    case 'minif':
      return new MinMaxAggregator(false);
    case 'max':
    case 'maxif':
      return new MinMaxAggregator(true);
    case 'dcount':
    case 'dcountif':
      return new DcountAggregator(accuracyLevel(call));
    case 'percentile':
    case 'percentileif':
      return new PercentileAggregator(call.params as number[], 'one');
    case 'percentiles':
      return new PercentileAggregator(call.params as number[], 'columns');
    case 'percentiles_array':
    case 'percentiles_arrayif':
      return new PercentileAggregator(call.params as number[], 'array');
    case 'percentilew':
      return new WeightedPercentileAggregator(call.params as number[], 'one');
    case 'percentilesw':
      return new WeightedPercentileAggregator(call.params as number[], 'columns');
    case 'percentilesw_array':
      return new WeightedPercentileAggregator(call.params as number[], 'array');
    case 'phrases':
      return new PhrasesAggregator(call.params[0] as number);
    case 'presence':
      return new PresenceAggregator(call.params as string[]);
    case 'stdev':
    case 'stdevif':
      return new VarianceAggregator(true);
    case 'variance':
    case 'varianceif':
      return new VarianceAggregator(false);
    case 'stdevp':
    case 'stdevpif':
      return new VarianceAggregator(true, true);
    case 'variancep':
    case 'variancepif':
      return new VarianceAggregator(false, true);
    case 'make_list':
    case 'make_list_if':
      return new MakeListAggregator(false, cap);
    case 'make_list_with_nulls':
      return new MakeListAggregator(false, cap, true);
    case 'make_set':
    case 'make_set_if':
      return new MakeListAggregator(true, cap);
    case 'arg_max':
      return new ArgExtremeAggregator(
        true,
        call.outputs.map((o) => o.type),
      );
    case 'arg_min':
      return new ArgExtremeAggregator(
        false,
        call.outputs.map((o) => o.type),
      );
    case 'topk':
    case 'topkif':
      return new TopkAggregator(call.params[0] as number);
    case 'histogram':
    case 'histogramif':
      return new HistogramAggregator(call.params[0] as number);
    case 'rate':
      return new RateAggregator(call.periodMs);
    case 'take_any':
    case 'any':
    case 'take_anyif':
    case 'anyif':
      return new TakeAnyAggregator(call.outputs.map((o) => o.type));
    case 'hll':
    case 'hll_if':
      return new HllAggregator(accuracyLevel(call));
    case 'hll_merge':
      return new HllMergeAggregator(call.params.length > 0 ? accuracyLevel(call) : undefined);
    case 'tdigest':
      return new TdigestAggregator(call.args.length > 1);
    case 'tdigest_merge':
    case 'merge_tdigest':
      return new TdigestMergeAggregator();
    case 'make_bag':
    case 'make_bag_if':
      return new MakeBagAggregator(cap === Infinity ? MAKE_BAG_DEFAULT_MAX : cap);
    default:
      throw new QuarryError('internal', `no aggregator for '${call.fn}'`, { code: 'exec_missing_aggregate' });
  }
}

/** Kusto's accuracy level (0–4, checked by the binder) of a dcount / hll call; 1 when it has none. */
function accuracyLevel(call: AggregateCall): number {
  const level = call.params[0];
  return typeof level === 'number' && Number.isInteger(level) && level >= 0 && level <= 4 ? level : 1;
}
