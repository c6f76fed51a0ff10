/**
 * Top-N fusion: `Limit n` directly above `Sort keys` (`sort by k | take n`, `order by k | limit n`) becomes
 * `Top n by keys`, which the executor runs as a bounded heap (O(n) rows kept, no full sort, and only the
 * survivors' other columns are ever materialized) instead of sorting every input row and dropping all but
 * n. Results are identical: the heap breaks ties by arrival order exactly like the stable sort, and both
 * place nulls per key the same way. A `Limit` above a `Top` keeps the smaller count.
 */
import type { PlanNode } from '../nodes/plan-node';
import { transformUp, type OptimizerRule } from './rule';

function fuse(node: PlanNode): PlanNode {
  if (node.kind !== 'limit') return node;
  const input = node.input;
  if (input.kind === 'sort') {
    return {
      kind: 'top',
      input: input.input,
      count: node.count,
      keys: input.keys,
      schema: node.schema,
      ...(node.implicit ? { implicit: true } : {}),
    };
  }
  if (input.kind === 'top') {
    const count = Math.min(node.count, input.count);
    const implicit = node.count < input.count ? node.implicit : input.implicit;
    return {
      kind: 'top',
      input: input.input,
      count,
      keys: input.keys,
      schema: node.schema,
      ...(implicit ? { implicit: true } : {}),
    };
  }
  return node;
}

export const topNFusion: OptimizerRule = {
  name: 'top-n-fusion',
  apply: (root) => transformUp(root, fuse),
};
