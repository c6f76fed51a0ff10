/** Result types of arithmetic (APL promotion rules, apl.md §3.1). Shared by the planner and executors. */
import type { AplType } from './types';

const NUM = new Set<AplType>(['long', 'real']);

/** The result type of `l op r`, or null when the combination is a type error. */
export function arithmeticResultType(op: string, l: AplType, r: AplType): AplType | null {
  if (l === 'dynamic' || r === 'dynamic') return 'dynamic';
  if (NUM.has(l) && NUM.has(r)) return l === 'long' && r === 'long' ? 'long' : 'real';
  if (l === 'datetime' && r === 'datetime') return op === '-' ? 'timespan' : null;
  if (l === 'datetime' && r === 'timespan') return op === '+' || op === '-' ? 'datetime' : null;
  if (l === 'timespan' && r === 'datetime') return op === '+' ? 'datetime' : null;
  if (l === 'timespan' && r === 'timespan') {
    if (op === '+' || op === '-' || op === '%') return 'timespan';
    if (op === '/') return 'real';
    return null;
  }
  if (l === 'timespan' && NUM.has(r)) return op === '*' || op === '/' ? 'timespan' : null;
  if (NUM.has(l) && r === 'timespan') return op === '*' ? 'timespan' : null;
  // Arithmetic with bools treats them as numbers (Kusto): rarely intended, but not an error.
  if ((l === 'bool' && (NUM.has(r) || r === 'bool')) || (r === 'bool' && NUM.has(l))) return 'long';
  return null;
}
