import type { PlanNode } from './nodes/plan-node';
import { filterPushdown } from './rules/filter-pushdown';
import { projectionPushdown } from './rules/projection-pushdown';
import type { OptimizerRule } from './rules/rule';
import { timeRangePushdown } from './rules/time-range-pushdown';
import { topNFusion } from './rules/top-n-fusion';

/**
 * Rules in the order they run: filters first reach the scan, then bound its window, `sort | take` becomes a
 * bounded top-N, then the scan's columns are narrowed.
 */
export const DEFAULT_RULES: OptimizerRule[] = [
  filterPushdown,
  timeRangePushdown,
  topNFusion,
  projectionPushdown,
];

export function optimize(root: PlanNode, rules: OptimizerRule[] = DEFAULT_RULES): PlanNode {
  let plan = root;
  for (const rule of rules) plan = rule.apply(plan);
  return plan;
}
