import type { PlanNode } from '../nodes/plan-node';
import { childrenOf, withChildren } from '../nodes/plan-node';

/** An optimizer rule: a pure rewrite of a plan tree that keeps its result and output schema. */
export interface OptimizerRule {
  name: string;
  apply(root: PlanNode): PlanNode;
}

/** Applies `rewrite` to every node, children first. */
export function transformUp(node: PlanNode, rewrite: (n: PlanNode) => PlanNode): PlanNode {
  const children = childrenOf(node);
  const rebuilt = children.length
    ? withChildren(
        node,
        children.map((c) => transformUp(c, rewrite)),
      )
    : node;
  return rewrite(rebuilt);
}
