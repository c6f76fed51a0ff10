/**
 * Filter pushdown: `Filter(Scan)` becomes a scan with a predicate, and adjacent filters merge, so rows
 * are dropped inside the scan loop with a selection vector before any other operator sees them. A filter
 * directly above an `Extend` moves below it when it reads none of the extended columns.
 */
import { andAll, columnsOf, conjuncts, readsAllColumns } from '../expr';
import type { PlanNode } from '../nodes/plan-node';
import { transformUp, type OptimizerRule } from './rule';

function push(node: PlanNode): PlanNode {
  if (node.kind !== 'filter') return node;
  const input = node.input;
  if (input.kind === 'scan') {
    const parts = [...(input.filter ? conjuncts(input.filter) : []), ...conjuncts(node.predicate)];
    return { ...input, filter: andAll(parts) };
  }
  if (input.kind === 'filter') {
    return push({
      ...node,
      input: input.input,
      predicate: andAll([...conjuncts(input.predicate), ...conjuncts(node.predicate)])!,
    });
  }
  // A predicate over the whole row (`search "x"`, `* has "x"`) reads the extended columns too.
  // Window functions see every row of their input: a filter above one stays above it.
  if (input.kind === 'extend' && !input.window && !readsAllColumns(node.predicate)) {
    const reads = columnsOf(node.predicate);
    if (input.items.every((i) => !reads.has(i.name))) {
      const pushed = push({
        kind: 'filter',
        input: input.input,
        predicate: node.predicate,
        schema: input.input.schema,
      });
      return { ...input, input: pushed };
    }
  }
  return node;
}

export const filterPushdown: OptimizerRule = {
  name: 'filter-pushdown',
  apply: (root) => transformUp(root, push),
};
