/**
 * The result conventions the planner adds on top of the query (apl.md §5): raw event rows come back newest
 * first and capped at the default limit; a `take` over raw rows takes the newest ones.
 */
import { col } from '../expr';
import { type PlanNode, type SortKeySpec, hasField, joinRowSource } from '../nodes/plan-node';
import { TIME_FIELD } from './binding-helpers';

const STREAMING = new Set(['filter', 'extend', 'project', 'mv-expand', 'parse', 'limit']);

export function isAggregated(node: PlanNode): boolean {
  let n: PlanNode = node;
  for (;;) {
    if (n.kind === 'aggregate' || n.kind === 'make-series') return true;
    if (n.kind === 'values') return n.materialized?.aggregated === true;
    if (n.kind === 'scan' || n.kind === 'union') return false;
    n = n.kind === 'join' ? joinRowSource(n) : n.input;
  }
}

/**
 * Raw event results come back newest first and are capped at the default limit unless the query sets
 * one. A `take` over the raw stream therefore returns the newest rows (`take` becomes `top by _time desc`).
 */
export function finalizeResult(root: PlanNode, defaultLimit: number): PlanNode {
  // Walk the chain of streaming operators from the top.
  const chain: PlanNode[] = [];
  let n: PlanNode = root;
  while (STREAMING.has(n.kind)) {
    chain.push(n);
    n = (n as { input: PlanNode }).input;
  }
  const bottom = n;
  // Rows after a `serialize` keep the order they were read in (Kusto: the serialized order is the
  // order), so they are not raw events to return newest first.
  const serialized = chain.some((c) => c.kind === 'limit' && c.serialize);
  const rawStream =
    !serialized &&
    (bottom.kind === 'scan' || (bottom.kind === 'union' && bottom.inputs.every((i) => i.kind === 'scan')));
  // A `serialize` (a limit of every row) is no row cap: the default limit still applies.
  const hasLimit = chain.some((c) => c.kind === 'limit' && !c.serialize) || bottom.kind === 'top';

  if (rawStream) {
    const timeDesc: SortKeySpec[] = [{ expr: col(TIME_FIELD, 'datetime'), desc: true, nullsFirst: false }];
    // Rebuild the chain bottom-up, ordering the stream at the highest point where `_time` still exists.
    const nodes = [...chain].reverse();
    let highestWithTime = -1;
    if (hasField(bottom.schema, TIME_FIELD)) highestWithTime = 0;
    for (let i = 0; i < nodes.length; i++)
      if (hasField(nodes[i].schema, TIME_FIELD) && highestWithTime === i) highestWithTime = i + 1;
    let cur: PlanNode = bottom;
    let limited = false;
    // Once a `top by _time desc` is in place, the order-preserving operators above keep it sorted.
    let ordered = false;
    for (let i = 0; i <= nodes.length; i++) {
      if (i === highestWithTime) {
        if (!hasLimit) {
          cur = {
            kind: 'top',
            input: cur,
            count: defaultLimit,
            keys: timeDesc,
            schema: cur.schema,
            implicit: true,
          };
          limited = true;
        } else if (!ordered) {
          cur = { kind: 'sort', input: cur, keys: timeDesc, schema: cur.schema };
        }
      }
      if (i === nodes.length) break;
      const node = nodes[i];
      if (node.kind === 'limit' && i < highestWithTime) {
        cur = { kind: 'top', input: cur, count: node.count, keys: timeDesc, schema: cur.schema };
        ordered = true;
      } else {
        cur = { ...node, input: cur } as PlanNode;
      }
    }
    if (!limited && !hasLimit)
      cur = { kind: 'limit', input: cur, count: defaultLimit, schema: cur.schema, implicit: true };
    return cur;
  }
  if (isAggregated(root) || hasLimit || (bottom as PlanNode).kind === 'top') return root;
  return { kind: 'limit', input: root, count: defaultLimit, schema: root.schema, implicit: true };
}
