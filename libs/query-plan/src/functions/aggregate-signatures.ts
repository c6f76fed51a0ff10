/** Aggregation functions allowed in `summarize`: arity and result type. */
import type { AplType } from '../types';
import { isNumericType } from '../types';

export interface AggregateSignature {
  name: string;
  minArgs: number;
  maxArgs: number;
  returns: (args: AplType[]) => AplType;
  /** Index of the predicate argument for `*if` variants. */
  predicateIndex?: number;
  /** Op name on the wire (`fields[].agg.name`). */
  wireOp: string;
}

const fixed = (t: AplType) => () => t;
const sumType = (a: AplType[]) =>
  a[0] === 'long'
    ? 'long'
    : a[0] === 'timespan'
      ? 'timespan'
      : isNumericType(a[0])
        ? 'real'
        : a[0] === 'dynamic'
          ? 'real'
          : 'real';
const same = (a: AplType[]) => a[0] ?? 'dynamic';
/** The mean of datetimes is a datetime, of timespans a timespan, of numbers a real. */
const avgType = (a: AplType[]) => (a[0] === 'datetime' || a[0] === 'timespan' ? a[0] : 'real');

const list: AggregateSignature[] = [
  { name: 'count', minArgs: 0, maxArgs: 1, returns: fixed('long'), wireOp: 'count' },
  { name: 'countif', minArgs: 1, maxArgs: 1, returns: fixed('long'), predicateIndex: 0, wireOp: 'countif' },
  { name: 'sum', minArgs: 1, maxArgs: 1, returns: sumType, wireOp: 'sum' },
  { name: 'sumif', minArgs: 2, maxArgs: 2, returns: sumType, predicateIndex: 1, wireOp: 'sumif' },
  { name: 'avg', minArgs: 1, maxArgs: 1, returns: avgType, wireOp: 'avg' },
  { name: 'avgif', minArgs: 2, maxArgs: 2, returns: avgType, predicateIndex: 1, wireOp: 'avgif' },
  { name: 'min', minArgs: 1, maxArgs: 1, returns: same, wireOp: 'min' },
  { name: 'minif', minArgs: 2, maxArgs: 2, returns: same, predicateIndex: 1, wireOp: 'minif' },
  { name: 'max', minArgs: 1, maxArgs: 1, returns: same, wireOp: 'max' },
  { name: 'maxif', minArgs: 2, maxArgs: 2, returns: same, predicateIndex: 1, wireOp: 'maxif' },
  { name: 'dcount', minArgs: 1, maxArgs: 2, returns: fixed('long'), wireOp: 'distinct' },
  {
    name: 'dcountif',
    minArgs: 2,
    maxArgs: 3,
    returns: fixed('long'),
    predicateIndex: 1,
    wireOp: 'distinctif',
  },
  { name: 'percentile', minArgs: 2, maxArgs: 2, returns: same, wireOp: 'percentiles' },
  { name: 'percentileif', minArgs: 3, maxArgs: 3, returns: same, predicateIndex: 2, wireOp: 'percentilesif' },
  { name: 'percentiles_array', minArgs: 2, maxArgs: 64, returns: fixed('dynamic'), wireOp: 'percentiles' },
  {
    name: 'percentiles_arrayif',
    minArgs: 3,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 2,
    wireOp: 'percentilesif',
  },
  { name: 'stdev', minArgs: 1, maxArgs: 1, returns: fixed('real'), wireOp: 'stdev' },
  { name: 'stdevif', minArgs: 2, maxArgs: 2, returns: fixed('real'), predicateIndex: 1, wireOp: 'stdevif' },
  { name: 'variance', minArgs: 1, maxArgs: 1, returns: fixed('real'), wireOp: 'variance' },
  {
    name: 'varianceif',
    minArgs: 2,
    maxArgs: 2,
    returns: fixed('real'),
    predicateIndex: 1,
    wireOp: 'varianceif',
  },
  { name: 'make_list', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'makelist' },
  {
    name: 'make_list_if',
    minArgs: 2,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 1,
    wireOp: 'makelistif',
  },
  { name: 'make_set', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'makeset' },
  {
    name: 'make_set_if',
    minArgs: 2,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 1,
    wireOp: 'makesetif',
  },
  { name: 'arg_max', minArgs: 1, maxArgs: 64, returns: same, wireOp: 'argmax' },
  { name: 'arg_min', minArgs: 1, maxArgs: 64, returns: same, wireOp: 'argmin' },
  { name: 'topk', minArgs: 2, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'topk' },
  { name: 'topkif', minArgs: 3, maxArgs: 3, returns: fixed('dynamic'), predicateIndex: 2, wireOp: 'topkif' },
  { name: 'histogram', minArgs: 2, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'histogram' },
  {
    name: 'histogramif',
    minArgs: 3,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 2,
    wireOp: 'histogramif',
  },
  { name: 'rate', minArgs: 1, maxArgs: 1, returns: fixed('real'), wireOp: 'rate' },
  // Not in Axiom's wire enum: reported as `computed`.
  { name: 'make_bag', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'computed' },
  { name: 'phrases', minArgs: 2, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'computed' },
  { name: 'presence', minArgs: 1, maxArgs: 64, returns: fixed('dynamic'), wireOp: 'computed' },
  // Kusto aggregations Axiom's APL lacks (Quarry extensions, docs/apl.md "Kusto function extensions").
  { name: 'take_any', minArgs: 1, maxArgs: 64, returns: same, wireOp: 'computed' },
  { name: 'any', minArgs: 1, maxArgs: 64, returns: same, wireOp: 'computed' },
  { name: 'take_anyif', minArgs: 2, maxArgs: 2, returns: same, predicateIndex: 1, wireOp: 'computed' },
  { name: 'anyif', minArgs: 2, maxArgs: 2, returns: same, predicateIndex: 1, wireOp: 'computed' },
  { name: 'make_list_with_nulls', minArgs: 1, maxArgs: 1, returns: fixed('dynamic'), wireOp: 'computed' },
  {
    name: 'make_bag_if',
    minArgs: 2,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 1,
    wireOp: 'computed',
  },
  { name: 'stdevp', minArgs: 1, maxArgs: 1, returns: fixed('real'), wireOp: 'computed' },
  { name: 'stdevpif', minArgs: 2, maxArgs: 2, returns: fixed('real'), predicateIndex: 1, wireOp: 'computed' },
  { name: 'variancep', minArgs: 1, maxArgs: 1, returns: fixed('real'), wireOp: 'computed' },
  {
    name: 'variancepif',
    minArgs: 2,
    maxArgs: 2,
    returns: fixed('real'),
    predicateIndex: 1,
    wireOp: 'computed',
  },
  // percentiles / percentilesw: one output column per rank (the binder names them).
  { name: 'percentiles', minArgs: 2, maxArgs: 64, returns: same, wireOp: 'percentiles' },
  { name: 'percentilew', minArgs: 3, maxArgs: 3, returns: same, wireOp: 'computed' },
  { name: 'percentilesw', minArgs: 3, maxArgs: 64, returns: same, wireOp: 'computed' },
  { name: 'percentilesw_array', minArgs: 3, maxArgs: 64, returns: fixed('dynamic'), wireOp: 'computed' },
  // Kusto intermediate results (hll-tdigest-aggregators.ts): values read by dcount_hll, percentile_tdigest….
  { name: 'hll', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'computed' },
  {
    name: 'hll_if',
    minArgs: 2,
    maxArgs: 3,
    returns: fixed('dynamic'),
    predicateIndex: 1,
    wireOp: 'computed',
  },
  { name: 'hll_merge', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'computed' },
  { name: 'tdigest', minArgs: 1, maxArgs: 2, returns: fixed('dynamic'), wireOp: 'computed' },
  { name: 'tdigest_merge', minArgs: 1, maxArgs: 1, returns: fixed('dynamic'), wireOp: 'computed' },
  { name: 'merge_tdigest', minArgs: 1, maxArgs: 1, returns: fixed('dynamic'), wireOp: 'computed' },
];

export const AGGREGATE_SIGNATURES: ReadonlyMap<string, AggregateSignature> = new Map(
  list.map((s) => [s.name, s]),
);
