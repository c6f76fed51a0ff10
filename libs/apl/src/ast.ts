/** The APL syntax tree. Every node carries the span of the text it was parsed from. */
import type { SourceSpan } from '@quarry/common';

export type AplType = 'bool' | 'long' | 'real' | 'string' | 'datetime' | 'timespan' | 'dynamic';

// ---- scalar expressions ----------------------------------------------------------------------------

export interface LiteralExpr {
  kind: 'literal';
  type: AplType;
  /** null for typed nulls; numbers for long/real; epoch ms for datetime; ms for timespan; JSON for dynamic. */
  value: unknown;
  span: SourceSpan;
}

export interface NameExpr {
  kind: 'name';
  name: string;
  /** Written as `['name']` / `["name"]`. */
  quoted: boolean;
  span: SourceSpan;
}

export interface MemberExpr {
  kind: 'member';
  target: Expr;
  name: string;
  span: SourceSpan;
}

export interface IndexExpr {
  kind: 'index';
  target: Expr;
  index: Expr;
  span: SourceSpan;
}

export interface CallExpr {
  kind: 'call';
  name: string;
  args: Expr[];
  /** `f(c = 7, a = 12)`: the parameter each argument names (user-defined functions only). */
  argNames?: (string | undefined)[];
  nameSpan: SourceSpan;
  span: SourceSpan;
}

export interface UnaryExpr {
  kind: 'unary';
  op: '-' | '+';
  operand: Expr;
  span: SourceSpan;
}

/** Arithmetic, comparison, logical and string operators: `a + b`, `a == b`, `a and b`, `a contains b`. */
export interface BinaryExpr {
  kind: 'binary';
  op: string;
  left: Expr;
  right: Expr;
  opSpan: SourceSpan;
  span: SourceSpan;
}

/**
 * `x in (a, b)`, `x !in (...)`, `x in~ (...)`, `x has_any (...)`, `x has_all (...)`. `toscalar(T)` is an
 * `in` node too (op `toscalar`, `left` a null literal, the subquery `(T) | take 1`): it runs before planning
 * like the list of `x in (T)`, and the value of its first column is the scalar.
 */
export interface InExpr {
  kind: 'in';
  op: string;
  left: Expr;
  list: Expr[];
  /** `x in (T | project y)`: the list is the first column of a tabular expression (`list` is empty). */
  subquery?: TabularExpr;
  span: SourceSpan;
}

export interface BetweenExpr {
  kind: 'between';
  negated: boolean;
  left: Expr;
  low: Expr;
  high: Expr;
  span: SourceSpan;
}

/** `*` in `where * has "x"` or `count(*)`. */
export interface StarExpr {
  kind: 'star';
  span: SourceSpan;
}

/** `typeof(long)` as a function argument. */
export interface TypeofExpr {
  kind: 'typeof';
  type: AplType;
  span: SourceSpan;
}

export type Expr =
  | LiteralExpr
  | NameExpr
  | MemberExpr
  | IndexExpr
  | CallExpr
  | UnaryExpr
  | BinaryExpr
  | InExpr
  | BetweenExpr
  | StarExpr
  | TypeofExpr;

/** `name = expr` or a bare `expr`. */
export interface Assignment {
  name?: string;
  nameSpan?: SourceSpan;
  /** `(a, b) = f(x)`: one name per column of a function that returns several (`series_fft`). */
  names?: { name: string; span: SourceSpan }[];
  expr: Expr;
  span: SourceSpan;
}

export interface SortKey {
  expr: Expr;
  desc: boolean;
  nullsFirst?: boolean;
  span: SourceSpan;
}

/** A column name or a wildcard pattern (`resp*`, `*_id`, `a*b`, `*`). */
export interface NamePattern {
  pattern: string;
  wildcard: boolean;
  /** `project-reorder`: how the columns a wildcard matches are sorted (default: input order). */
  order?: 'asc' | 'desc' | 'granny-asc' | 'granny-desc';
  span: SourceSpan;
}

// ---- tabular operators -----------------------------------------------------------------------------

export type Operator =
  | { kind: 'where'; predicate: Expr; span: SourceSpan }
  /** `extend` (or `extend-valid` with `valid`: an item assigns only a "valid" value, apl.md §7). */
  | { kind: 'extend'; items: Assignment[]; valid?: boolean; span: SourceSpan }
  | {
      kind: 'parse-kv';
      source: Expr;
      keys: { name: string; type: AplType; span: SourceSpan }[];
      /** Both or neither: without them any non-alphanumeric character separates (Kusto). */
      pairDelimiter?: string;
      kvDelimiter?: string;
      /** `with (regex=...)`: two groups, the key and the value. */
      regex?: string;
      quote: string;
      escape?: string;
      greedy: boolean;
      span: SourceSpan;
    }
  | {
      kind: 'redact';
      patterns: { pattern: string; span: SourceSpan }[];
      replaceToken: string;
      redactGroups: boolean;
      /** Columns to redact (default: every string column). */
      on?: { name: string; span: SourceSpan }[];
      span: SourceSpan;
    }
  | { kind: 'project'; items: Assignment[]; span: SourceSpan }
  | { kind: 'project-away'; patterns: NamePattern[]; span: SourceSpan }
  | { kind: 'project-keep'; patterns: NamePattern[]; span: SourceSpan }
  | { kind: 'project-reorder'; patterns: NamePattern[]; span: SourceSpan }
  | { kind: 'project-rename'; items: { name: string; from: string; span: SourceSpan }[]; span: SourceSpan }
  | { kind: 'summarize'; aggs: Assignment[]; by: Assignment[]; span: SourceSpan }
  | { kind: 'count'; span: SourceSpan }
  | { kind: 'take'; count: Expr; span: SourceSpan }
  | { kind: 'sort'; keys: SortKey[]; span: SourceSpan }
  | { kind: 'top'; count: Expr; keys: SortKey[]; span: SourceSpan }
  | { kind: 'distinct'; items: Expr[]; span: SourceSpan }
  | { kind: 'getschema'; span: SourceSpan }
  | {
      kind: 'mv-expand';
      /** Several columns are expanded together (zipped); each may be `Name = Expr` and `to typeof(T)`. */
      items: MvExpandItem[];
      itemIndex?: string;
      limit?: number;
      /** `kind=` / `bagexpansion=`: a bag entry becomes `{key: value}` (bag, default) or `[key, value]`. */
      bagExpansion: 'bag' | 'array';
      span: SourceSpan;
    }
  | {
      kind: 'parse';
      mode: 'simple' | 'relaxed' | 'regex';
      /** `flags=` of kind=regex: RE2 flags `i`, `m`, `s`, `U` (Kusto's set). */
      flags?: string;
      source: Expr;
      parts: ParsePart[];
      dropUnmatched: boolean;
      span: SourceSpan;
    }
  | { kind: 'join'; joinKind: string; right: TabularExpr; on: JoinCondition[]; span: SourceSpan }
  | { kind: 'lookup'; joinKind: string; right: TabularExpr; on: JoinCondition[]; span: SourceSpan }
  | {
      kind: 'union';
      tables: TabularExpr[];
      withSource?: string;
      /** `isfuzzy=true`: legs naming no dataset (or view) are skipped while one resolves. */
      fuzzy?: boolean;
      span: SourceSpan;
    }
  | {
      kind: 'search';
      /** `kind=case_sensitive`: the string matches become their `_cs` forms. */
      caseSensitive: boolean;
      predicate: Expr;
      /**
       * A leading `search`'s source column (`$table`, added by its union): bare terms do not search it,
       * as Kusto's search matches the tables' own columns.
       */
      sourceColumn?: string;
      span: SourceSpan;
    }
  | { kind: 'sample'; fraction: Expr; span: SourceSpan }
  /**
   * `as [hint.materialized = b] Name` (Kusto): names the input for later references, `union withsource=`
   * and `search`'s `$table`; `materialized` (`hint.materialized=true`) computes it once, as `materialize()`.
   */
  | { kind: 'as'; name: string; materialized?: true; span: SourceSpan }
  /** `top-nested [N] of Expr [with others = C] by Agg [asc|desc], top-nested …` (Kusto): hierarchical top values. */
  | { kind: 'top-nested'; clauses: TopNestedClause[]; span: SourceSpan }
  /**
   * `mv-apply [with_itemindex = I] Items [limit N] on (SubQuery)` (Kusto): each input row's arrays are
   * expanded into a subtable, the subquery runs over it, and the row's other columns are added back.
   */
  | { kind: 'mv-apply'; expand: Extract<Operator, { kind: 'mv-expand' }>; body: Operator[]; span: SourceSpan }
  /** `serialize [Name = Expr, ...]`: marks the row order as safe for window functions (Kusto). */
  | { kind: 'serialize'; items: Assignment[]; span: SourceSpan }
  | {
      kind: 'make-series';
      aggs: { item: Assignment; defaultValue?: Expr }[];
      on: Expr;
      from?: Expr;
      to?: Expr;
      step: Expr;
      by: Assignment[];
      /** `kind=nonempty`: an empty input gives one row of default series (by default it gives no rows). */
      nonempty?: boolean;
      /** Written `in range(start, stop, step)`: `stop` is inclusive and bins follow `bin()` (Kusto). */
      inRange?: true;
      span: SourceSpan;
    };

export interface TopNestedClause {
  /** Values kept at this level (all when absent). */
  count?: Expr;
  value: Assignment;
  /** `with others = C`: one more row for the values not kept. */
  others?: Expr;
  agg: Assignment;
  desc: boolean;
  span: SourceSpan;
}

export interface MvExpandItem {
  expr: Expr;
  name?: string;
  toType?: AplType;
  span: SourceSpan;
}

export type ParsePart =
  { kind: 'const'; text: string } | { kind: 'skip' } | { kind: 'capture'; name: string; type: AplType };

export interface JoinCondition {
  left: string;
  right: string;
  span: SourceSpan;
  /** Where each side's column is named (the same span for `on key`). */
  leftSpan?: SourceSpan;
  rightSpan?: SourceSpan;
}

export type TabularSource =
  | { kind: 'dataset'; name: string; span: SourceSpan }
  | { kind: 'datatable'; columns: { name: string; type: AplType }[]; values: Expr[]; span: SourceSpan }
  | { kind: 'print'; items: Assignment[]; span: SourceSpan }
  /** `range x from A to B step S` (Kusto): one column of A, A+S, ... up to B inclusive. */
  | { kind: 'range'; column: string; from: Expr; to: Expr; step: Expr; span: SourceSpan }
  /**
   * `(T | ...)`; with `invoke`, the body of a user-defined tabular function called as `f(args)`; with
   * `materialize`, Kusto's `materialize(T)` (evaluated once when a `let` of it is used more than once).
   */
  | {
      kind: 'subquery';
      query: TabularExpr;
      invoke?: FunctionInvocation;
      materialize?: true;
      span: SourceSpan;
    }
  | {
      kind: 'union';
      tables: TabularExpr[];
      withSource?: string;
      /** `isfuzzy=true`: legs naming no dataset (or view) are skipped while one resolves. */
      fuzzy?: boolean;
      span: SourceSpan;
    }
  /**
   * Kusto's `find [withsource=Col] [in (Tables)] where Predicate [project-smart | project Cols]`: the rows
   * of each table matching a search predicate, led by the table's name, in `find`'s output schema.
   */
  | {
      kind: 'find';
      tables: TabularExpr[];
      withSource: string;
      predicate: Expr;
      projection: FindProjection;
      span: SourceSpan;
    }
  /** `union logs*`, `search in (web-*)`: every dataset whose name matches (`*` = any text). */
  | { kind: 'dataset-pattern'; pattern: string; span: SourceSpan }
  /** A tabular parameter of the user-defined function whose body this is (`T` of `(T:(x:long)) { T | … }`). */
  | { kind: 'table-parameter'; name: string; span: SourceSpan };

/**
 * `find`'s output columns: `smart` (the predicate's columns and those every table has, the rest packed
 * into `pack_`), or the listed columns (cast to a type when one is given), with `pack_all()` the others
 * packed into `pack_`.
 */
export type FindProjection =
  | { kind: 'smart' }
  | {
      kind: 'project';
      columns: { name: string; type?: AplType; span: SourceSpan }[];
      packAll: boolean;
    };

export interface TabularExpr {
  source: TabularSource;
  operators: Operator[];
  span: SourceSpan;
}

/**
 * A parameter of a user-defined function: `name: type [= default]`, or a tabular one, `T: (x: long, …)`
 * (the columns the argument must have) or `T: (*)` (any table); a tabular parameter's `type` is dynamic.
 */
export interface FunctionParam {
  name: string;
  type: AplType;
  defaultValue?: Expr;
  table?: { columns: { name: string; type: AplType }[]; wildcard: boolean };
  span: SourceSpan;
}

/**
 * `let f = (a: long, b: long = 2) { let c = a * b; c + 1 };` — a user-defined function (Kusto). The body
 * is `let` statements then one scalar or tabular expression, which decides how the function is called.
 */
export interface FunctionDefinition {
  name: string;
  params: FunctionParam[];
  /** `let v = view () { … };`: also a table of `union v*` and a leading `search` (Kusto). */
  view?: boolean;
  statements: Statement[];
  result: { kind: 'scalar'; expr: Expr } | { kind: 'tabular'; query: TabularExpr };
  span: SourceSpan;
}

/**
 * A call of a tabular user-defined function as a source: the definition and the call's arguments. A
 * tabular argument is an `in` node with op `table` whose subquery is the table (so every walk over
 * subqueries, such as the datasets a query reads, sees it); `T | invoke f(a)` is `f(T, a)` with `T`
 * named for the first tabular parameter.
 */
export interface FunctionInvocation {
  definition: FunctionDefinition;
  args: Expr[];
  /** `f(c = 7)`: the parameter each argument names; undefined for a positional one. */
  argNames?: (string | undefined)[];
  span: SourceSpan;
}

export type Statement =
  | { kind: 'let-scalar'; name: string; expr: Expr; span: SourceSpan }
  | { kind: 'let-function'; definition: FunctionDefinition; span: SourceSpan }
  | { kind: 'let-tabular'; name: string; query: TabularExpr; span: SourceSpan }
  | { kind: 'set'; name: string; value?: Expr; span: SourceSpan };

export interface Query {
  statements: Statement[];
  body: TabularExpr;
  span: SourceSpan;
}
