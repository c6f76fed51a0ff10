/**
 * Projection pushdown: computes, top-down, which columns each operator needs and tells every scan to
 * read only those (plus `_time`). Operators that output every input column (raw results) need all.
 */
import { columnsOf, readsAllColumns, type PExpr } from '../expr';
import type { PlanNode } from '../nodes/plan-node';
import type { OptimizerRule } from './rule';

type Need = Set<string> | null;

function union(need: Need, exprs: PExpr[]): Need {
  if (need === null || exprs.some(readsAllColumns)) return null;
  const out = new Set(need);
  for (const e of exprs) columnsOf(e, out);
  return out;
}

function only(exprs: PExpr[]): Need {
  return union(new Set(), exprs);
}

function without(need: Need, names: string[]): Need {
  if (need === null) return null;
  const out = new Set(need);
  for (const n of names) out.delete(n);
  return out;
}

function rewrite(node: PlanNode, need: Need): PlanNode {
  switch (node.kind) {
    case 'scan': {
      const cols = union(need, node.filter ? [node.filter] : []);
      if (cols === null) return { ...node, columns: null };
      cols.add('_time');
      const known = new Set(node.schema.map((f) => f.name));
      return { ...node, columns: [...cols].filter((c) => known.has(c)).sort() };
    }
    case 'values':
      return node;
    case 'filter':
      return { ...node, input: rewrite(node.input, union(need, [node.predicate])) };
    case 'extend': {
      if (node.virtual && need !== null) {
        // Virtual fields nobody above reads are not computed at all (they only read stored fields).
        // The schema stays whole (like a scan's, whose columns are narrowed): operators such as join map
        // columns by schema position.
        const items = node.items.filter((i) => need.has(i.name));
        const input = rewrite(
          node.input,
          union(
            without(
              need,
              items.map((i) => i.name),
            ),
            items.map((i) => i.expr),
          ),
        );
        return { ...node, input, items };
      }
      return {
        ...node,
        input: rewrite(
          node.input,
          union(
            without(
              need,
              node.items.map((i) => i.name),
            ),
            node.items.map((i) => i.expr),
          ),
        ),
      };
    }
    case 'project':
      return { ...node, input: rewrite(node.input, only(node.items.map((i) => i.expr))) };
    case 'aggregate': {
      const exprs = [
        ...node.keys.map((k) => k.expr),
        ...node.aggs.flatMap((a) => (a.predicate ? [...a.args, a.predicate] : a.args)),
      ];
      return { ...node, input: rewrite(node.input, only(exprs)) };
    }
    case 'make-series': {
      const exprs = [
        node.time,
        ...node.keys.map((k) => k.expr),
        ...node.aggs.flatMap((a) => (a.predicate ? [...a.args, a.predicate] : a.args)),
      ];
      return { ...node, input: rewrite(node.input, only(exprs)) };
    }
    case 'sort':
    case 'top':
      return {
        ...node,
        input: rewrite(
          node.input,
          union(
            need,
            node.keys.map((k) => k.expr),
          ),
        ),
      };
    case 'limit':
      return { ...node, input: rewrite(node.input, need) };
    case 'mv-expand':
      return {
        ...node,
        input: rewrite(
          node.input,
          union(
            without(need, node.itemIndex ? [node.itemIndex] : []),
            node.items.map((i) => i.expr),
          ),
        ),
      };
    case 'parse': {
      const captures = node.parts.flatMap((p) => (p.kind === 'capture' ? [p.name] : []));
      return { ...node, input: rewrite(node.input, union(without(need, captures), [node.source])) };
    }
    case 'join': {
      if (need === null) return { ...node, left: rewrite(node.left, null), right: rewrite(node.right, null) };
      const leftNeed = new Set<string>(node.on.map((c) => c.left));
      for (const f of node.left.schema) if (need.has(f.name)) leftNeed.add(f.name);
      const rightNeed = new Set<string>(node.on.map((c) => c.right));
      node.right.schema.forEach((f, i) => {
        const out = node.rightNames[i];
        if (out !== null && need.has(out)) rightNeed.add(f.name);
      });
      return { ...node, left: rewrite(node.left, leftNeed), right: rewrite(node.right, rightNeed) };
    }
    case 'union':
      return {
        ...node,
        inputs: node.inputs.map((i) => rewrite(i, without(need, node.withSource ? [node.withSource] : []))),
      };
  }
}

export const projectionPushdown: OptimizerRule = {
  name: 'projection-pushdown',
  apply: (root) => rewrite(root, null),
};
