/** Helpers of the binder layers: constant tables, name rules, search terms, expression walks. */
import { aplError, type Expr, type Operator } from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import { call, col, lit, type PExpr } from '../expr';
import { AGGREGATE_SIGNATURES } from '../functions/aggregate-signatures';
import { mapChildren } from '../map-children';
import type { NamedExpr, PlanNode } from '../nodes/plan-node';
import { WINDOW_SIGNATURES, containsWindow } from '../window-binding';
import { unifyTypes, type AplType, type Field } from '../types';

export const ARITH_OPS = new Set(['+', '-', '*', '/', '%']);

/** Rows a `range` may produce (they are planned as inline values). */
export const MAX_RANGE_ROWS = 100_000;

export const COMPARE_OPS = new Set(['==', '!=', '<', '<=', '>', '>=', '=~', '!~']);

export const TIME_FIELD = '_time';

/** Functions that take a regular expression, and the position of that argument. */
export const REGEX_ARGUMENT = new Map<string, number>([
  ['extract', 0],
  ['extract_all', 0],
  ['replace_regex', 0],
  ['trim_regex', 0],
  ['trim_start_regex', 0],
  ['trim_end_regex', 0],
  ['countof_regex', 0],
  ['indexof_regex', 1],
]);

/** Functions whose results come from several arguments, and which arguments those are. */
export const STRICT_BRANCHES = new Map<string, (index: number, count: number) => boolean>([
  ['iff', (i) => i > 0],
  ['case', (i, n) => i % 2 === 1 || i === n - 1],
  ['coalesce', () => true],
  ['min_of', () => true],
  ['max_of', () => true],
]);

/** `set name;` and `set name = true;` switch an option on. */
export function isTrueOption(value: Expr | undefined): boolean {
  return value === undefined || (value.kind === 'literal' && value.value === true);
}

/**
 * Whether two static types may be compared. Datetimes and timespans compare only with their own type:
 * anything else would compare their milliseconds with a number or a text. Other mixes stay allowed with
 * the documented outcome (a string and a number: `==` false, `<` null; apl.md §3.1).
 */
export function comparable(a: AplType, b: AplType): boolean {
  if (a === b || a === 'dynamic' || b === 'dynamic') return true;
  const temporal = (t: AplType) => t === 'datetime' || t === 'timespan';
  return !temporal(a) && !temporal(b);
}

/** Literals and calls over literals (`dynamic([...])`, `ago(1h)`, `-1`). */
export function isConstantExpr(p: PExpr): boolean {
  if (p.kind === 'lit') return true;
  if (p.kind === 'call') return p.fn !== 'rand' && p.args.every(isConstantExpr);
  return false;
}

export function containsAggregate(e: Expr): boolean {
  let found = false;
  liftAggregates(e, () => {
    found = true;
    return '_';
  });
  return found;
}

/** Rebuilds an expression with every aggregate call replaced by a reference to the name `replace` returns. */
export function liftAggregates(e: Expr, replace: (call: Extract<Expr, { kind: 'call' }>) => string): Expr {
  const walk = (x: Expr): Expr =>
    x.kind === 'call' && AGGREGATE_SIGNATURES.has(x.name)
      ? { kind: 'name', name: replace(x), quoted: true, span: x.span }
      : mapChildren(x, walk);
  return walk(e);
}

/** Whether an operator's expressions call window functions (they need a window extend first). */
export function operatorHasWindows(op: Operator): boolean {
  switch (op.kind) {
    case 'extend':
    case 'project':
    case 'serialize':
      return op.items.some((i) => containsWindow(i.expr));
    case 'where':
      return containsWindow(op.predicate);
    default:
      return false;
  }
}

/** Kusto's column name for a bare call in `project`: `prev_a` for `prev(a)`, else the function name. */
export function windowImplicitName(e: Extract<Expr, { kind: 'call' }>): string | undefined {
  if (!WINDOW_SIGNATURES.has(e.name)) return undefined;
  const first = e.args[0];
  return first?.kind === 'name' ? `${e.name}_${first.name}` : e.name;
}

export function isNumeric(t: AplType): boolean {
  return t === 'long' || t === 'real';
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function arityText(min: number, max: number): string {
  if (min === max) return String(min);
  if (max >= 64) return `at least ${min}`;
  return `${min} to ${max}`;
}

/** Throws `apl_wrong_arity` unless `got` arguments fit the signature's bounds. */
export function checkArity(
  name: string,
  sig: { minArgs: number; maxArgs: number },
  got: number,
  span: SourceSpan,
): void {
  if (got < sig.minArgs || got > sig.maxArgs)
    throw aplError('apl_wrong_arity', { name, expected: arityText(sig.minArgs, sig.maxArgs), got }, span);
}

export function fieldType(fields: Field[], name: string): AplType {
  return fields.find((f) => f.name === name)!.type;
}

export function dottedName(e: Expr): string | null {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'member') {
    const base = dottedName(e.target);
    return base === null ? null : `${base}.${e.name}`;
  }
  if (e.kind === 'index' && e.index.kind === 'literal' && typeof e.index.value === 'string') {
    const base = dottedName(e.target);
    return base === null ? null : `${base}.${e.index.value}`;
  }
  return null;
}

/** Name of an unnamed column: a field keeps its name; `bin(x, …)` is named after x (apl.md §5). */
export function implicitName(expr: PExpr, context: string): string | undefined {
  if (expr.kind === 'col') return expr.name;
  if (context === 'print') return undefined;
  if (
    expr.kind === 'call' &&
    (expr.fn === 'bin' || expr.fn === 'floor' || expr.fn === 'bin_at') &&
    expr.args[0]?.kind === 'col'
  )
    return expr.args[0].name;
  // Kusto's pages name these after the sketch column: `dcount_hll(m)` → `dcount_hll_m`,
  // `percentile_tdigest(t, p)` and `percentiles_array_tdigest(t, …)` → `percentile_tdigest_t`.
  if (expr.kind === 'call' && expr.args[0]?.kind === 'col') {
    const prefix = SKETCH_NAME_PREFIX.get(expr.fn);
    if (prefix !== undefined) return `${prefix}_${expr.args[0].name}`;
  }
  return undefined;
}

const SKETCH_NAME_PREFIX = new Map([
  ['dcount_hll', 'dcount_hll'],
  ['percentile_tdigest', 'percentile_tdigest'],
  ['percentiles_array_tdigest', 'percentile_tdigest'],
]);

export function wireName(t: AplType): string {
  switch (t) {
    case 'long':
      return 'int';
    case 'real':
      return 'real';
    case 'bool':
      return 'bool';
    default:
      return t;
  }
}

/** `search kind=case_sensitive`: every case-insensitive string match becomes its `_cs` form. */
/**
 * One search term against a text: `"x"` → `has`, `"x*"` → `hasprefix`, `"*x"` → `hassuffix`, `"*x*"` →
 * `contains`; a `*` inside the term or a `?` anywhere → the regex `\\bx.*y\\b` (`?` = one character; no `\\b`
 * on a side that has an outer `*`), case-insensitive unless `kind=case_sensitive`.
 */
export function searchTerm(target: PExpr, s: string, caseSensitive: boolean): PExpr {
  if (s === '*') return lit(true, 'bool');
  const leading = s.startsWith('*');
  const trailing = s.endsWith('*') && s.length > 1;
  const core = s.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  if (core.includes('*') || core.includes('?')) {
    const body = core
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : escapeRegExp(c)))
      .join('');
    const pattern = `${caseSensitive ? '' : '(?i)'}${leading ? '' : '\\b'}${body}${trailing ? '' : '\\b'}`;
    return call('matches regex', [target, lit(pattern, 'string')], 'bool');
  }
  if (leading && trailing) return call('contains', [target, lit(core, 'string')], 'bool');
  if (trailing) return call('hasprefix', [target, lit(core, 'string')], 'bool');
  if (leading) return call('hassuffix', [target, lit(core, 'string')], 'bool');
  return call('has', [target, lit(core, 'string')], 'bool');
}

export function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "Granny" order: digit runs compare as numbers (`a2` before `a10`), other runs by code point. */
export function naturalCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]];
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    const c = numeric ? Number(x) - Number(y) || codePointCompare(x, y) : codePointCompare(x, y);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/** Functions that return several columns in `extend` / `project` / `print`: the bag they are read from. */
export const MULTI_COLUMN: Record<string, { bag: string; columns: { key: string; type: AplType }[] }> = {
  series_stats: {
    bag: 'series_stats_dynamic',
    columns: ['min', 'min_idx', 'max', 'max_idx', 'avg', 'stdev', 'variance'].map((key) => ({
      key,
      type: key.endsWith('_idx') ? 'long' : 'real',
    })),
  },
  series_fft: { bag: 'series_fft', columns: ['real', 'imag'].map((key) => ({ key, type: 'dynamic' })) },
  series_ifft: { bag: 'series_ifft', columns: ['real', 'imag'].map((key) => ({ key, type: 'dynamic' })) },
};

export function multiColumnOf(e: Expr): (typeof MULTI_COLUMN)[string] | null {
  return e.kind === 'call' && Object.hasOwn(MULTI_COLUMN, e.name) ? MULTI_COLUMN[e.name] : null;
}

/** The conversion function for a typed `parse-kv` key (strings need none). */
export const CONVERSION_OF_TYPE: Partial<Record<AplType, string>> = {
  long: 'tolong',
  real: 'toreal',
  bool: 'tobool',
  datetime: 'todatetime',
  timespan: 'totimespan',
  dynamic: 'todynamic',
};

/**
 * `extend-valid`: each item assigns its value only when it is "valid" (apl.md §7; see `is_valid_value`),
 * otherwise the column keeps its previous value, or is null when it is new.
 */
export function keepOnlyValid(items: NamedExpr[], fields: Field[]): NamedExpr[] {
  let scope = fields;
  return items.map((item) => {
    const prevField = scope.find((f) => f.name === item.name);
    const prev = prevField ? col(item.name, prevField.type) : lit(null, item.expr.type);
    const type = prevField ? unifyTypes(prevField.type, item.expr.type) : item.expr.type;
    const expr = call('iff', [call('is_valid_value', [item.expr], 'bool'), item.expr, prev], type);
    scope = [...scope.filter((f) => f.name !== item.name), { name: item.name, type }];
    return { name: item.name, expr };
  });
}

export function caseSensitiveMatches(e: PExpr): PExpr {
  if (e.kind !== 'call') return e;
  const args = e.args.map(caseSensitiveMatches);
  const fn = /^!?(contains|has|startswith|endswith|hasprefix|hassuffix)$/.test(e.fn) ? `${e.fn}_cs` : e.fn;
  return { ...e, fn, args };
}

/**
 * A join of two plans on one column of the same name on both sides, the right side's copy of the key
 * dropped: how operators that Quarry plans as joins (`mv-apply`'s empty subtables, `top-nested`'s levels)
 * attach rows of one plan to rows of another.
 */
export function joinOnColumn(left: PlanNode, right: PlanNode, key: string, joinKind: string): PlanNode {
  return {
    kind: 'join',
    left,
    right,
    joinKind,
    on: [{ left: key, right: key }],
    rightNames: right.schema.map((f) => (f.name === key ? null : f.name)),
    schema: [...left.schema, ...right.schema.filter((f) => f.name !== key)],
  };
}
