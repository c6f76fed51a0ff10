/** Prints a plan as an indented tree; the printed form is what optimizer tests compare. */
import { formatRfc3339 } from '@quarry/common';
import { printExpr } from './expr';
import type { PlanNode, SortKeySpec } from './nodes/plan-node';
import { childrenOf } from './nodes/plan-node';

function iso(ms: number): string {
  return Number.isFinite(ms) ? formatRfc3339(ms) : String(ms);
}

function keys(ks: SortKeySpec[]): string {
  return ks
    .map((k) => `${printExpr(k.expr)} ${k.desc ? 'desc' : 'asc'}${k.nullsFirst ? ' nulls first' : ''}`)
    .join(', ');
}

export function describeNode(node: PlanNode): string {
  switch (node.kind) {
    case 'scan': {
      const parts = [`Scan ${node.dataset}`, `window=[${iso(node.startMs)}, ${iso(node.endMs)})`];
      parts.push(`columns=${node.columns ? '[' + node.columns.join(', ') + ']' : '*'}`);
      if (node.filter) parts.push(`filter=${printExpr(node.filter)}`);
      return parts.join(' ');
    }
    case 'values': {
      // A cached `materialize(T)` holds its rows in a batch (builder.ts materializedTable), not in `rows`.
      const cached = node.materialized;
      const rows = cached ? `rows=${cached.batch.length} materialized` : `rows=${node.rows.length}`;
      return `Values [${node.schema.map((f) => f.name).join(', ')}] ${rows}`;
    }
    case 'filter':
      return `Filter ${printExpr(node.predicate)}`;
    case 'extend':
      return `${node.virtual ? 'VirtualFields' : 'Extend'} ${node.items.map((i) => `${i.name}=${printExpr(i.expr)}`).join(', ')}`;
    case 'project':
      return `Project ${node.items.map((i) => (i.expr.kind === 'col' && i.expr.name === i.name ? i.name : `${i.name}=${printExpr(i.expr)}`)).join(', ')}`;
    case 'aggregate':
      return `Aggregate keys=[${node.keys.map((k) => `${k.name}=${printExpr(k.expr)}`).join(', ')}] aggs=[${node.aggs
        .map(
          (a) =>
            `${a.outputs.map((o) => o.name).join('+')}=${a.fn}(${a.args.map(printExpr).join(', ')}${a.predicate ? ' if ' + printExpr(a.predicate) : ''})`,
        )
        .join(', ')}]`;
    case 'sort':
      return `Sort ${keys(node.keys)}`;
    case 'limit':
      return `Limit ${node.count}${node.implicit ? ' (default)' : ''}`;
    case 'top':
      return `Top ${node.count} by ${keys(node.keys)}${node.implicit ? ' (default)' : ''}`;
    case 'mv-expand':
      return `MvExpand ${node.items.map((i) => i.column).join(', ')}`;
    case 'parse':
      return `Parse ${printExpr(node.source)} mode=${node.mode}`;
    case 'join':
      return `Join kind=${node.joinKind} on ${node.on.map((c) => `${c.left}==${c.right}`).join(', ')}`;
    case 'union':
      return `Union${node.withSource ? ' withsource=' + node.withSource : ''}`;
    case 'make-series':
      return `MakeSeries ${node.aggs.map((a) => `${a.outputs[0].name}=${a.fn}(${a.args.map(printExpr).join(', ')})`).join(', ')} on ${printExpr(node.time)} step ${node.stepMs}ms by [${node.keys.map((k) => k.name).join(', ')}]`;
  }
}

export function printPlan(node: PlanNode, indent = 0): string {
  const line = '  '.repeat(indent) + describeNode(node);
  return [line, ...childrenOf(node).map((c) => printPlan(c, indent + 1))].join('\n');
}
