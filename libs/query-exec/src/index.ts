export { executePlan, type ExecuteOptions, type ExecuteResult } from './executor';
export { toResultTable, type TableOptions } from './result-table';
export { evaluate } from './eval/evaluate';
export { EvalContext } from './eval/context';
export { SCALAR_IMPLS } from './functions/registry';
export { DistinctCounter } from './sketches/hyperloglog';
export { QuantileSketch } from './sketches/quantile-sketch';
export { concatBatches } from './concat';
export { compileRegex } from './regex';
