/**
 * User-defined functions (`let f = (x: long) { ... };`) and `let` statements: a call binds the body with
 * the parameters set to the arguments, in a scope that ends with the call.
 */
import {
  aplError,
  type Expr,
  type FunctionDefinition,
  type FunctionInvocation,
  type FunctionParam,
  type Statement,
  type TabularExpr,
} from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import { call, lit, type PExpr } from '../expr';
import type { PlanNode } from '../nodes/plan-node';
import { WINDOW_SIGNATURES, type CallExpr } from '../window-binding';
import type { Field } from '../types';
import { isTrueOption, isNumeric, arityText, CONVERSION_OF_TYPE } from './binding-helpers';
import { BinderBase } from './binder-base';

export abstract class FunctionBinder extends BinderBase {
  protected applyStatement(st: Statement): void {
    if (st.kind === 'set' && st.name === 'stricttypes') this.strictTypes = isTrueOption(st.value);
    if (st.kind === 'let-scalar')
      this.define(st.name, () => this.scalarLets.set(st.name, this.bindExpr(st.expr, [])));
    else if (st.kind === 'let-tabular')
      this.define(st.name, () => this.tableLets.set(st.name, this.buildTabular(st.query)));
    else if (st.kind === 'let-function') {
      const definition = withTabularLetsInlined(st.definition);
      this.define(definition.name, () => this.functions.set(definition.name, definition));
    }
  }

  // ---- user-defined functions ----

  /**
   * Runs `body` in a function's scope: its parameters bound to the call's arguments (scalars as scalar
   * lets, tables as table lets), then its own `let` statements; every binding of the caller comes back
   * afterwards.
   */
  protected inFunctionScope<T>(
    definition: FunctionDefinition,
    args: BoundArguments,
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
      for (const p of definition.params) {
        const table = args.tables.get(p.name);
        if (table) this.define(p.name, () => this.tableLets.set(p.name, table));
        else this.define(p.name, () => this.scalarLets.set(p.name, args.scalars.get(p.name)!));
      }
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
   * The arguments of a user-defined function call, matched to parameters by position, then by name
   * (`f(12, c = 7)`). A scalar is bound in the caller's row context and converted to the parameter's
   * type; a missing trailing one takes the parameter's default (Kusto). A table is planned and must have
   * the columns its parameter declares (`T: (x: long)`), any with `(*)`.
   */
  protected functionArguments(
    definition: FunctionDefinition,
    argExprs: Expr[],
    argNames: readonly (string | undefined)[] | undefined,
    fields: Field[],
    span: SourceSpan,
  ): BoundArguments {
    const params = definition.params;
    const given = new Map<string, Expr>();
    argExprs.forEach((e, i) => {
      const name = argNames?.[i];
      if (name === undefined) {
        if (i < params.length) given.set(params[i].name, e);
        return;
      }
      if (!params.some((p) => p.name === name) || given.has(name)) {
        throw aplError(
          'apl_invalid_argument',
          { name: definition.name, reason: `argument '${name}' names no parameter or repeats one` },
          e.span,
        );
      }
      given.set(name, e);
    });
    const required = params.filter((p) => !p.defaultValue).length;
    const missing = params.find((p) => !p.defaultValue && !given.has(p.name));
    if (argExprs.length > params.length || missing) {
      const named = argNames?.some((n) => n !== undefined);
      throw aplError(
        'apl_wrong_arity',
        {
          name: definition.name,
          expected:
            named && missing
              ? `${arityText(required, params.length)} (parameter '${missing.name}' has no value)`
              : arityText(required, params.length),
          got: argExprs.length,
        },
        span,
      );
    }
    const out: BoundArguments = { scalars: new Map(), tables: new Map() };
    for (const p of params) {
      const e = given.get(p.name);
      if (p.table) out.tables.set(p.name, this.tableArgument(definition, p, e!));
      else out.scalars.set(p.name, this.scalarArgument(definition, p, e, fields));
    }
    return out;
  }

  private scalarArgument(
    definition: FunctionDefinition,
    p: FunctionParam,
    given: Expr | undefined,
    fields: Field[],
  ): PExpr {
    if (given?.kind === 'in' && given.op === 'table') {
      throw aplError(
        'apl_type_mismatch',
        { what: `argument '${p.name}' of '${definition.name}'`, expected: p.type, got: 'a table' },
        given.span,
      );
    }
    const bound = given ? this.bindExpr(given, fields) : this.bindExpr(p.defaultValue!, []);
    if (bound.type === p.type || p.type === 'dynamic') return bound;
    if (bound.kind === 'lit' && bound.value === null) return lit(null, p.type);
    const convert = CONVERSION_OF_TYPE[p.type];
    // A numeric literal converts here, so it stays a constant (`percentile(x, p)` needs one).
    if (bound.kind === 'lit' && typeof bound.value === 'number' && isNumeric(p.type))
      return lit(p.type === 'long' ? Math.trunc(bound.value) : bound.value, p.type);
    if (bound.type === 'dynamic' || (isNumeric(bound.type) && isNumeric(p.type)))
      return convert ? call(convert, [bound], p.type) : bound;
    throw aplError(
      'apl_type_mismatch',
      { what: `argument '${p.name}' of '${definition.name}'`, expected: p.type, got: bound.type },
      (given ?? p.defaultValue!).span,
    );
  }

  /** A tabular argument: planned, checked for the columns its parameter declares, narrowed to them. */
  private tableArgument(definition: FunctionDefinition, p: FunctionParam, given: Expr): PlanNode {
    const table = given.kind === 'in' && given.op === 'table' ? given.subquery : undefined;
    if (!table) {
      // A name the parser did not know as a table (`f(x)` where x is a column) is no table.
      throw aplError(
        'apl_type_mismatch',
        { what: `argument '${p.name}' of '${definition.name}'`, expected: 'a table', got: 'a scalar' },
        given.span,
      );
    }
    const plan = this.buildTabular(table);
    const declared: Field[] = [];
    for (const c of p.table!.columns) {
      const have = plan.schema.find((f) => f.name === c.name);
      if (!have) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: definition.name,
            reason: `the table for '${p.name}' has no column '${c.name}' (its schema declares ${c.name}:${c.type})`,
          },
          given.span,
        );
      }
      const fits =
        have.type === c.type ||
        have.type === 'dynamic' ||
        c.type === 'dynamic' ||
        (isNumeric(have.type) && isNumeric(c.type));
      if (!fits) {
        throw aplError(
          'apl_type_mismatch',
          {
            what: `column '${c.name}' of argument '${p.name}' of '${definition.name}'`,
            expected: c.type,
            got: have.type,
          },
          given.span,
        );
      }
      declared.push(have);
    }
    // `T: (x: long)`: the body sees the declared columns only (Kusto: the others "can't be referenced"),
    // so the argument is narrowed to them; `T: (*)` keeps every column.
    return p.table!.wildcard ? plan : this.projectFields(plan, declared);
  }

  /** `f(args)` of a scalar user-defined function: its body bound with the parameters set (no columns). */
  protected bindFunctionCall(definition: FunctionDefinition, e: CallExpr, fields: Field[]): PExpr {
    if (definition.result.kind !== 'scalar') {
      throw aplError(
        'apl_invalid_argument',
        { name: e.name, reason: 'a tabular function cannot be used as a scalar' },
        e.nameSpan,
      );
    }
    const result = definition.result.expr;
    if (definition.statements.some((st) => st.kind === 'let-tabular') && callsWindowFunction(definition)) {
      // Left as a call by the window expansion: a tabular let that uses the function's own names.
      throw aplError(
        'apl_invalid_argument',
        {
          name: e.name,
          reason:
            "window functions in a function whose tabular let uses the function's parameters or scalar lets (or is materialize()) are not supported: pass the table as a tabular parameter",
        },
        e.nameSpan,
      );
    }
    const args = this.functionArguments(definition, e.args, e.argNames, fields, e.span);
    // A scalar function sees only its parameters and lets, not the caller's columns (Kusto).
    return this.inFunctionScope(definition, args, e.span, () => this.bindExpr(result, []));
  }

  /** A tabular user-defined function used as a source: its body built with the parameters set. */
  protected buildInvocation(invoke: FunctionInvocation): PlanNode {
    const definition = invoke.definition;
    const result = definition.result;
    if (result.kind !== 'tabular') throw new Error('invocation of a scalar function');
    const args = this.functionArguments(definition, invoke.args, invoke.argNames, [], invoke.span);
    return this.inFunctionScope(definition, args, invoke.span, () => this.buildTabular(result.query));
  }
}

/** A call's arguments by parameter name: scalars bound in the caller's context, tables planned. */
export interface BoundArguments {
  scalars: Map<string, PExpr>;
  tables: Map<string, PlanNode>;
}

/**
 * A scalar function whose body calls a window function and has tabular `let`s
 * (`let g = (a: long) { let T = datatable(y: long)[10, 20]; row_cumsum(a) + toscalar(T | count) };`),
 * rewritten with each use of such a `let` replaced by its query, so the body has scalar `let`s and
 * functions only and the window expansion (window-binder.ts) can inline it where it is called: a `let`
 * is a name for its query, so the rewrite changes no value. Left as it is where the expansion could not
 * keep the meaning: a tabular `let` of `materialize()` (one evaluation per query) or one that names a
 * parameter or scalar `let` of the function (the expanded body is bound in the caller's scope, where
 * those names are the caller's); such a call is refused in bindFunctionCall.
 */
export function withTabularLetsInlined(definition: FunctionDefinition): FunctionDefinition {
  if (definition.result.kind !== 'scalar') return definition;
  if (!definition.statements.some((st) => st.kind === 'let-tabular')) return definition;
  if (!callsWindowFunction(definition)) return definition;
  const localNames = new Set(definition.params.map((p) => p.name));
  const tables = new Map<string, TabularExpr>();
  const statements: Statement[] = [];
  for (const st of definition.statements) {
    if (st.kind === 'let-tabular') {
      const source = st.query.source;
      if (source.kind === 'subquery' && source.materialize) return definition;
      if (namesAny(st.query, localNames)) return definition;
      tables.set(st.name, replaceTableNames(st.query, tables));
      continue;
    }
    if (st.kind === 'let-scalar' || st.kind === 'let-function') {
      const name = st.kind === 'let-scalar' ? st.name : st.definition.name;
      localNames.add(name);
      tables.delete(name);
    }
    statements.push(replaceTableNames(st, tables));
  }
  return { ...definition, statements, result: replaceTableNames(definition.result, tables) };
}

/** Whether a window function (`row_cumsum`, `prev`, …) is called anywhere in the definition. */
export function callsWindowFunction(definition: FunctionDefinition): boolean {
  let found = false;
  visitAst(definition, (node) => {
    if (node.kind === 'call' && typeof node.name === 'string' && WINDOW_SIGNATURES.has(node.name))
      found = true;
  });
  return found;
}

/** Whether `tree` holds a name expression (`{ kind: 'name' }`) of one of `names`. */
function namesAny(tree: unknown, names: ReadonlySet<string>): boolean {
  let found = false;
  visitAst(tree, (node) => {
    if (node.kind === 'name' && typeof node.name === 'string' && names.has(node.name)) found = true;
  });
  return found;
}

type AstNode = Record<string, unknown>;

/** Calls `visit` with every object of the AST below `tree` (the AST is plain data). */
function visitAst(tree: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(tree)) {
    for (const item of tree) visitAst(item, visit);
    return;
  }
  if (tree === null || typeof tree !== 'object') return;
  const node = tree as AstNode;
  visit(node);
  for (const key of Object.keys(node)) if (key !== 'span') visitAst(node[key], visit);
}

/**
 * `tree` with each table source naming one of `tables` (`T` of `toscalar(T | count)`, `x in (T)`)
 * replaced by a subquery of that table's query. A nested function that defines the same name (a
 * parameter or its own `let`) keeps its own.
 */
function replaceTableNames<T>(tree: T, tables: ReadonlyMap<string, TabularExpr>): T {
  if (tables.size === 0) return tree;
  if (Array.isArray(tree)) return tree.map((item: unknown) => replaceTableNames(item, tables)) as T;
  if (tree === null || typeof tree !== 'object') return tree;
  const node = tree as AstNode;
  if (node.kind === 'dataset' && typeof node.name === 'string' && tables.has(node.name))
    return { kind: 'subquery', query: tables.get(node.name), span: node.span } as T;
  let inner = tables;
  if (Array.isArray(node.params) && Array.isArray(node.statements)) {
    const shadowed = new Map(tables);
    for (const p of node.params as { name: string }[]) shadowed.delete(p.name);
    for (const st of node.statements as Statement[]) {
      if (st.kind === 'let-tabular' || st.kind === 'let-scalar') shadowed.delete(st.name);
    }
    inner = shadowed;
  }
  const out: AstNode = {};
  for (const key of Object.keys(node))
    out[key] = key === 'span' ? node[key] : replaceTableNames(node[key], inner);
  return out as T;
}
