export {
  executePlan,
  runPartialAggregate,
  runRowsShare,
  type ExecuteOptions,
  type ExecuteResult,
} from './executor';
export { rowsShareMode } from './row-fragments';
export { PartialAggregate } from './operators/aggregate';
export type {
  AggregateOffload,
  PartialAggregateState,
  RemotePartial,
  RemoteRows,
  RowsFragment,
} from './operators/exec-env';
export { toResultTable, type TableOptions } from './result-table';
export { evaluate } from './eval/evaluate';
export { EvalContext } from './eval/context';
export { SCALAR_IMPLS } from './functions/registry';
export { DistinctCounter } from './sketches/hyperloglog';
export { QuantileSketch } from './sketches/quantile-sketch';
export { concatBatches } from './concat';
export { compileRegex } from './regex';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits';
