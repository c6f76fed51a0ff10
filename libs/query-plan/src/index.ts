export * from './types';
export * from './expr';
export * from './arith-types';
export * from './bin-auto';
export * from './nodes/plan-node';
export * from './builder';
export * from './printer';
export * from './optimizer';
export type { OptimizerRule } from './rules/rule';
export { filterPushdown } from './rules/filter-pushdown';
export { timeRangePushdown } from './rules/time-range-pushdown';
export { projectionPushdown } from './rules/projection-pushdown';
export { topNFusion } from './rules/top-n-fusion';
export {
  SCALAR_SIGNATURES,
  INTERNAL_FUNCTIONS,
  canonicalFunctionName,
  type ScalarSignature,
} from './functions/scalar-signatures';
export { AGGREGATE_SIGNATURES, type AggregateSignature } from './functions/aggregate-signatures';
export { WINDOW_SIGNATURES } from './window-binding';
