import { formatRfc3339 } from '@quarry/common';
/**
 * Bound scalar expressions: names resolved to columns, operators and functions as calls with a static
 * type. The static type is a promise about the common case; executors still check each batch's column
 * kinds, because a field may change kind between batches.
 */
import type { AplType } from './types';

export type PExpr =
  | { kind: 'col'; name: string; type: AplType }
  | { kind: 'lit'; value: unknown; type: AplType }
  /** Operators (`+`, `==`, `contains`, `in`, `between`, `and`...) and scalar functions. */
  | { kind: 'call'; fn: string; args: PExpr[]; type: AplType }
  /** Every column of the row, as text (`where * has "x"`), but those in `skip` (a leading search's `$table`). */
  | { kind: 'row'; type: AplType; skip?: readonly string[] };

export const col = (name: string, type: AplType): PExpr => ({ kind: 'col', name, type });
export const lit = (value: unknown, type: AplType): PExpr => ({ kind: 'lit', value, type });
export const call = (fn: string, args: PExpr[], type: AplType): PExpr => ({ kind: 'call', fn, args, type });

/** Column names an expression reads. */
export function columnsOf(e: PExpr, out: Set<string> = new Set()): Set<string> {
  switch (e.kind) {
    case 'col':
      out.add(e.name);
      break;
    case 'call':
      for (const a of e.args) columnsOf(a, out);
      break;
    default:
      break;
  }
  return out;
}

export function readsAllColumns(e: PExpr): boolean {
  if (e.kind === 'row') return true;
  if (e.kind === 'call') return e.args.some(readsAllColumns);
  return false;
}

export function printExpr(e: PExpr): string {
  switch (e.kind) {
    case 'col':
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name) ? e.name : `['${e.name}']`;
    case 'lit':
      if (e.value === null) return `${e.type}(null)`;
      if (e.type === 'datetime') return `datetime(${formatRfc3339(e.value as number)})`;
      if (e.type === 'timespan') return `timespan(${e.value}ms)`;
      return JSON.stringify(e.value);
    case 'row':
      return '*';
    case 'call': {
      if (/^[a-z_0-9]+$/i.test(e.fn) && !INFIX_WORDS.has(e.fn))
        return `${e.fn}(${e.args.map(printExpr).join(', ')})`;
      if (e.fn === 'in' || e.fn === '!in' || e.fn === 'in~' || e.fn === '!in~' || e.fn.startsWith('has_a')) {
        return `(${printExpr(e.args[0])} ${e.fn} (${e.args.slice(1).map(printExpr).join(', ')}))`;
      }
      if (e.fn === 'between' || e.fn === '!between') {
        return `(${printExpr(e.args[0])} ${e.fn} (${printExpr(e.args[1])} .. ${printExpr(e.args[2])}))`;
      }
      if (e.args.length === 1) return `(${e.fn}${printExpr(e.args[0])})`;
      return `(${printExpr(e.args[0])} ${e.fn} ${printExpr(e.args[1])})`;
    }
  }
}

const INFIX_WORDS = new Set([
  'and',
  'or',
  'contains',
  'contains_cs',
  'has',
  'has_cs',
  'startswith',
  'startswith_cs',
  'endswith',
  'endswith_cs',
  'hasprefix',
  'hasprefix_cs',
  'hassuffix',
  'hassuffix_cs',
]);

/** Splits `a and b and c` into its conjuncts. */
export function conjuncts(e: PExpr): PExpr[] {
  if (e.kind === 'call' && e.fn === 'and') return [...conjuncts(e.args[0]), ...conjuncts(e.args[1])];
  return [e];
}

export function andAll(parts: PExpr[]): PExpr | null {
  if (parts.length === 0) return null;
  return parts.reduce((a, b) => call('and', [a, b], 'bool'));
}
