/**
 * Window functions (Kusto: prev, next, row_number, row_cumsum, row_rank_dense, row_rank_min,
 * row_window_session): which names they are, how many arguments each takes, and how a scalar expression
 * is rewritten so each window call becomes a column a window extend computes first (plan-node.ts
 * `ExtendNode.window`).
 */
import type { Expr } from '@quarry/apl';
import { mapChildren } from './map-children';
import type { AplType } from './types';

export interface WindowSignature {
  minArgs: number;
  maxArgs: number;
  /** The result type from the bound argument types. */
  returns: (args: AplType[]) => AplType;
}

export const WINDOW_SIGNATURES: ReadonlyMap<string, WindowSignature> = new Map([
  ['prev', { minArgs: 1, maxArgs: 3, returns: (a: AplType[]) => a[0] }],
  ['next', { minArgs: 1, maxArgs: 3, returns: (a: AplType[]) => a[0] }],
  ['row_number', { minArgs: 0, maxArgs: 2, returns: () => 'long' as const }],
  [
    'row_cumsum',
    { minArgs: 1, maxArgs: 2, returns: (a: AplType[]) => (a[0] === 'long' ? 'long' : 'real') as AplType },
  ],
  ['row_rank_dense', { minArgs: 1, maxArgs: 2, returns: () => 'long' as const }],
  ['row_rank_min', { minArgs: 1, maxArgs: 2, returns: () => 'long' as const }],
  ['row_window_session', { minArgs: 3, maxArgs: 4, returns: (a: AplType[]) => a[0] }],
]);

export type CallExpr = Extract<Expr, { kind: 'call' }>;

/**
 * Rebuilds an expression with every window call replaced by a reference to the name `replace` returns.
 * Innermost calls first: `row_cumsum(x, a != prev(a))` hands `prev(a)` over before the outer call, whose
 * arguments then already refer to the inner call's name.
 */
export function liftWindows(e: Expr, replace: (call: CallExpr) => string): Expr {
  const walk = (x: Expr): Expr => {
    const rebuilt = mapChildren(x, walk);
    return x.kind === 'call' && WINDOW_SIGNATURES.has(x.name)
      ? { kind: 'name', name: replace(rebuilt as CallExpr), quoted: true, span: x.span }
      : rebuilt;
  };
  return walk(e);
}

export function containsWindow(e: Expr): boolean {
  let found = false;
  liftWindows(e, () => {
    found = true;
    return '_';
  });
  return found;
}
