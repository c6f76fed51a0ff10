/**
 * User-defined functions (`let f = (x: long) { ... };`) and `let` statements: a call binds the body with
 * the parameters set to the arguments, in a scope that ends with the call.
 */
import {
  aplError,
  type Expr,
  type FunctionDefinition,
  type FunctionInvocation,
  type Statement,
} from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import { call, lit, type PExpr } from '../expr';
import type { PlanNode } from '../nodes/plan-node';
import type { CallExpr } from '../window-binding';
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
    else if (st.kind === 'let-function')
      this.define(st.definition.name, () => this.functions.set(st.definition.name, st.definition));
  }

  // ---- user-defined functions ----

  /**
   * Runs `body` in a function's scope: its parameters bound to the call's arguments (as scalar lets),
   * then its own `let` statements; every binding of the caller comes back afterwards.
   */
  protected inFunctionScope<T>(
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
  protected functionArguments(
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
  protected bindFunctionCall(definition: FunctionDefinition, e: CallExpr, fields: Field[]): PExpr {
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
  protected buildInvocation(invoke: FunctionInvocation): PlanNode {
    const definition = invoke.definition;
    const result = definition.result;
    if (result.kind !== 'tabular') throw new Error('invocation of a scalar function');
    const args = this.functionArguments(definition, invoke.args, [], invoke.span);
    return this.inFunctionScope(definition, args, invoke.span, () => this.buildTabular(result.query));
  }
}
