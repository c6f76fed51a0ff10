/**
 * Window functions and `serialize`: each window call becomes a hidden column of a window extend over a
 * serialized input; the expression that used it reads the column, which is dropped afterwards.
 */
import {
  aplError,
  type Expr,
  type FunctionDefinition,
  type FunctionInvocation,
  type InExpr,
  type Operator,
  type TabularExpr,
} from '@quarry/apl';
import { call, type PExpr } from '../expr';
import { type NamedExpr, type PlanNode, isSerialized } from '../nodes/plan-node';
import { mapChildren } from '../map-children';
import { WINDOW_SIGNATURES, containsWindow, liftWindows, type CallExpr } from '../window-binding';
import type { Field } from '../types';
import { windowImplicitName, isNumeric, checkArity } from './binding-helpers';
import { AggregateBinder } from './aggregate-binder';
import type { BoundArguments } from './function-binder';

/** How deep calls of user-defined functions are expanded looking for window calls (recursion stops). */
const MAX_INLINE_DEPTH = 16;

export abstract class WindowBinder extends AggregateBinder {
  /** Built by OperatorBinder. */
  protected abstract buildOperator(input: PlanNode, op: Operator): PlanNode;

  // ---- window functions ----

  /**
   * Expands calls of scalar user-defined functions whose bodies call window functions
   * (`let g = (a: long) { row_cumsum(a) }; … | extend c = g(x)`) into the calling expression, each
   * parameter replaced by its argument expression, so their window calls are lifted like any other
   * (Kusto inlines functions). Arguments may be named (`g(a = x)`); a body's own scalar `let`s and
   * functions are substituted the same way. A body with a tabular `let` is left as a call (its window
   * calls stay refused). The subqueries of `toscalar(T)` and `x in (T)` in an expanded body keep the
   * body's names through a scope of their own (see scopedSubquery).
   */
  protected inlineWindowFunctions(op: Operator): Operator {
    if (this.functions.size === 0) return op;
    const top: InlineScope = { names: new Map(), functions: new Map() };
    switch (op.kind) {
      case 'extend':
      case 'project':
      case 'serialize':
        return {
          ...op,
          items: op.items.map((i) => ({ ...i, expr: this.inlineWindowCalls(i.expr, top, 0) })),
        };
      case 'where':
        return { ...op, predicate: this.inlineWindowCalls(op.predicate, top, 0) };
      default:
        return op;
    }
  }

  /**
   * `e` with the names of `scope` replaced (by expressions in the caller's terms) and calls expanded:
   * a function local to an expanded body always (the binder cannot see it), a function of the query
   * only when its expansion calls a window function.
   */
  private inlineWindowCalls(e: Expr, scope: InlineScope, depth: number): Expr {
    const walk = (x: Expr): Expr => {
      if (x.kind === 'name' && scope.names.has(x.name)) return scope.names.get(x.name)!;
      const rebuilt = mapChildren(x, walk);
      if (rebuilt.kind === 'in' && rebuilt.subquery && scope.owner !== undefined)
        return this.scopedSubquery(rebuilt, rebuilt.subquery, scope);
      if (rebuilt.kind !== 'call' || depth > MAX_INLINE_DEPTH) return rebuilt;
      const local = scope.functions.get(rebuilt.name);
      const global = local ? undefined : this.functions.get(rebuilt.name);
      const target = local ?? (global ? { definition: global, closure: EMPTY_SCOPE } : undefined);
      if (!target) return rebuilt;
      const body = this.expandCall(rebuilt, target, depth);
      if (!body || (!local && !containsWindow(body))) return rebuilt;
      return body;
    };
    return walk(e);
  }

  /** The body of a scalar function call in the caller's terms, or undefined where it cannot be. */
  private expandCall(c: CallExpr, target: LocalFunction, depth: number): Expr | undefined {
    const fn = target.definition;
    if (fn.result.kind !== 'scalar' || c.args.length > fn.params.length) return undefined;
    const given = new Map<string, Expr>();
    for (const [i, a] of c.args.entries()) {
      const name = c.argNames?.[i] ?? fn.params[i].name;
      if (given.has(name) || !fn.params.some((p) => p.name === name)) return undefined;
      given.set(name, a);
    }
    const scope: InlineScope = {
      names: new Map(target.closure.names),
      functions: new Map(target.closure.functions),
      owner: fn.name,
    };
    for (const p of fn.params) {
      const value = given.get(p.name) ?? p.defaultValue;
      if (!value || p.table) return undefined;
      scope.names.set(p.name, value);
      scope.functions.delete(p.name);
    }
    for (const st of fn.statements) {
      if (st.kind === 'let-scalar') {
        scope.names.set(st.name, this.inlineWindowCalls(st.expr, scope, depth + 1));
        scope.functions.delete(st.name);
      } else if (st.kind === 'let-function') {
        const closure = { ...scope, names: new Map(scope.names), functions: new Map(scope.functions) };
        scope.functions.set(st.definition.name, { definition: st.definition, closure });
        scope.names.delete(st.definition.name);
      } else return undefined;
    }
    return this.inlineWindowCalls(fn.result.expr, scope, depth + 1);
  }

  /**
   * `toscalar(T)` / `x in (T)` of an expanded body: names in T are not substituted (a column of T's own
   * table may have the name), T is wrapped in a call of a tabular function of no arguments whose scope
   * holds the body's parameters, scalar lets and local functions that T (or a local function it calls)
   * names. buildInvocation binds their values in the caller's row context, so T sees them as it would
   * in the body (`let k = 7; … toscalar(print v = k)` reads 7, not a caller's `k`), a column of T wins
   * over them, and a value of the calling row is refused as for any function (bindName).
   */
  private scopedSubquery(e: InExpr, subquery: TabularExpr, scope: InlineScope): Expr {
    const names = new Set<string>();
    const functions: LocalFunction[] = [];
    const pending: unknown[] = [subquery];
    while (pending.length > 0) {
      for (const id of identifiersOf(pending.pop())) {
        if (names.has(id)) continue;
        names.add(id);
        const local = scope.functions.get(id);
        if (local) {
          functions.push(local);
          pending.push(local.definition);
        }
      }
    }
    for (const local of functions) {
      // A local function sees the names of its definition; the subquery's scope has the body's last ones.
      const stale = [...names].find(
        (n) =>
          n !== local.definition.name &&
          (local.closure.names.get(n) !== scope.names.get(n) ||
            local.closure.functions.get(n) !== scope.functions.get(n)),
      );
      if (stale !== undefined) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: scope.owner!,
            reason: `'${local.definition.name}' is used in a subquery (toscalar, in) of a function with window calls and '${stale}' is defined again after it: not supported`,
          },
          e.span,
        );
      }
    }
    const values = new Map<string, Expr>();
    for (const n of names) if (scope.names.has(n)) values.set(n, scope.names.get(n)!);
    if (values.size === 0 && functions.length === 0) return e;
    const span = subquery.span;
    const definition: FunctionDefinition = {
      name: scope.owner!,
      params: [...values.keys()].map((name) => ({ name, type: 'dynamic', span })),
      statements: functions.map((f) => ({ kind: 'let-function', definition: f.definition, span })),
      result: { kind: 'tabular', query: subquery },
      span,
    };
    this.subqueryScopes.set(definition, values);
    const invoke: FunctionInvocation = { definition, args: [], span };
    const wrapped: TabularExpr = {
      source: { kind: 'subquery', query: subquery, invoke, span },
      operators: [],
      span,
    };
    return { ...e, subquery: wrapped };
  }

  /** Values of the scopes made by scopedSubquery, by their function (in the caller's terms). */
  private readonly subqueryScopes = new WeakMap<FunctionDefinition, Map<string, Expr>>();

  /** The columns of the row an expanded function is called for (its arguments are bound over them). */
  private callerFields: Field[] = [];

  protected override buildInvocation(invoke: FunctionInvocation): PlanNode {
    const values = this.subqueryScopes.get(invoke.definition);
    if (!values) return super.buildInvocation(invoke);
    const args: BoundArguments = { scalars: new Map(), tables: new Map() };
    for (const [name, value] of values) args.scalars.set(name, this.bindExpr(value, this.callerFields));
    const result = invoke.definition.result as { kind: 'tabular'; query: TabularExpr };
    return this.inFunctionScope(invoke.definition, args, invoke.span, () => this.buildTabular(result.query));
  }

  private withCallerFields<T>(fields: Field[], build: () => T): T {
    const saved = this.callerFields;
    this.callerFields = fields;
    try {
      return build();
    } finally {
      this.callerFields = saved;
    }
  }

  /**
   * Lifts the window calls of `exprs` into a window extend over `input` (innermost calls first, each a
   * hidden column) and returns the expressions rewritten to read those columns. The input must be
   * serialized (Kusto): sorted, a top, `serialize`d or inline rows.
   */
  protected withWindows(input: PlanNode, exprs: Expr[]): { node: PlanNode; exprs: Expr[]; hidden: string[] } {
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

  protected bindWindowCall(e: CallExpr, fields: Field[]): PExpr {
    const sig = WINDOW_SIGNATURES.get(e.name)!;
    checkArity(e.name, sig, e.args.length, e.span);
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
    // The restart argument: second of row_number/row_cumsum/row_rank_*, fourth of row_window_session.
    const restartAt = e.name === 'row_window_session' ? 3 : isPrevNext ? -1 : 1;
    if (restartAt >= 0 && args[restartAt] && !['bool', 'dynamic'].includes(args[restartAt].type))
      throw aplError(
        'apl_type_mismatch',
        { what: `restart argument of ${e.name}`, expected: 'bool', got: args[restartAt].type },
        e.args[restartAt].span,
      );
    return call(e.name, args, sig.returns(args.map((a) => a.type)));
  }

  /** `extend` with window calls: item by item, each over a window extend of the rows so far. */
  protected buildWindowExtend(input: PlanNode, op: Extract<Operator, { kind: 'extend' }>): PlanNode {
    let node = input;
    const hidden: string[] = [];
    for (const item of op.items) {
      const before = node;
      // A later item's call may pass an earlier item's column (`extend c = 1, d = g(c)`).
      node = this.withCallerFields(before.schema, () => {
        const lifted = this.withWindows(before, [item.expr]);
        hidden.push(...lifted.hidden);
        return this.buildOperator(lifted.node, { ...op, items: [{ ...item, expr: lifted.exprs[0] }] });
      });
    }
    return this.projectFields(
      node,
      node.schema.filter((f) => !hidden.includes(f.name)),
    );
  }

  /** `serialize [items]`: the input in a defined order (scan order when it has none), then the items. */
  protected buildSerialize(input: PlanNode, op: Extract<Operator, { kind: 'serialize' }>): PlanNode {
    const serialized: PlanNode = isSerialized(input)
      ? input
      : { kind: 'limit', input, count: Number.MAX_SAFE_INTEGER, schema: input.schema, serialize: true };
    if (op.items.length === 0) return serialized;
    return this.buildOperator(serialized, { kind: 'extend', items: op.items, span: op.span });
  }

  /** `extend`, `project` and `where` whose expressions call window functions. */
  protected buildWithWindows(input: PlanNode, op: Operator): PlanNode {
    return this.withCallerFields(input.schema, () => this.buildWithWindowsOver(input, op));
  }

  private buildWithWindowsOver(input: PlanNode, op: Operator): PlanNode {
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
}

/** Names bound while expanding a function body: parameters and scalar lets (as expressions), functions. */
interface InlineScope {
  names: Map<string, Expr>;
  functions: Map<string, LocalFunction>;
  /** The function whose body this is (none for the calling expression). */
  owner?: string;
}

/** A function defined inside a body, with the names it sees where it is defined. */
interface LocalFunction {
  definition: FunctionDefinition;
  closure: InlineScope;
}

const EMPTY_SCOPE: InlineScope = { names: new Map(), functions: new Map() };

/** The names (`k`) and called function names (`h()`) written anywhere below `tree` (the AST is plain data). */
function identifiersOf(tree: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as { kind?: unknown; name?: unknown };
    if (n.kind === 'literal') return;
    if ((n.kind === 'name' || n.kind === 'call') && typeof n.name === 'string') out.add(n.name);
    for (const [key, value] of Object.entries(node)) if (key !== 'span') walk(value);
  };
  walk(tree);
  return out;
}
