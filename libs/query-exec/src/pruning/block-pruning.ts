import type { BlockPruning, BlockSummary, ColumnKind, ColumnSummary } from '@quarry/contracts';
import type { PExpr } from '@quarry/query-plan';

/**
 * Block pruning for a scan's filter: a conservative test, per block, of whether any row could pass. It
 * understands the predicates whose truth on a row implies something about the block's statistics:
 *
 * - `col == v`, `col in (v, …)`, `col < v` (and `<=`, `>`, `>=`, `between`), same value family on both
 *   sides: the block's min/max must allow it (strings compare as the engine compares them, by code unit);
 * - `has`/`has_cs` (terms), `contains`, `startswith`, `endswith`, `hasprefix`, `hassuffix`, `==`, `=~`,
 *   `in~` and their `_cs` forms on a string column: the column's token filter must allow the text
 *   (filters fold case, so they hold for the case-sensitive forms too);
 * - any of these on a column the block does not have, or whose every row is null: no row passes (nulls
 *   never satisfy a positive predicate);
 * - `and` needs both sides possible, `or` either.
 *
 * Everything else (negations, functions, mixed value families, dynamic columns) answers "maybe".
 */
export function blockPruning(filter: PExpr): BlockPruning | null {
  const filterColumns = new Set<string>();
  const test = compile(filter, filterColumns);
  if (test === null) return null;
  return { filterColumns: [...filterColumns], mayMatch: test };
}

type BlockTest = (block: BlockSummary) => boolean;

const ORDER_OPS = new Set(['<', '<=', '>', '>=']);
const SUBSTRING_OPS = new Set([
  'contains',
  'contains_cs',
  'startswith',
  'startswith_cs',
  'endswith',
  'endswith_cs',
  'hasprefix',
  'hasprefix_cs',
  'hassuffix',
  'hassuffix_cs',
  '=~',
]);
const TERM_OPS = new Set(['has', 'has_cs']);
const NUMERIC = new Set<ColumnKind>(['long', 'real', 'datetime', 'timespan']);

/** A test for the predicate, or null when it cannot rule any block out. */
function compile(e: PExpr, filterColumns: Set<string>): BlockTest | null {
  if (e.kind !== 'call') return null;
  const { fn, args } = e;
  if (fn === 'and') {
    const a = compile(args[0], filterColumns);
    const b = compile(args[1], filterColumns);
    if (a === null) return b;
    if (b === null) return a;
    return (block) => a(block) && b(block);
  }
  if (fn === 'or') {
    const a = compile(args[0], filterColumns);
    const b = compile(args[1], filterColumns);
    if (a === null || b === null) return null;
    return (block) => a(block) || b(block);
  }
  const column = args[0]?.kind === 'col' ? args[0].name : null;
  if (column === null) return null;
  const values = args.slice(1);
  if (values.length === 0 || !values.every(isNonNullLiteral)) return null;
  const literals = values.map((v) => (v as { value: unknown }).value);

  let columnTest: ((c: ColumnSummary) => boolean) | null = null;
  if (fn === '==' || fn === 'in') {
    columnTest = (c) => literals.some((v) => inRange(c, v, v) && mayEqualText(c, v));
  } else if (ORDER_OPS.has(fn) && literals.length === 1) {
    const v = literals[0];
    columnTest =
      fn === '<' || fn === '<='
        ? (c) => orderAllows(c, v, 'below', fn === '<=')
        : (c) => orderAllows(c, v, 'above', fn === '>=');
  } else if (fn === 'between' && literals.length === 2) {
    columnTest = (c) => inRange(c, literals[0], literals[1]);
  } else if ((SUBSTRING_OPS.has(fn) || fn === 'in~') && literals.every((v) => typeof v === 'string')) {
    filterColumns.add(column);
    columnTest = (c) =>
      literals.some(
        (v) => c.kind !== 'string' || c.filter === undefined || c.filter.mayContainSubstring(v as string),
      );
  } else if (TERM_OPS.has(fn) && typeof literals[0] === 'string') {
    filterColumns.add(column);
    const term = literals[0];
    columnTest = (c) => c.kind !== 'string' || c.filter === undefined || c.filter.mayContainTerm(term);
  }
  if (columnTest === null) return null;
  const test = columnTest;
  return (block) => {
    const c = block.column(column);
    // Absent, or null in every row: a positive predicate is true for no row.
    if (c === undefined || c.nullCount >= block.rowCount) return false;
    return test(c);
  };
}

function isNonNullLiteral(e: PExpr): boolean {
  return (
    e.kind === 'lit' &&
    e.value !== null &&
    e.value !== undefined &&
    (typeof e.value === 'number' || typeof e.value === 'string')
  );
}

/**
 * Whether [lo, hi] meets the block's [min, max] in the column's own value family; true (maybe) when the
 * families differ or a bound is not recorded.
 */
function inRange(c: ColumnSummary, lo: unknown, hi: unknown): boolean {
  if (!sameFamily(c, lo) || !sameFamily(c, hi)) return true;
  if (c.min === undefined || c.max === undefined) return true;
  return !((hi as number | string) < c.min || (lo as number | string) > c.max);
}

/** `col == text` also needs the text in the token filter (case-folded, so `==` is covered too). */
function mayEqualText(c: ColumnSummary, v: unknown): boolean {
  return (
    !(c.kind === 'string' && typeof v === 'string' && c.filter !== undefined) ||
    c.filter.mayContainSubstring(v)
  );
}

function orderAllows(c: ColumnSummary, v: unknown, side: 'below' | 'above', inclusive: boolean): boolean {
  if (!sameFamily(c, v) || c.min === undefined || c.max === undefined) return true;
  const x = v as number | string;
  if (side === 'below') return inclusive ? c.min <= x : c.min < x;
  return inclusive ? c.max >= x : c.max > x;
}

/** Numbers against numeric columns (the engine compares their raw values), strings against strings. */
function sameFamily(c: ColumnSummary, v: unknown): boolean {
  if (typeof v === 'number') return NUMERIC.has(c.kind) && typeof c.min !== 'string';
  if (typeof v === 'string') return c.kind === 'string';
  return false;
}
