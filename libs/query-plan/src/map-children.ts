import type { Expr } from '@quarry/apl';

/**
 * The expression with `walk` applied to each direct child (call arguments included); leaves come back
 * as they are. Rewrites that replace some node kind (aggregate or window calls lifted into their own
 * operator) handle that kind and leave the rest of the tree to this.
 */
export function mapChildren(x: Expr, walk: (child: Expr) => Expr): Expr {
  switch (x.kind) {
    case 'call':
      return { ...x, args: x.args.map(walk) };
    case 'binary':
      return { ...x, left: walk(x.left), right: walk(x.right) };
    case 'unary':
      return { ...x, operand: walk(x.operand) };
    case 'in':
      return { ...x, left: walk(x.left), list: x.list.map(walk) };
    case 'between':
      return { ...x, left: walk(x.left), low: walk(x.low), high: walk(x.high) };
    case 'member':
      return { ...x, target: walk(x.target) };
    case 'index':
      return { ...x, target: walk(x.target), index: walk(x.index) };
    default:
      return x;
  }
}
