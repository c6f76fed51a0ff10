/**
 * Builds a logical plan from the syntax tree: resolves names against input schemas (case-sensitive),
 * checks function names, arity and operand types, names result columns (apl.md §5) and adds the implicit
 * result conventions (raw rows newest first, default row cap).
 */
import {
  aplError,
  closestName,
  type Assignment,
  type Expr,
  type FunctionDefinition,
  type FunctionInvocation,
  type NamePattern,
  type Operator,
  type Query,
  type SortKey,
  type Statement,
  type TabularExpr,
  type TabularSource,
} from '@quarry/apl';
import { QuarryError, type SourceSpan } from '@quarry/common';
import { arithmeticResultType } from './arith-types';
import { binAutoSizeMs } from './bin-auto';
import { constantTime } from './const-time';
import {
  strictBranches,
  strictComparison,
  strictElements,
  strictStringOperands,
  type StrictProblem,
} from './strict-types';
import { call, col, columnsOf, lit, type PExpr } from './expr';
import { AGGREGATE_SIGNATURES } from './functions/aggregate-signatures';
import {
  aggregateArgumentError,
  scalarArgumentError,
  type ArgumentTypeError,
} from './functions/argument-types';
import {
  INTERNAL_FUNCTIONS,
  RARELY_SUGGESTED,
  SCALAR_SIGNATURES,
  canonicalFunctionName,
} from './functions/scalar-signatures';
import type {
  AggregateCall,
  AggregateNode,
  NamedExpr,
  ParseKvOptions,
  PlanNode,
  SortKeySpec,
} from './nodes/plan-node';
import { hasField, isSerialized, joinRowSource } from './nodes/plan-node';
import { WINDOW_SIGNATURES, containsWindow, liftWindows, type CallExpr } from './window-binding';
import { unifyTypes, type AplType, type Field } from './types';

export interface PlanContext {
  startMs: number;
  endMs: number;
  nowMs: number;
  /** Schema of a dataset (sorted, including `_time`/`_sysTime`); throws not_found for unknown datasets. */
  datasetSchema: (name: string, span: SourceSpan) => Field[];
  /** When true, unknown fields are typed `dynamic` instead of rejected (static validation without schemas). */
  lenientFields?: boolean;
  /**
   * Checks a constant regular expression with the engine that will run it (RE2 in query-exec): returns
   * why it does not compile, or null. Lets the planner reject a bad pattern with its span before execution.
   */
  checkRegex?: (pattern: string) => string | null;
  defaultLimit?: number;
  /**
   * Virtual fields of a dataset (already parsed by the caller, or the reason they do not parse). Each
   * behaves as `| extend name = expr` right after the dataset's scan; a stored field of the same name wins.
   */
  virtualFields?: (dataset: string) => ReadonlyArray<VirtualFieldDefinition>;
  /**
   * The values of `x in (T | ...)` subqueries, computed by the caller before planning (absent: empty
   * lists, enough for static validation and explain).
   */
  subqueryValues?: (subquery: TabularExpr) => unknown[];
  /** Every dataset name, for patterns such as `union logs*` (absent: patterns match nothing). */
  datasetNames?: readonly string[];
}

/** Names matching a dataset pattern where `*` stands for any text (case-sensitive), sorted. */
export function matchDatasetPattern(pattern: string, names: readonly string[]): string[] {
  const re = new RegExp('^' + pattern.split('*').map(escapeRegExp).join('.*') + '$');
  return names.filter((n) => re.test(n)).sort();
}

/** A virtual field as the binder receives it: its parsed expression, or why its text does not parse. */
export type VirtualFieldDefinition = { name: string; expr: Expr } | { name: string; error: string };

export interface BuiltPlan {
  root: PlanNode;
  datasets: string[];
  /** The final table is the result of an aggregation. */
  aggregated: boolean;
}

const ARITH_OPS = new Set(['+', '-', '*', '/', '%']);
/** Rows a `range` may produce (they are planned as inline values). */
const MAX_RANGE_ROWS = 100_000;
const COMPARE_OPS = new Set(['==', '!=', '<', '<=', '>', '>=', '=~', '!~']);
const TIME_FIELD = '_time';
/** Functions that take a regular expression, and the position of that argument. */
const REGEX_ARGUMENT = new Map<string, number>([
  ['extract', 0],
  ['extract_all', 0],
  ['replace_regex', 0],
  ['trim_regex', 0],
  ['trim_start_regex', 0],
  ['trim_end_regex', 0],
  ['countof_regex', 0],
  ['indexof_regex', 1],
]);

export function buildPlan(query: Query, ctx: PlanContext): BuiltPlan {
  return new PlanBuilder(ctx).build(query);
}

class PlanBuilder {
  private readonly scalarLets = new Map<string, PExpr>();
  private readonly tableLets = new Map<string, PlanNode>();
  private readonly datasets: string[] = [];
  /** `set stricttypes;`: implicit coercions are type errors (strict-types.ts). */
  private strictTypes = false;
  /** >0 while binding a virtual field's expression (see bindIsolated). */
  private isolated = 0;
  /** User-defined functions in scope (`let f = (x: long) { ... };`). */
  private readonly functions = new Map<string, FunctionDefinition>();
  /** The user-defined functions being expanded (recursion is an error, as in Kusto). */
  private readonly expanding: string[] = [];
  /** Names of the hidden columns window functions are computed into. */
  private windowColumns = 0;

  constructor(private readonly ctx: PlanContext) {}

  build(query: Query): BuiltPlan {
    for (const st of query.statements) this.applyStatement(st);
    const raw = this.buildTabular(query.body);
    const finalized = finalizeResult(raw, this.ctx.defaultLimit ?? 1000);
    return { root: finalized, datasets: this.datasets, aggregated: isAggregated(finalized) };
  }

  private applyStatement(st: Statement): void {
    if (st.kind === 'set' && st.name === 'stricttypes') this.strictTypes = isTrueOption(st.value);
    if (st.kind === 'let-scalar')
      this.define(st.name, () => this.scalarLets.set(st.name, this.bindExpr(st.expr, [])));
    else if (st.kind === 'let-tabular')
      this.define(st.name, () => this.tableLets.set(st.name, this.buildTabular(st.query)));
    else if (st.kind === 'let-function')
      this.define(st.definition.name, () => this.functions.set(st.definition.name, st.definition));
  }

  /** A `let` hides an earlier binding of the same name of any kind (innermost wins). */
  private define(name: string, bind: () => void): void {
    this.scalarLets.delete(name);
    this.tableLets.delete(name);
    this.functions.delete(name);
    bind();
  }

  // ---- user-defined functions ----

  /**
   * Runs `body` in a function's scope: its parameters bound to the call's arguments (as scalar lets),
   * then its own `let` statements; every binding of the caller comes back afterwards.
   */
  private inFunctionScope<T>(
    definition: FunctionDefinition,
    args: PExpr[],
    span: SourceSpan,
    body: () => T,
  ): T {
    if (this.expanding.includes(definition.name)) {
      throw aplError(
        'apl_invalid_argument',
        { name: definition.name, reason: 'a user-defined function cannot call itself' },
        span,
      );
    }
    const scalars = new Map(this.scalarLets);
    const tables = new Map(this.tableLets);
    const functions = new Map(this.functions);
    this.expanding.push(definition.name);
    try {
      definition.params.forEach((p, i) => this.define(p.name, () => this.scalarLets.set(p.name, args[i])));
      for (const st of definition.statements) this.applyStatement(st);
      return body();
    } finally {
      this.expanding.pop();
      this.scalarLets.clear();
      scalars.forEach((v, k) => this.scalarLets.set(k, v));
      this.tableLets.clear();
      tables.forEach((v, k) => this.tableLets.set(k, v));
      this.functions.clear();
      functions.forEach((v, k) => this.functions.set(k, v));
    }
  }

  /**
   * The arguments of a user-defined function call: each bound in the caller's row context and converted
   * to the parameter's type; a missing trailing argument takes the parameter's default (Kusto).
   */
  private functionArguments(
    definition: FunctionDefinition,
    argExprs: Expr[],
    fields: Field[],
    span: SourceSpan,
  ): PExpr[] {
    const params = definition.params;
    const required = params.filter((p) => !p.defaultValue).length;
    if (argExprs.length < required || argExprs.length > params.length) {
      throw aplError(
        'apl_wrong_arity',
        { name: definition.name, expected: arityText(required, params.length), got: argExprs.length },
        span,
      );
    }
    return params.map((p, i) => {
      const given = argExprs[i];
      const bound = given ? this.bindExpr(given, fields) : this.bindExpr(p.defaultValue!, []);
      if (bound.type === p.type || p.type === 'dynamic') return bound;
      if (bound.kind === 'lit' && bound.value === null) return lit(null, p.type);
      const convert = CONVERSION_OF_TYPE[p.type];
      if (bound.type === 'dynamic' || (isNumeric(bound.type) && isNumeric(p.type)))
        return convert ? call(convert, [bound], p.type) : bound;
      throw aplError(
        'apl_type_mismatch',
        { what: `argument '${p.name}' of '${definition.name}'`, expected: p.type, got: bound.type },
        (given ?? p.defaultValue!).span,
      );
    });
  }

  /** `f(args)` of a scalar user-defined function: its body bound with the parameters set (no columns). */
  private bindFunctionCall(definition: FunctionDefinition, e: CallExpr, fields: Field[]): PExpr {
    if (definition.result.kind !== 'scalar') {
      throw aplError(
        'apl_invalid_argument',
        { name: e.name, reason: 'a tabular function cannot be used as a scalar' },
        e.nameSpan,
      );
    }
    const result = definition.result.expr;
    const args = this.functionArguments(definition, e.args, fields, e.span);
    // A scalar function sees only its parameters and lets, not the caller's columns (Kusto).
    return this.inFunctionScope(definition, args, e.span, () => this.bindExpr(result, []));
  }

  /** A tabular user-defined function used as a source: its body built with the parameters set. */
  private buildInvocation(invoke: FunctionInvocation): PlanNode {
    const definition = invoke.definition;
    const result = definition.result;
    if (result.kind !== 'tabular') throw new Error('invocation of a scalar function');
    const args = this.functionArguments(definition, invoke.args, [], invoke.span);
    return this.inFunctionScope(definition, args, invoke.span, () => this.buildTabular(result.query));
  }

  /**
   * `toscalar(T)`: the first value of the first column of T (run by the caller before planning, see
   * PlanContext.subqueryValues); null when T has no rows.
   */
  private bindToscalar(subquery: TabularExpr): PExpr {
    const plan = this.buildTabular(subquery);
    const first = plan.schema[0];
    if (!first) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'toscalar', reason: 'the subquery has no columns' },
        subquery.span,
      );
    }
    const values = this.ctx.subqueryValues?.(subquery) ?? [];
    return lit(values.length > 0 ? values[0] : null, first.type);
  }

  // ---- window functions ----

  /**
   * Lifts the window calls of `exprs` into a window extend over `input` (innermost calls first, each a
   * hidden column) and returns the expressions rewritten to read those columns. The input must be
   * serialized (Kusto): sorted, a top, `serialize`d or inline rows.
   */
  private withWindows(input: PlanNode, exprs: Expr[]): { node: PlanNode; exprs: Expr[]; hidden: string[] } {
    const calls: { name: string; call: CallExpr }[] = [];
    const rewritten = exprs.map((e) =>
      liftWindows(e, (c) => {
        const name = `__window_${this.windowColumns++}`;
        calls.push({ name, call: c });
        return name;
      }),
    );
    if (calls.length === 0) return { node: input, exprs, hidden: [] };
    if (!isSerialized(input)) {
      throw aplError(
        'apl_invalid_argument',
        {
          name: calls[0].call.name,
          reason: 'window functions need serialized rows: add | serialize or | sort by ... before',
        },
        calls[0].call.nameSpan,
      );
    }
    let scope = input.schema;
    const items: NamedExpr[] = [];
    for (const { name, call: c } of calls) {
      const expr = this.bindWindowCall(c, scope);
      items.push({ name, expr });
      scope = [...scope, { name, type: expr.type }];
    }
    const node: PlanNode = { kind: 'extend', input, items, schema: scope, window: true };
    return { node, exprs: rewritten, hidden: calls.map((c) => c.name) };
  }

  private bindWindowCall(e: CallExpr, fields: Field[]): PExpr {
    const sig = WINDOW_SIGNATURES.get(e.name)!;
    if (e.args.length < sig.minArgs || e.args.length > sig.maxArgs) {
      throw aplError(
        'apl_wrong_arity',
        { name: e.name, expected: arityText(sig.minArgs, sig.maxArgs), got: e.args.length },
        e.span,
      );
    }
    const args = e.args.map((a) => this.bindExpr(a, fields));
    const isPrevNext = e.name === 'prev' || e.name === 'next';
    if (isPrevNext && args[1]) {
      const offset = this.constantOf(args[1], e.args[1].span, e.name);
      if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
        throw aplError(
          'apl_invalid_argument',
          { name: e.name, reason: 'the offset must be a non-negative integer constant' },
          e.args[1].span,
        );
    }
    if (e.name === 'row_cumsum' && !isNumeric(args[0].type) && args[0].type !== 'dynamic')
      throw aplError(
        'apl_type_mismatch',
        { what: 'argument 1 of row_cumsum', expected: 'long or real', got: args[0].type },
        e.args[0].span,
      );
    const restartAt = e.name === 'row_number' ? 1 : isPrevNext ? -1 : 1;
    if (restartAt >= 0 && args[restartAt] && !['bool', 'dynamic'].includes(args[restartAt].type))
      throw aplError(
        'apl_type_mismatch',
        { what: `restart argument of ${e.name}`, expected: 'bool', got: args[restartAt].type },
        e.args[restartAt].span,
      );
    return call(e.name, args, sig.returns(args.map((a) => a.type)));
  }

  /** `extend` with window calls: item by item, each over a window extend of the rows so far. */
  private buildWindowExtend(input: PlanNode, op: Extract<Operator, { kind: 'extend' }>): PlanNode {
    let node = input;
    const hidden: string[] = [];
    for (const item of op.items) {
      const lifted = this.withWindows(node, [item.expr]);
      hidden.push(...lifted.hidden);
      node = this.buildOperator(lifted.node, { ...op, items: [{ ...item, expr: lifted.exprs[0] }] });
    }
    return this.projectFields(
      node,
      node.schema.filter((f) => !hidden.includes(f.name)),
    );
  }

  /** `serialize [items]`: the input in a defined order (scan order when it has none), then the items. */
  private buildSerialize(input: PlanNode, op: Extract<Operator, { kind: 'serialize' }>): PlanNode {
    const serialized: PlanNode = isSerialized(input)
      ? input
      : { kind: 'limit', input, count: Number.MAX_SAFE_INTEGER, schema: input.schema, serialize: true };
    if (op.items.length === 0) return serialized;
    return this.buildOperator(serialized, { kind: 'extend', items: op.items, span: op.span });
  }

  // ---- tabular ----

  private buildTabular(t: TabularExpr): PlanNode {
    let node = this.buildSource(t.source);
    for (const op of t.operators) node = this.buildOperator(node, op);
    return node;
  }

  private buildSource(s: TabularSource): PlanNode {
    switch (s.kind) {
      case 'dataset': {
        const bound = this.tableLets.get(s.name);
        if (bound) return bound;
        const schema = this.ctx.datasetSchema(s.name, s.span);
        if (!this.datasets.includes(s.name)) this.datasets.push(s.name);
        const scan: PlanNode = {
          kind: 'scan',
          dataset: s.name,
          schema,
          startMs: this.ctx.startMs,
          endMs: this.ctx.endMs,
          columns: null,
          filter: null,
        };
        return this.withVirtualFields(scan, s.name, s.span);
      }
      case 'subquery':
        if (s.invoke) return this.buildInvocation(s.invoke);
        return this.buildTabular(s.query);
      case 'datatable': {
        const width = s.columns.length;
        if (s.values.length % width !== 0) {
          throw aplError(
            'apl_invalid_argument',
            { name: 'datatable', reason: `${s.values.length} values do not fill rows of ${width} columns` },
            s.span,
          );
        }
        const rows: PExpr[][] = [];
        for (let i = 0; i < s.values.length; i += width) {
          rows.push(s.columns.map((c, j) => this.datatableValue(s.values[i + j], c)));
        }
        return { kind: 'values', schema: s.columns.map((c) => ({ name: c.name, type: c.type })), rows };
      }
      case 'print': {
        const items = this.bindNamed(s.items, [], 'print');
        return {
          kind: 'values',
          schema: items.map((i) => ({ name: i.name, type: i.expr.type })),
          rows: [items.map((i) => i.expr)],
        };
      }
      case 'range':
        return this.buildRange(s);
      case 'union': {
        const tables = s.tables.flatMap((t) =>
          t.source.kind === 'dataset-pattern' && t.operators.length === 0
            ? this.expandPattern(t.source)
            : [t],
        );
        return this.buildUnion(
          tables.map((t) => this.buildTabular(t)),
          tables,
          s.withSource,
        );
      }
      case 'dataset-pattern': {
        const tables = this.expandPattern(s);
        return this.buildUnion(
          tables.map((t) => this.buildTabular(t)),
          tables,
        );
      }
    }
  }

  /**
   * `range x from A to B step S` (Kusto): constant bounds of one type (long, real, datetime with a timespan
   * step, timespan), the rows computed here as inline values; at most MAX_RANGE_ROWS of them.
   */
  private buildRange(s: Extract<TabularSource, { kind: 'range' }>): PlanNode {
    const from = this.bindExpr(s.from, []);
    const to = this.bindExpr(s.to, []);
    const step = this.bindExpr(s.step, []);
    const a = this.constantOf(from, s.from.span, 'range');
    const b = this.constantOf(to, s.to.span, 'range');
    const d = this.constantOf(step, s.step.span, 'range');
    const numeric = (t: AplType) => t === 'long' || t === 'real';
    const typesFit =
      (numeric(from.type) && numeric(to.type) && numeric(step.type)) ||
      (from.type === 'datetime' && to.type === 'datetime' && step.type === 'timespan') ||
      (from.type === 'timespan' && to.type === 'timespan' && step.type === 'timespan');
    if (!typesFit || typeof a !== 'number' || typeof b !== 'number' || typeof d !== 'number' || d === 0) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'range', reason: 'from, to and step must be constants of one type and step must not be 0' },
        s.span,
      );
    }
    const type: AplType =
      from.type === 'datetime' || from.type === 'timespan'
        ? from.type
        : from.type === 'real' || to.type === 'real' || step.type === 'real'
          ? 'real'
          : 'long';
    const count = Math.floor((b - a) / d) + 1;
    if (count > MAX_RANGE_ROWS) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'range', reason: `more than ${MAX_RANGE_ROWS} rows` },
        s.span,
      );
    }
    const rows: PExpr[][] = [];
    for (let i = 0; i < count; i++) rows.push([lit(a + i * d, type)]);
    return { kind: 'values', schema: [{ name: s.column, type }], rows };
  }

  /**
   * A `datatable` value of its column's declared type: a typed or bare null takes the column's type, a long
   * in a real column is widened, anything goes in a dynamic column; any other type is a mismatch (Kusto
   * rejects it too), so a column never holds values of another kind than it declares.
   */
  private datatableValue(e: Expr, column: { name: string; type: AplType }): PExpr {
    const v = this.bindExpr(e, []);
    if (v.type === column.type || column.type === 'dynamic') return v;
    if (v.kind === 'lit' && v.value === null) return lit(null, column.type);
    if (v.type === 'long' && column.type === 'real') return call('toreal', [v], 'real');
    throw aplError(
      'apl_type_mismatch',
      { what: `datatable column '${column.name}'`, expected: column.type, got: v.type },
      e.span,
    );
  }

  /**
   * The datasets a name pattern matches, in name order. Without a dataset list (static validation) the
   * pattern stands for one dataset; a pattern that matches nothing is a 404 like an unknown dataset.
   */
  private expandPattern(s: { pattern: string; span: SourceSpan }): TabularExpr[] {
    const names = this.ctx.datasetNames
      ? matchDatasetPattern(s.pattern, this.ctx.datasetNames)
      : this.ctx.lenientFields
        ? [s.pattern]
        : [];
    if (names.length === 0) {
      throw new QuarryError(
        'not_found',
        `no dataset matches '${s.pattern}' at ${s.span.line}:${s.span.column}`,
        {
          code: 'dataset_not_found',
          span: s.span,
          details: { pattern: s.pattern },
        },
      );
    }
    return names.map((name) => ({
      source: { kind: 'dataset' as const, name, span: s.span },
      operators: [],
      span: s.span,
    }));
  }

  /**
   * Adds the dataset's virtual fields as an extend over its scan. Expressions bind against the stored
   * fields only: an unknown stored field reads as null (a dataset may not have received it yet), query
   * `let`s are invisible, and a reference to another virtual field is rejected (so no cycles can form).
   */
  private withVirtualFields(scan: PlanNode, dataset: string, span: SourceSpan): PlanNode {
    const stored = new Set(scan.schema.map((f) => f.name));
    const defs: VirtualFieldDefinition[] = [];
    for (const d of this.ctx.virtualFields?.(dataset) ?? []) {
      if (!stored.has(d.name) && !defs.some((x) => x.name === d.name)) defs.push(d);
    }
    if (defs.length === 0) return scan;
    const virtualNames = new Set(defs.map((d) => d.name));
    const invalid = (name: string, reason: string) =>
      aplError('apl_virtual_field_invalid', { name, dataset, reason }, span);
    const items: NamedExpr[] = defs.map((d) => {
      if ('error' in d) throw invalid(d.name, d.error);
      let expr: PExpr;
      try {
        expr = this.bindIsolated(d.expr, scan.schema);
      } catch (err) {
        if (err instanceof QuarryError && err.kind === 'invalid') throw invalid(d.name, err.message);
        throw err;
      }
      for (const ref of columnsOf(expr)) {
        if (virtualNames.has(ref)) {
          throw invalid(
            d.name,
            `it refers to virtual field '${ref}'; virtual fields may only use stored fields`,
          );
        }
      }
      return { name: d.name, expr };
    });
    const schema = [...scan.schema, ...items.map((i) => ({ name: i.name, type: i.expr.type }))];
    return { kind: 'extend', input: scan, items, schema, virtual: true };
  }

  /** Binds an expression that is not part of the query text: lenient on fields, blind to `let`s. */
  private bindIsolated(e: Expr, fields: Field[]): PExpr {
    const saved = new Map(this.scalarLets);
    this.scalarLets.clear();
    this.isolated++;
    try {
      return this.bindExpr(e, fields);
    } finally {
      this.isolated--;
      for (const [k, v] of saved) this.scalarLets.set(k, v);
    }
  }

  private lenientFields(): boolean {
    return this.ctx.lenientFields === true || this.isolated > 0;
  }

  /**
   * `parse-kv`: a parse whose captures are the listed keys (ParseNode mode `kv`): each column is its key's
   * value converted to the key's type, null when the key is absent or the value does not convert.
   */
  private buildParseKv(input: PlanNode, op: Extract<Operator, { kind: 'parse-kv' }>): PlanNode {
    const source = this.bindExpr(op.source, input.schema);
    if (op.regex !== undefined) this.checkRegex(op.regex, op.span);
    const parts = op.keys.map((k) => ({ kind: 'capture' as const, name: k.name, type: k.type }));
    const schema = input.schema.filter((f) => !op.keys.some((k) => k.name === f.name));
    for (const k of op.keys) schema.push({ name: k.name, type: k.type });
    const kv: ParseKvOptions = {
      quote: op.quote,
      escape: op.escape ?? '',
      greedy: op.greedy,
      ...(op.pairDelimiter !== undefined ? { pairDelimiter: op.pairDelimiter } : {}),
      ...(op.kvDelimiter !== undefined ? { kvDelimiter: op.kvDelimiter } : {}),
      ...(op.regex !== undefined ? { regex: op.regex } : {}),
    };
    return { kind: 'parse', input, source, parts, mode: 'kv', kv, dropUnmatched: false, schema };
  }

  /** `redact`: every string column (or the `on` columns) with regex matches masked, in place. */
  private buildRedact(input: PlanNode, op: Extract<Operator, { kind: 'redact' }>): PlanNode {
    const fields = input.schema;
    for (const p of op.patterns) {
      const reason = this.ctx.checkRegex?.(p.pattern) ?? null;
      if (reason !== null) throw aplError('apl_invalid_regex', { pattern: p.pattern, reason }, p.span);
    }
    const targets = new Set<string>();
    if (op.on) {
      for (const c of op.on) {
        if (!hasField(fields, c.name) && !this.lenientFields())
          throw this.unknownField(c.name, fields, c.span);
        targets.add(c.name);
      }
    } else {
      for (const f of fields) if (f.type === 'string') targets.add(f.name);
    }
    const args = [lit(op.replaceToken, 'string'), lit(op.redactGroups, 'bool')];
    const patterns = op.patterns.map((p) => lit(p.pattern, 'string'));
    const items = fields.map((f) => ({
      name: f.name,
      expr: targets.has(f.name)
        ? call('redact_text', [col(f.name, f.type), ...args, ...patterns], f.type)
        : col(f.name, f.type),
    }));
    return { kind: 'project', input, items, schema: fields.map((f) => ({ ...f })) };
  }

  private buildUnion(inputs: PlanNode[], exprs: TabularExpr[], withSource?: string): PlanNode {
    const schema: Field[] = [];
    if (withSource) schema.push({ name: withSource, type: 'string' });
    for (const input of inputs) {
      for (const f of input.schema) {
        const existing = schema.find((x) => x.name === f.name);
        if (existing) existing.type = unifyTypes(existing.type, f.type);
        else schema.push({ ...f });
      }
    }
    const sourceNames = exprs.map((e) => (e.source.kind === 'dataset' ? e.source.name : 'union'));
    return { kind: 'union', inputs, sourceNames, withSource, schema };
  }

  private buildOperator(input: PlanNode, op: Operator): PlanNode {
    const fields = input.schema;
    if (operatorHasWindows(op)) return this.buildWithWindows(input, op);
    switch (op.kind) {
      case 'serialize':
        return this.buildSerialize(input, op);
      case 'where':
        return { kind: 'filter', input, predicate: this.bindPredicate(op.predicate, fields), schema: fields };
      case 'search': {
        const predicate = this.bindSearch(op.predicate, fields, op.caseSensitive);
        return {
          kind: 'filter',
          input,
          predicate: op.caseSensitive ? caseSensitiveMatches(predicate) : predicate,
          schema: fields,
        };
      }
      case 'sample': {
        const f = this.constantNumber(op.fraction, fields, 'sample');
        return {
          kind: 'filter',
          input,
          predicate: call('<', [call('rand', [], 'real'), lit(f, 'real')], 'bool'),
          schema: fields,
        };
      }
      case 'extend': {
        // Items are bound left to right: a later item may use an earlier one (Kusto).
        let items = this.bindNamed(op.items, fields, 'extend', true);
        if (op.valid) items = keepOnlyValid(items, fields);
        const schema = fields.filter((f) => !items.some((i) => i.name === f.name));
        items.forEach((item, idx) => {
          if (items.slice(idx + 1).some((later) => later.name === item.name)) return;
          schema.push({ name: item.name, type: item.expr.type });
        });
        return { kind: 'extend', input, items, schema };
      }
      case 'parse-kv':
        return this.buildParseKv(input, op);
      case 'redact':
        return this.buildRedact(input, op);
      case 'project': {
        const items = this.bindNamed(op.items, fields, 'project');
        return {
          kind: 'project',
          input,
          items,
          schema: items.map((i) => ({ name: i.name, type: i.expr.type })),
        };
      }
      case 'project-away': {
        const drop = this.matchPatterns(op.patterns, fields);
        return this.projectFields(
          input,
          fields.filter((f) => !drop.has(f.name)),
        );
      }
      case 'project-keep': {
        const keep = this.matchPatterns(op.patterns, fields);
        return this.projectFields(
          input,
          fields.filter((f) => keep.has(f.name)),
        );
      }
      case 'project-reorder': {
        // Listed (or matched) columns first, in listed order; a wildcard's matches in input order, or
        // sorted by name (`asc` / `desc`, `granny-*`: digit runs compared as numbers).
        const first: Field[] = [];
        for (const p of op.patterns) {
          const names = [...this.matchPatterns([p], fields)];
          if (p.order) {
            const cmp = p.order.startsWith('granny') ? naturalCompare : codePointCompare;
            names.sort((a, b) => (p.order!.endsWith('desc') ? cmp(b, a) : cmp(a, b)));
          }
          for (const name of names) {
            const f = fields.find((x) => x.name === name)!;
            if (!first.includes(f)) first.push(f);
          }
        }
        return this.projectFields(input, [...first, ...fields.filter((f) => !first.includes(f))]);
      }
      case 'project-rename': {
        const renames = new Map<string, string>();
        for (const r of op.items) {
          if (!hasField(fields, r.from) && !this.lenientFields())
            throw this.unknownField(r.from, fields, r.span);
          renames.set(r.from, r.name);
        }
        const items = fields.map((f) => ({ name: renames.get(f.name) ?? f.name, expr: col(f.name, f.type) }));
        return {
          kind: 'project',
          input,
          items,
          schema: items.map((i) => ({ name: i.name, type: i.expr.type })),
        };
      }
      case 'summarize':
        return this.buildSummarize(input, op.aggs, op.by, op.span);
      case 'make-series':
        return this.buildMakeSeries(input, op);
      case 'count':
        return {
          kind: 'aggregate',
          input,
          keys: [],
          aggs: [
            {
              fn: 'count',
              args: [],
              predicate: null,
              outputs: [{ name: 'count', type: 'long' }],
              params: [],
            },
          ],
          schema: [{ name: 'count', type: 'long' }],
        };
      case 'take':
        return { kind: 'limit', input, count: this.constantCount(op.count, fields, 'take'), schema: fields };
      case 'sort':
        return { kind: 'sort', input, keys: this.bindSortKeys(op.keys, fields), schema: fields };
      case 'top':
        return {
          kind: 'top',
          input,
          count: this.constantCount(op.count, fields, 'top'),
          keys: this.bindSortKeys(op.keys, fields),
          schema: fields,
        };
      case 'distinct': {
        let keys: NamedExpr[];
        if (op.items.length === 1 && op.items[0].kind === 'star')
          keys = fields.map((f) => ({ name: f.name, expr: col(f.name, f.type) }));
        else
          keys = this.bindNamed(
            op.items.map((e) => ({ expr: e, span: e.span })),
            fields,
            'distinct',
          );
        return {
          kind: 'aggregate',
          input,
          keys,
          aggs: [],
          schema: keys.map((k) => ({ name: k.name, type: k.expr.type })),
        };
      }
      case 'getschema': {
        const rows = fields.map((f, i) => [
          lit(f.name, 'string'),
          lit(i, 'long'),
          lit(f.type, 'string'),
          lit(wireName(f.type), 'string'),
        ]);
        return {
          kind: 'values',
          schema: [
            { name: 'ColumnName', type: 'string' },
            { name: 'ColumnOrdinal', type: 'long' },
            { name: 'DataType', type: 'string' },
            { name: 'ColumnType', type: 'string' },
          ],
          rows,
        };
      }
      case 'mv-expand': {
        let schema = [...fields];
        const items = op.items.map((item) => {
          const expr = this.bindExpr(item.expr, fields);
          const column = item.name ?? (expr.kind === 'col' ? expr.name : undefined);
          if (!column)
            throw aplError(
              'apl_invalid_argument',
              { name: 'mv-expand', reason: 'the expanded expression needs a name' },
              item.expr.span,
            );
          const pos = schema.findIndex((f) => f.name === column);
          schema = schema.filter((f) => f.name !== column);
          schema.splice(pos < 0 ? schema.length : pos, 0, { name: column, type: item.toType ?? 'dynamic' });
          return { column, expr, toType: item.toType };
        });
        if (op.itemIndex)
          schema = [...schema.filter((f) => f.name !== op.itemIndex), { name: op.itemIndex, type: 'long' }];
        return {
          kind: 'mv-expand',
          input,
          items,
          itemIndex: op.itemIndex,
          limit: op.limit,
          bagExpansion: op.bagExpansion,
          schema,
        };
      }
      case 'parse': {
        const source = this.bindExpr(op.source, fields);
        if (op.mode === 'regex') {
          // The same pattern query-exec compiles for `parse kind=regex`.
          const pattern =
            (op.flags ? `(?${op.flags})` : '') +
            op.parts.map((p) => (p.kind === 'const' ? p.text : p.kind === 'skip' ? '.*' : '(.*)')).join('');
          this.checkRegex(pattern + (op.parts[op.parts.length - 1]?.kind === 'capture' ? '$' : ''), op.span);
        }
        const captures = op.parts.filter(
          (p): p is { kind: 'capture'; name: string; type: AplType } => p.kind === 'capture',
        );
        const schema = fields.filter((f) => !captures.some((c) => c.name === f.name));
        for (const c of captures) schema.push({ name: c.name, type: c.type });
        return {
          kind: 'parse',
          input,
          source,
          parts: op.parts,
          mode: op.mode,
          ...(op.flags ? { flags: op.flags } : {}),
          dropUnmatched: op.dropUnmatched,
          schema,
        };
      }
      case 'join':
      case 'lookup': {
        const right = this.buildTabular(op.right);
        for (const c of op.on) {
          // Static validation (lenient) has no schemas: the keys may exist at run time.
          if (this.lenientFields()) continue;
          if (!hasField(fields, c.left)) throw this.unknownField(c.left, fields, c.leftSpan ?? c.span);
          if (!hasField(right.schema, c.right))
            throw this.unknownField(c.right, right.schema, c.rightSpan ?? c.span);
        }
        const on = op.on.map((c) => ({ left: c.left, right: c.right }));
        const joinKind = op.joinKind;
        // Semi and anti joins keep one side's rows and columns only (Kusto).
        if (['leftsemi', 'leftanti', 'semi', 'anti'].includes(joinKind)) {
          const rightNames = right.schema.map(() => null);
          return { kind: 'join', left: input, right, joinKind, on, rightNames, schema: [...fields] };
        }
        if (joinKind === 'rightsemi' || joinKind === 'rightanti') {
          const rightNames = right.schema.map((f) => f.name);
          return { kind: 'join', left: input, right, joinKind, on, rightNames, schema: [...right.schema] };
        }
        const schema = [...fields];
        const rightNames: (string | null)[] = [];
        for (const f of right.schema) {
          // `lookup` drops the right side's keys; `join` keeps them, renamed on a clash (`Key1`, Kusto).
          const isKey = op.kind === 'lookup' && op.on.some((c) => c.right === f.name);
          if (isKey) {
            rightNames.push(null);
            continue;
          }
          let name = f.name;
          for (let n = 1; hasField(schema, name); n++) name = `${f.name}${n}`;
          rightNames.push(name);
          schema.push({ name, type: f.type });
        }
        return {
          kind: 'join',
          left: input,
          right,
          joinKind,
          on,
          rightNames,
          schema,
        };
      }
      case 'union': {
        const others = op.tables.map((t) => this.buildTabular(t));
        return this.buildUnion(
          [input, ...others],
          [
            { source: { kind: 'dataset', name: 'input', span: op.span }, operators: [], span: op.span },
            ...op.tables,
          ],
          op.withSource,
        );
      }
    }
  }

  /** `extend`, `project` and `where` whose expressions call window functions. */
  private buildWithWindows(input: PlanNode, op: Operator): PlanNode {
    if (op.kind === 'extend') return this.buildWindowExtend(input, op);
    if (op.kind === 'project') {
      const lifted = this.withWindows(
        input,
        op.items.map((i) => i.expr),
      );
      const items = op.items.map((item, i) => ({
        ...item,
        // `project prev(a)` keeps Kusto's implicit name of the call, not the hidden column's.
        name:
          item.name ?? (item.expr.kind === 'call' && !item.names ? windowImplicitName(item.expr) : undefined),
        expr: lifted.exprs[i],
      }));
      return this.buildOperator(lifted.node, { ...op, items });
    }
    if (op.kind === 'where') {
      const lifted = this.withWindows(input, [op.predicate]);
      const filtered = this.buildOperator(lifted.node, { ...op, predicate: lifted.exprs[0] });
      return this.projectFields(
        filtered,
        filtered.schema.filter((f) => !lifted.hidden.includes(f.name)),
      );
    }
    if (op.kind === 'serialize') {
      const serialized = this.buildSerialize(input, { ...op, items: [] });
      return this.buildWindowExtend(serialized, { kind: 'extend', items: op.items, span: op.span });
    }
    throw aplError(
      'apl_invalid_argument',
      { name: op.kind, reason: 'window functions are allowed in extend, project, where and serialize only' },
      op.span,
    );
  }

  private projectFields(input: PlanNode, keep: Field[]): PlanNode {
    const items = keep.map((f) => ({ name: f.name, expr: col(f.name, f.type) }));
    return { kind: 'project', input, items, schema: keep.map((f) => ({ ...f })) };
  }

  private matchPatterns(patterns: NamePattern[], fields: Field[]): Set<string> {
    const out = new Set<string>();
    for (const p of patterns) {
      if (!p.wildcard) {
        if (!hasField(fields, p.pattern)) {
          if (this.lenientFields()) continue; // static validation: the column may exist at run time
          throw this.unknownField(p.pattern, fields, p.span);
        }
        out.add(p.pattern);
        continue;
      }
      const re = new RegExp('^' + p.pattern.split('*').map(escapeRegExp).join('.*') + '$');
      for (const f of fields) if (re.test(f.name)) out.add(f.name);
    }
    return out;
  }

  private buildSummarize(
    input: PlanNode,
    aggItems: Assignment[],
    byItems: Assignment[],
    span: SourceSpan,
  ): PlanNode {
    const fields = input.schema;
    const keys = this.bindNamed(byItems, fields, 'by');
    const aggs: AggregateCall[] = [];
    const used = new Set(keys.map((k) => k.name));
    const uniqueName = (base: string) => {
      let name = base;
      for (let n = 1; used.has(name); n++) name = `${base}${n}`;
      used.add(name);
      return name;
    };
    const isUsed = (name: string) => used.has(name);
    // Items that wrap aggregates in scalar expressions (`round(avg(x), 2)`) become hidden aggregates
    // plus an extend over the aggregated rows (Kusto; apl.md §7 marks this UNSURE for Axiom).
    const computed: { name: string; expr: Expr }[] = [];
    const order: string[] = keys.map((k) => k.name);
    let generated = 0;
    for (const item of aggItems) {
      const e = item.expr;
      const isAggregateCall = e.kind === 'call' && AGGREGATE_SIGNATURES.has(e.name);
      if (!isAggregateCall && containsAggregate(e)) {
        const lift = (x: Expr): Expr =>
          liftAggregates(x, (call) => {
            const bound = this.bindAggregate(
              { name: '__agg', expr: call, span: call.span },
              fields,
              uniqueName,
              isUsed,
            );
            aggs.push(bound);
            return bound.outputs[0].name;
          });
        const rewritten = lift(e);
        const name = item.name ?? uniqueName(`Column${++generated}`);
        if (item.name) used.add(name);
        computed.push({ name, expr: rewritten });
        order.push(name);
        continue;
      }
      const call = this.bindAggregate(item, fields, uniqueName, isUsed);
      aggs.push(call);
      order.push(...call.outputs.map((o) => o.name));
    }
    if (aggs.length === 0 && keys.length === 0) {
      throw aplError('apl_expected_aggregate', {}, span);
    }
    if (computed.length > 0) {
      const aggNode = this.buildAggregateNode(input, keys, aggs);
      const items = computed.map((c) => ({ name: c.name, expr: this.bindExpr(c.expr, aggNode.schema) }));
      const extSchema = [...aggNode.schema, ...items.map((i) => ({ name: i.name, type: i.expr.type }))];
      const ext: PlanNode = { kind: 'extend', input: aggNode, items, schema: extSchema };
      const projected = order.map((name) => ({
        name,
        expr: col(name, extSchema.find((f) => f.name === name)!.type),
      }));
      return {
        kind: 'project',
        input: ext,
        items: projected,
        schema: projected.map((p) => ({ name: p.name, type: p.expr.type })),
      };
    }
    return this.buildAggregateNode(input, keys, aggs);
  }

  private buildMakeSeries(input: PlanNode, op: Extract<Operator, { kind: 'make-series' }>): PlanNode {
    const fields = input.schema;
    const keys = this.bindNamed(op.by, fields, 'by');
    const used = new Set(keys.map((k) => k.name));
    const uniqueName = (base: string) => {
      let name = base;
      for (let n = 1; used.has(name); n++) name = `${base}${n}`;
      used.add(name);
      return name;
    };
    const aggs = op.aggs.map((a) => this.bindAggregate(a.item, fields, uniqueName, (n) => used.has(n)));
    const defaults = op.aggs.map((a) =>
      a.defaultValue
        ? this.constantOf(this.bindExpr(a.defaultValue, []), a.defaultValue.span, 'make-series')
        : 0,
    );
    const time = this.bindExpr(op.on, fields);
    const timeName = time.kind === 'col' ? time.name : uniqueName('time');
    const stepMs = this.constantNumber(op.step, fields, 'make-series step');
    if (!(stepMs > 0))
      throw aplError(
        'apl_invalid_argument',
        { name: 'make-series', reason: 'step must be positive' },
        op.step.span,
      );
    const bound = (e: Expr | undefined): number | null => {
      if (!e) return null;
      const v = this.constantOf(this.bindExpr(e, []), e.span, 'make-series');
      if (typeof v !== 'number')
        throw aplError(
          'apl_invalid_argument',
          { name: 'make-series', reason: 'expected a datetime or number' },
          e.span,
        );
      return v;
    };
    const schema: Field[] = [
      ...keys.map((k) => ({ name: k.name, type: k.expr.type })),
      ...aggs.map((a) => ({ name: a.outputs[0].name, type: 'dynamic' as const })),
      { name: timeName, type: 'dynamic' },
    ];
    return {
      kind: 'make-series',
      input,
      keys,
      // rate(x) in make-series: per second of one step.
      aggs: aggs.map((a) => (a.fn === 'rate' ? { ...a, periodMs: stepMs } : a)),
      defaults,
      time,
      timeName,
      stepMs,
      startMs: bound(op.from),
      endMs: bound(op.to),
      ...(op.nonempty ? { nonempty: true as const } : {}),
      schema,
    };
  }

  private buildAggregateNode(input: PlanNode, keys: NamedExpr[], aggs: AggregateCall[]): AggregateNode {
    const schema: Field[] = [
      ...keys.map((k) => ({ name: k.name, type: k.expr.type })),
      ...aggs.flatMap((a) => a.outputs),
    ];
    let timeBucketMs: number | undefined;
    const first = keys[0]?.expr;
    if (
      first &&
      first.kind === 'call' &&
      first.fn === 'bin' &&
      first.args[0].kind === 'col' &&
      first.args[0].name === TIME_FIELD &&
      first.args[1].kind === 'lit'
    ) {
      timeBucketMs = first.args[1].value as number;
    }
    if (aggs.some((a) => a.fn === 'rate')) {
      // rate(x) divides by the bucket of a `bin(_time, …)` key, else by the query window.
      const bucketKey = keys.find(
        (k) =>
          k.expr.kind === 'call' &&
          k.expr.fn === 'bin' &&
          k.expr.args[0].kind === 'col' &&
          k.expr.args[0].name === TIME_FIELD &&
          k.expr.args[1].kind === 'lit',
      );
      const bucket =
        bucketKey?.expr.kind === 'call' ? (bucketKey.expr.args[1] as { value: unknown }).value : null;
      const periodMs = typeof bucket === 'number' ? bucket : this.ctx.endMs - this.ctx.startMs;
      aggs = aggs.map((a) => (a.fn === 'rate' ? { ...a, periodMs } : a));
    }
    return { kind: 'aggregate', input, keys, aggs, schema, timeBucketMs };
  }

  private bindAggregate(
    item: Assignment,
    fields: Field[],
    uniqueName: (base: string) => string,
    isUsed: (name: string) => boolean,
  ): AggregateCall {
    const e = item.expr;
    if (e.kind === 'call' && e.name === 'spotlight') {
      throw aplError(
        'apl_unsupported',
        { what: 'spotlight (its statistics and output are not specified)' },
        e.nameSpan,
      );
    }
    if (e.kind !== 'call' || !AGGREGATE_SIGNATURES.has(e.name)) {
      if (e.kind === 'call' && !SCALAR_SIGNATURES.has(e.name))
        throw this.unknownFunction(e.name, e.nameSpan, true);
      throw aplError('apl_expected_aggregate', {}, e.span);
    }
    const sig = AGGREGATE_SIGNATURES.get(e.name)!;
    if (e.args.length < sig.minArgs || e.args.length > sig.maxArgs) {
      throw aplError(
        'apl_wrong_arity',
        { name: e.name, expected: arityText(sig.minArgs, sig.maxArgs), got: e.args.length },
        e.span,
      );
    }
    // `*` is an argument only of `count(*)` and of the extra columns of `arg_max`/`arg_min` (`arg_max(x, *)`).
    e.args.forEach((a, i) => {
      if (a.kind !== 'star') return;
      const allowed =
        (sig.name === 'count' && e.args.length === 1) ||
        (sig.name === 'presence' && e.args.length === 1) ||
        ((sig.name === 'arg_max' || sig.name === 'arg_min') && i > 0);
      if (!allowed)
        throw aplError('apl_invalid_argument', { name: e.name, reason: "'*' is not allowed here" }, a.span);
    });
    const argExprs = e.args.filter((a) => a.kind !== 'star');
    const bound = argExprs.map((a) => this.bindExpr(a, fields));
    this.checkArgumentTypes(
      e.name,
      aggregateArgumentError(
        e.name,
        bound.map((b) => b.type),
      ),
      argExprs,
    );
    let predicate: PExpr | null = null;
    let values = bound;
    if (sig.predicateIndex !== undefined) {
      predicate = bound[sig.predicateIndex];
      values = bound.filter((_, i) => i !== sig.predicateIndex);
    }
    const argName = (x: PExpr | undefined) => (x && x.kind === 'col' ? x.name : '');
    const type = sig.returns(values.map((v) => v.type));
    const params: unknown[] = [];
    let valueArgs = values;
    switch (sig.name) {
      case 'percentile':
      case 'percentileif':
      case 'percentiles_array':
      case 'percentiles_arrayif': {
        valueArgs = values.slice(0, 1);
        for (const p of values.slice(1)) {
          if (p.kind === 'lit' && Array.isArray(p.value)) params.push(...(p.value as unknown[]));
          else params.push(this.constantOf(p, e.span, sig.name));
        }
        for (const p of params) {
          if (typeof p !== 'number' || !(p >= 0 && p <= 100))
            throw aplError(
              'apl_invalid_argument',
              {
                name: sig.name,
                reason: `a percentile must be a number from 0 to 100, not ${JSON.stringify(p)}`,
              },
              e.span,
            );
        }
        break;
      }
      case 'dcount':
      case 'dcountif':
      case 'make_list':
      case 'make_list_if':
      case 'make_set':
      case 'make_set_if':
        valueArgs = values.slice(0, 1);
        for (const p of values.slice(1)) params.push(this.constantOf(p, e.span, sig.name));
        // The size cap of make_list / make_set (dcount's accuracy level is accepted and ignored).
        if (sig.name.startsWith('make_') && params.length > 0) {
          const cap = params[0];
          if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1)
            throw aplError(
              'apl_invalid_argument',
              { name: sig.name, reason: 'the maximum size must be a positive integer' },
              e.span,
            );
        }
        break;
      case 'make_bag':
        valueArgs = values.slice(0, 1);
        for (const p of values.slice(1)) params.push(this.constantOf(p, e.span, sig.name));
        break;
      case 'presence': {
        // `presence(*)`: every input column except the group keys.
        const star = e.args.length === 1 && e.args[0].kind === 'star';
        valueArgs = star ? fields.filter((f) => !isUsed(f.name)).map((f) => col(f.name, f.type)) : values;
        valueArgs.forEach((v, i) => {
          if (v.kind !== 'col')
            throw aplError(
              'apl_invalid_argument',
              { name: 'presence', reason: 'arguments must be columns' },
              e.args[i].span,
            );
          params.push(v.name);
        });
        break;
      }
      case 'phrases':
      case 'topk':
      case 'topkif':
      case 'histogram':
      case 'histogramif': {
        // `topk(x, k)` / `histogram(x, nbins)`: a positive integer constant (histogram bins capped at 10,000).
        valueArgs = values.slice(0, 1);
        const v = this.constantOf(values[1], e.span, sig.name);
        const limit = sig.name.startsWith('histogram') ? 10_000 : Number.MAX_SAFE_INTEGER;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > limit)
          throw aplError(
            'apl_invalid_argument',
            { name: sig.name, reason: `expected an integer between 1 and ${limit}` },
            e.span,
          );
        params.push(v);
        break;
      }
      default:
        break;
    }
    if (sig.name === 'arg_max' || sig.name === 'arg_min') {
      const outputs: Field[] = [];
      const target = values[0];
      outputs.push({ name: uniqueName(item.name ?? (argName(target) || `${sig.name}_`)), type: target.type });
      const extra = e.args.slice(1);
      let extraArgs: PExpr[] = values.slice(1);
      // `*` expands to every input column except the group keys (they are already in the output).
      if (extra.length === 1 && extra[0].kind === 'star') {
        extraArgs = fields.filter((f) => !isUsed(f.name)).map((f) => col(f.name, f.type));
      }
      extraArgs = extraArgs.filter(
        (x) => !(x.kind === 'col' && target.kind === 'col' && x.name === target.name),
      );
      for (const x of extraArgs) outputs.push({ name: uniqueName(argName(x) || 'Column'), type: x.type });
      return { fn: sig.name, args: [target, ...extraArgs], predicate, outputs, params };
    }
    let base = item.name;
    if (!base) {
      if (sig.name === 'count' || sig.name === 'countif' || sig.name === 'presence') base = `${sig.name}_`;
      else if (sig.name === 'percentiles_array') base = `percentiles_${argName(valueArgs[0])}`;
      else base = `${sig.name}_${argName(valueArgs[0])}`;
      // Axiom names `percentile(x, p)` `percentile_x`; a second rank of the same field gets Kusto's `_p` suffix.
      if (sig.name === 'percentile' && isUsed(base)) base = `${base}_${String(params[0]).replace('.', '_')}`;
    }
    return { fn: sig.name, args: valueArgs, predicate, outputs: [{ name: uniqueName(base), type }], params };
  }

  private bindSortKeys(keys: SortKey[], fields: Field[]): SortKeySpec[] {
    return keys.map((k) => ({
      expr: this.bindExpr(k.expr, fields),
      desc: k.desc,
      nullsFirst: k.nullsFirst ?? !k.desc,
    }));
  }

  private constantCount(e: Expr, fields: Field[], what: string): number {
    const v = this.constantNumber(e, fields, what);
    if (!Number.isInteger(v) || v < 0)
      throw aplError(
        'apl_invalid_argument',
        { name: what, reason: 'expected a non-negative integer' },
        e.span,
      );
    return v;
  }

  private constantNumber(e: Expr, fields: Field[], what: string): number {
    const bound = this.bindExpr(e, fields);
    const v = this.constantOf(bound, e.span, what);
    if (typeof v !== 'number')
      throw aplError('apl_invalid_argument', { name: what, reason: 'expected a number' }, e.span);
    return v;
  }

  private constantOf(p: PExpr, span: SourceSpan, what: string): unknown {
    if (p.kind === 'lit') return p.value;
    const folded = constantTime(p);
    if (folded !== null) return folded;
    if (p.kind === 'call' && p.fn === 'neg' && p.args[0].kind === 'lit') return -(p.args[0].value as number);
    throw aplError('apl_invalid_argument', { name: what, reason: 'expected a constant' }, span);
  }

  // ---- naming ----

  private bindNamed(
    items: Assignment[],
    fields: Field[],
    context: 'print' | 'extend' | 'project' | 'by' | 'distinct',
    sequential = false,
  ): NamedExpr[] {
    const out: NamedExpr[] = [];
    let generated = 0;
    let scope = fields;
    for (const item of items) {
      const multi = multiColumnOf(item.expr);
      if (item.names && (!multi || context === 'by' || context === 'distinct')) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: context,
            reason: '(a, b, …) = names the columns of series_stats, series_fft or series_ifft only',
          },
          item.span,
        );
      }
      if (multi && context !== 'by' && context !== 'distinct') {
        // One call, several columns: each reads a key of the function's bag. Names: `(a, b) = f(x)`, else
        // `<name or f_x>_<key>` (series_stats_x_min, series_fft_y_real).
        const call0 = item.expr as Extract<Expr, { kind: 'call' }>;
        const args = call0.args.map((a) => this.bindExpr(a, scope));
        if (call0.name === 'series_stats' && args.length !== 1)
          throw aplError(
            'apl_wrong_arity',
            { name: call0.name, expected: '1', got: args.length },
            call0.span,
          );
        if (item.names && item.names.length !== multi.columns.length) {
          throw aplError(
            'apl_invalid_argument',
            {
              name: call0.name,
              reason: `it returns ${multi.columns.length} columns but ${item.names.length} names were given`,
            },
            item.span,
          );
        }
        const source = args[0];
        const prefix = item.name ?? `${call0.name}_${source.kind === 'col' ? source.name : ''}`;
        const bag = call(multi.bag, args, 'dynamic');
        multi.columns.forEach(({ key, type }, i) => {
          const stat = call('getprop', [bag, lit(key, 'string')], 'dynamic');
          const name = item.names ? item.names[i].name : `${prefix}_${key}`;
          const expr = type === 'dynamic' ? stat : call(type === 'long' ? 'tolong' : 'toreal', [stat], type);
          if (sequential) scope = [...scope.filter((f) => f.name !== name), { name, type }];
          else {
            const existing = out.findIndex((o) => o.name === name);
            if (existing >= 0) out.splice(existing, 1);
          }
          out.push({ name, expr });
        });
        continue;
      }
      const expr = this.bindExpr(item.expr, scope);
      let name = item.name;
      if (!name) name = implicitName(expr, context);
      if (!name) name = context === 'print' ? `print_${generated++}` : `Column${++generated}`;
      if (sequential) {
        const bound = name;
        scope = [...scope.filter((f) => f.name !== bound), { name: bound, type: expr.type }];
      } else {
        const existing = out.findIndex((o) => o.name === name);
        if (existing >= 0) out.splice(existing, 1);
      }
      out.push({ name, expr });
    }
    return out;
  }

  // ---- scalar expressions ----

  private bindPredicate(e: Expr, fields: Field[]): PExpr {
    const p = this.bindExpr(e, fields);
    if (p.type !== 'bool' && p.type !== 'dynamic') {
      throw aplError('apl_type_mismatch', { what: 'where predicate', expected: 'bool', got: p.type }, e.span);
    }
    return p;
  }

  /**
   * `search` predicates (apl.md §7 search): a bare string term applies to every field's text, `Field:"x"`
   * to one field; `and` / `or` / `not` combine terms; anything else is an ordinary predicate.
   */
  private bindSearch(e: Expr, fields: Field[], caseSensitive: boolean): PExpr {
    if (e.kind === 'star') return lit(true, 'bool');
    if (e.kind === 'literal' && typeof e.value === 'string') {
      return searchTerm({ kind: 'row', type: 'string' }, e.value, caseSensitive);
    }
    if (e.kind === 'binary' && e.op === ':') {
      const target = this.bindExpr(e.left, fields);
      const term = e.right;
      if (term.kind !== 'literal' || (typeof term.value !== 'string' && typeof term.value !== 'number')) {
        throw aplError(
          'apl_invalid_argument',
          { name: 'search', reason: "the term after 'Field:' must be a string or number literal" },
          term.span,
        );
      }
      return searchTerm(target, String(term.value), caseSensitive);
    }
    if (e.kind === 'binary' && (e.op === 'and' || e.op === 'or')) {
      return call(
        e.op,
        [this.bindSearch(e.left, fields, caseSensitive), this.bindSearch(e.right, fields, caseSensitive)],
        'bool',
      );
    }
    if (e.kind === 'call' && e.name === 'not' && e.args.length === 1) {
      return call('not', [this.bindSearch(e.args[0], fields, caseSensitive)], 'bool');
    }
    return this.bindPredicate(e, fields);
  }

  bindExpr(e: Expr, fields: Field[]): PExpr {
    switch (e.kind) {
      case 'literal':
        return lit(e.value, e.type);
      case 'name':
        return this.bindName(e.name, fields, e.span);
      case 'member': {
        const dotted = dottedName(e);
        if (dotted !== null && hasField(fields, dotted)) return col(dotted, fieldType(fields, dotted));
        if (dotted !== null && this.lenientFields() && !this.rootResolves(e, fields))
          return col(dotted, 'dynamic');
        return call('getprop', [this.bindExpr(e.target, fields), lit(e.name, 'string')], 'dynamic');
      }
      case 'index': {
        // `['geo']['city']` on a flattened dataset addresses the field `geo.city` when `geo` is not a column.
        const base = dottedName(e.target);
        if (
          base !== null &&
          !hasField(fields, base) &&
          e.index.kind === 'literal' &&
          typeof e.index.value === 'string'
        ) {
          const flat = `${base}.${e.index.value}`;
          if (hasField(fields, flat)) return col(flat, fieldType(fields, flat));
        }
        return call('index', [this.bindExpr(e.target, fields), this.bindExpr(e.index, fields)], 'dynamic');
      }
      case 'star':
        return { kind: 'row', type: 'string' };
      case 'typeof':
        return lit({ typeof: e.type }, e.type);
      case 'unary': {
        const operand = this.bindExpr(e.operand, fields);
        if (
          operand.type !== 'long' &&
          operand.type !== 'real' &&
          operand.type !== 'timespan' &&
          operand.type !== 'dynamic'
        ) {
          throw aplError(
            'apl_type_mismatch',
            { what: "operand of unary '-'", expected: 'a number or timespan', got: operand.type },
            e.span,
          );
        }
        return call('neg', [operand], operand.type);
      }
      case 'binary':
        if (e.op === ':') {
          throw aplError(
            'apl_invalid_argument',
            { name: 'search', reason: "'Field:term' is only allowed as a term of a search predicate" },
            e.opSpan,
          );
        }
        return this.bindBinary(e, fields);
      case 'in': {
        if (e.op === 'toscalar' && e.subquery) return this.bindToscalar(e.subquery);
        if (e.subquery) return this.bindInSubquery(e.op, e.left, e.subquery, fields);
        const left = this.bindExpr(e.left, fields);
        const list = e.list.map((x) => this.bindExpr(x, fields));
        e.list.forEach((x, i) => {
          if (!isConstantExpr(list[i])) {
            throw aplError(
              'apl_invalid_argument',
              { name: e.op, reason: 'list elements must be constants' },
              x.span,
            );
          }
        });
        if (this.strictTypes) {
          const stringOp = e.op.startsWith('has') || e.op.endsWith('~');
          this.strict(
            e.op,
            stringOp
              ? strictStringOperands(left.type, ...list.map((x) => x.type))
              : strictElements(
                  left.type,
                  list.map((x) => x.type),
                ),
            e.span,
          );
        }
        return call(e.op, [left, ...list], 'bool');
      }
      case 'between': {
        const args = [
          this.bindExpr(e.left, fields),
          this.bindExpr(e.low, fields),
          this.bindExpr(e.high, fields),
        ];
        const [x, low, high] = args.map((a) => a.type);
        // `datetime between (t .. 1h)`: a timespan upper bound is an offset from the lower one (Kusto).
        const offset = x === 'datetime' && high === 'timespan';
        if (!comparable(x, low) || !(offset || comparable(x, high))) {
          throw aplError(
            'apl_type_mismatch',
            {
              what: `operator '${e.negated ? '!between' : 'between'}'`,
              expected: 'bounds of the type of the value',
              got: `${x} between ${low} .. ${high}`,
            },
            comparable(x, low) ? e.high.span : e.low.span,
          );
        }
        if (this.strictTypes) this.strict('between', strictElements(x, offset ? [low] : [low, high]), e.span);
        return call(e.negated ? '!between' : 'between', args, 'bool');
      }
      case 'call':
        return this.bindCall(e, fields);
    }
  }

  /**
   * `x in (T | project y)`: the subquery is planned here (names, types, datasets) but run by the caller
   * beforehand; its first column's distinct values become the list, as one dynamic array (flattened by
   * `in`, so null elements never match).
   */
  private bindInSubquery(op: string, leftExpr: Expr, subquery: TabularExpr, fields: Field[]): PExpr {
    const left = this.bindExpr(leftExpr, fields);
    const plan = this.buildTabular(subquery);
    if (plan.schema.length === 0) {
      throw aplError(
        'apl_invalid_argument',
        { name: op, reason: 'the subquery has no columns' },
        subquery.span,
      );
    }
    const values = this.ctx.subqueryValues?.(subquery) ?? [];
    return call(op, [left, lit(values, 'dynamic')], 'bool');
  }

  private rootResolves(e: Expr, fields: Field[]): boolean {
    let root: Expr = e;
    while (root.kind === 'member') root = root.target;
    return root.kind === 'name' && (hasField(fields, root.name) || this.scalarLets.has(root.name));
  }

  private bindName(name: string, fields: Field[], span: SourceSpan): PExpr {
    if (hasField(fields, name)) return col(name, fieldType(fields, name));
    // `['some number']` may name a `let` too (Kusto), when no column has that name.
    const bound = this.scalarLets.get(name);
    if (bound) return bound;
    if (this.lenientFields()) return col(name, 'dynamic');
    throw this.unknownField(name, fields, span);
  }

  private unknownField(name: string, fields: Field[], span: SourceSpan): QuarryError {
    return aplError(
      'apl_unknown_field',
      {
        name,
        suggestion: closestName(name, [...fields.map((f) => f.name), ...this.scalarLets.keys()]),
      },
      span,
    );
  }

  /** Unknown function; in an aggregation position aggregates are preferred as suggestions. */
  private unknownFunction(name: string, span: SourceSpan, aggregatesFirst = false): QuarryError {
    const scalars = [...SCALAR_SIGNATURES.keys()].filter((n) => !INTERNAL_FUNCTIONS.has(n));
    const common = scalars.filter((n) => !RARELY_SUGGESTED.has(n));
    const rare = scalars.filter((n) => RARELY_SUGGESTED.has(n));
    const aggregates = [...AGGREGATE_SIGNATURES.keys()];
    const names = aggregatesFirst ? [...aggregates, ...common, ...rare] : [...common, ...aggregates, ...rare];
    return aplError('apl_unknown_function', { name, suggestion: closestName(name, names) }, span);
  }

  /** Rejects a constant regular expression that does not compile, at the pattern's span. */
  private checkRegex(pattern: string, span: SourceSpan): void {
    const reason = this.ctx.checkRegex?.(pattern);
    if (reason) throw aplError('apl_invalid_regex', { pattern, reason }, span);
  }

  /** Under `set stricttypes`, a coercion the query relies on is a type mismatch at the operator. */
  private strict(what: string, problem: StrictProblem | null, span: SourceSpan): void {
    if (problem === null) return;
    throw aplError(
      'apl_type_mismatch',
      { what: `'${what}' with set stricttypes`, expected: problem.expected, got: problem.got },
      span,
    );
  }

  /** Throws the type mismatch of an argument at its position (`argument 2 of 'round': expected a number …`). */
  private checkArgumentTypes(fn: string, bad: ArgumentTypeError | null, args: { span: SourceSpan }[]): void {
    if (bad === null) return;
    throw aplError(
      'apl_type_mismatch',
      { what: `argument ${bad.index + 1} of '${fn}'`, expected: bad.expected, got: bad.got },
      args[bad.index].span,
    );
  }

  private bindBinary(e: Extract<Expr, { kind: 'binary' }>, fields: Field[]): PExpr {
    const left = this.bindExpr(e.left, fields);
    const right = this.bindExpr(e.right, fields);
    if (ARITH_OPS.has(e.op)) {
      const type = arithmeticResultType(e.op, left.type, right.type);
      if (type === null) {
        throw aplError(
          'apl_type_mismatch',
          {
            what: `operator '${e.op}'`,
            expected: 'compatible operand types',
            got: `${left.type} and ${right.type}`,
          },
          e.opSpan,
        );
      }
      return call(e.op, [left, right], type);
    }
    if (e.op === 'and' || e.op === 'or') {
      for (const side of [left, right]) {
        if (side.type !== 'bool' && side.type !== 'dynamic') {
          throw aplError(
            'apl_type_mismatch',
            { what: `operand of '${e.op}'`, expected: 'bool', got: side.type },
            e.opSpan,
          );
        }
      }
      return call(e.op, [left, right], 'bool');
    }
    if (COMPARE_OPS.has(e.op)) {
      if (!comparable(left.type, right.type)) {
        throw aplError(
          'apl_type_mismatch',
          {
            what: `operator '${e.op}'`,
            expected: 'comparable operand types',
            got: `${left.type} and ${right.type}`,
          },
          e.opSpan,
        );
      }
      if (this.strictTypes) this.strict(e.op, strictComparison(e.op, left.type, right.type), e.opSpan);
      return call(e.op, [left, right], 'bool');
    }
    if ((e.op === 'matches regex' || e.op === '!matches regex') && right.kind === 'lit') {
      if (typeof right.value === 'string') this.checkRegex(right.value, e.right.span);
    }
    if (this.strictTypes) this.strict(e.op, strictStringOperands(left.type, right.type), e.opSpan);
    return call(e.op, [left, right], 'bool');
  }

  private bindCall(e: Extract<Expr, { kind: 'call' }>, fields: Field[]): PExpr {
    const name = e.name;
    const udf = this.functions.get(name);
    if (udf) return this.bindFunctionCall(udf, e, fields);
    if (WINDOW_SIGNATURES.has(name)) {
      throw aplError(
        'apl_invalid_argument',
        { name, reason: 'window functions are allowed in extend, project, where and serialize only' },
        e.nameSpan,
      );
    }
    if (AGGREGATE_SIGNATURES.has(name)) {
      throw aplError('apl_aggregate_not_allowed', { name }, e.nameSpan);
    }
    const sig = SCALAR_SIGNATURES.get(name);
    if (!sig) throw this.unknownFunction(name, e.nameSpan);
    if (e.args.length < sig.minArgs || e.args.length > sig.maxArgs) {
      throw aplError(
        'apl_wrong_arity',
        { name, expected: arityText(sig.minArgs, sig.maxArgs), got: e.args.length },
        e.span,
      );
    }
    const canonical = canonicalFunctionName(name);
    if (
      (canonical === 'pack_array' || canonical === 'bag_pack') &&
      e.args.length === 1 &&
      e.args[0].kind === 'star'
    ) {
      // `pack_array(*)` / `bag_pack(*)`: the row's values (a bag keyed by column name), not its text.
      const args =
        canonical === 'pack_array'
          ? fields.map((f) => col(f.name, f.type))
          : fields.flatMap((f) => [lit(f.name, 'string'), col(f.name, f.type)]);
      return call(canonical, args, 'dynamic');
    }
    switch (name) {
      case 'now': {
        const base = lit(this.ctx.nowMs, 'datetime');
        if (e.args.length === 0) return base;
        const offset = this.bindExpr(e.args[0], fields);
        this.checkArgumentTypes(name, scalarArgumentError(name, [offset.type]), e.args);
        return call('+', [base, offset], 'datetime');
      }
      case 'ago': {
        const span = this.bindExpr(e.args[0], fields);
        this.checkArgumentTypes(name, scalarArgumentError(name, [span.type]), e.args);
        return call('-', [lit(this.ctx.nowMs, 'datetime'), span], 'datetime');
      }
      case 'column_ifexists': {
        const target = e.args[0];
        if (target.kind !== 'literal' || typeof target.value !== 'string') {
          throw aplError(
            'apl_invalid_argument',
            { name, reason: 'the first argument must be a string literal' },
            target.span,
          );
        }
        if (hasField(fields, target.value)) return col(target.value, fieldType(fields, target.value));
        return this.bindExpr(e.args[1], fields);
      }
      case 'ingestion_time':
        return hasField(fields, '_sysTime') ? col('_sysTime', 'datetime') : lit(null, 'datetime');
      case 'ensure_field': {
        const target = e.args[0];
        const typeArg = this.bindExpr(e.args[1], fields);
        if (target.kind !== 'literal' || typeof target.value !== 'string') {
          throw aplError(
            'apl_invalid_argument',
            { name, reason: 'the first argument must be a string literal' },
            target.span,
          );
        }
        if (hasField(fields, target.value)) return col(target.value, fieldType(fields, target.value));
        return lit(null, typeArg.type);
      }
      case 'bin_auto': {
        const arg = this.bindExpr(e.args[0], fields);
        this.checkArgumentTypes(name, scalarArgumentError(name, [arg.type]), e.args);
        const size = binAutoSizeMs(this.ctx.startMs, this.ctx.endMs);
        return call('bin', [arg, lit(size, 'timespan')], 'datetime');
      }
      default:
        break;
    }
    const args = e.args.map((a) => this.bindExpr(a, fields));
    const fn = canonicalFunctionName(name);
    this.checkArgumentTypes(
      name,
      scalarArgumentError(
        fn,
        args.map((a) => a.type),
      ),
      e.args,
    );
    if (this.strictTypes && STRICT_BRANCHES.has(fn)) {
      const results = args.map((a) => a.type).filter((_, i) => STRICT_BRANCHES.get(fn)!(i, args.length));
      this.strict(fn, strictBranches(results), e.span);
    }
    const regexAt = REGEX_ARGUMENT.get(fn);
    const pattern = regexAt === undefined ? undefined : args[regexAt];
    if (pattern?.kind === 'lit' && typeof pattern.value === 'string')
      this.checkRegex(pattern.value, e.args[regexAt!].span);
    return call(fn, args, sig.returns(args.map((a) => a.type)));
  }
}

/** Functions whose results come from several arguments, and which arguments those are. */
const STRICT_BRANCHES = new Map<string, (index: number, count: number) => boolean>([
  ['iff', (i) => i > 0],
  ['case', (i, n) => i % 2 === 1 || i === n - 1],
  ['coalesce', () => true],
  ['min_of', () => true],
  ['max_of', () => true],
]);

/** `set name;` and `set name = true;` switch an option on. */
function isTrueOption(value: Expr | undefined): boolean {
  return value === undefined || (value.kind === 'literal' && value.value === true);
}

/**
 * Whether two static types may be compared. Datetimes and timespans compare only with their own type:
 * anything else would compare their milliseconds with a number or a text. Other mixes stay allowed with
 * the documented outcome (a string and a number: `==` false, `<` null; apl.md §3.1).
 */
function comparable(a: AplType, b: AplType): boolean {
  if (a === b || a === 'dynamic' || b === 'dynamic') return true;
  const temporal = (t: AplType) => t === 'datetime' || t === 'timespan';
  return !temporal(a) && !temporal(b);
}

/** Literals and calls over literals (`dynamic([...])`, `ago(1h)`, `-1`). */
function isConstantExpr(p: PExpr): boolean {
  if (p.kind === 'lit') return true;
  if (p.kind === 'call') return p.fn !== 'rand' && p.args.every(isConstantExpr);
  return false;
}

function containsAggregate(e: Expr): boolean {
  let found = false;
  liftAggregates(e, () => {
    found = true;
    return '_';
  });
  return found;
}

/** Rebuilds an expression with every aggregate call replaced by a reference to the name `replace` returns. */
function liftAggregates(e: Expr, replace: (call: Extract<Expr, { kind: 'call' }>) => string): Expr {
  const walk = (x: Expr): Expr => {
    switch (x.kind) {
      case 'call':
        if (AGGREGATE_SIGNATURES.has(x.name))
          return { kind: 'name', name: replace(x), quoted: true, span: x.span };
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
  };
  return walk(e);
}

/** Whether an operator's expressions call window functions (they need a window extend first). */
function operatorHasWindows(op: Operator): boolean {
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
function windowImplicitName(e: Extract<Expr, { kind: 'call' }>): string | undefined {
  if (!WINDOW_SIGNATURES.has(e.name)) return undefined;
  const first = e.args[0];
  return first?.kind === 'name' ? `${e.name}_${first.name}` : e.name;
}

function isNumeric(t: AplType): boolean {
  return t === 'long' || t === 'real';
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function arityText(min: number, max: number): string {
  if (min === max) return String(min);
  if (max >= 64) return `at least ${min}`;
  return `${min} to ${max}`;
}

function fieldType(fields: Field[], name: string): AplType {
  return fields.find((f) => f.name === name)!.type;
}

function dottedName(e: Expr): string | null {
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
function implicitName(expr: PExpr, context: string): string | undefined {
  if (expr.kind === 'col') return expr.name;
  if (context === 'print') return undefined;
  if (expr.kind === 'call' && (expr.fn === 'bin' || expr.fn === 'floor') && expr.args[0]?.kind === 'col')
    return expr.args[0].name;
  return undefined;
}

function wireName(t: AplType): string {
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
function searchTerm(target: PExpr, s: string, caseSensitive: boolean): PExpr {
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

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "Granny" order: digit runs compare as numbers (`a2` before `a10`), other runs by code point. */
function naturalCompare(a: string, b: string): number {
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
const MULTI_COLUMN: Record<string, { bag: string; columns: { key: string; type: AplType }[] }> = {
  series_stats: {
    bag: 'series_stats_dynamic',
    columns: ['min', 'min_idx', 'max', 'max_idx', 'avg', 'variance', 'stdev'].map((key) => ({
      key,
      type: key.endsWith('_idx') ? 'long' : 'real',
    })),
  },
  series_fft: { bag: 'series_fft', columns: ['real', 'imag'].map((key) => ({ key, type: 'dynamic' })) },
  series_ifft: { bag: 'series_ifft', columns: ['real', 'imag'].map((key) => ({ key, type: 'dynamic' })) },
};

function multiColumnOf(e: Expr): (typeof MULTI_COLUMN)[string] | null {
  return e.kind === 'call' && Object.hasOwn(MULTI_COLUMN, e.name) ? MULTI_COLUMN[e.name] : null;
}

/** The conversion function for a typed `parse-kv` key (strings need none). */
const CONVERSION_OF_TYPE: Partial<Record<AplType, string>> = {
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
function keepOnlyValid(items: NamedExpr[], fields: Field[]): NamedExpr[] {
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

function caseSensitiveMatches(e: PExpr): PExpr {
  if (e.kind !== 'call') return e;
  const args = e.args.map(caseSensitiveMatches);
  const fn = /^!?(contains|has|startswith|endswith|hasprefix|hassuffix)$/.test(e.fn) ? `${e.fn}_cs` : e.fn;
  return { ...e, fn, args };
}

// ---- result conventions ----

const STREAMING = new Set(['filter', 'extend', 'project', 'mv-expand', 'parse', 'limit']);

function isAggregated(node: PlanNode): boolean {
  let n: PlanNode = node;
  for (;;) {
    if (n.kind === 'aggregate' || n.kind === 'make-series') return true;
    if (n.kind === 'scan' || n.kind === 'values' || n.kind === 'union') return false;
    n = n.kind === 'join' ? joinRowSource(n) : n.input;
  }
}

/**
 * Raw event results come back newest first and are capped at the default limit unless the query sets
 * one. A `take` over the raw stream therefore returns the newest rows (`take` becomes `top by _time desc`).
 */
function finalizeResult(root: PlanNode, defaultLimit: number): PlanNode {
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
