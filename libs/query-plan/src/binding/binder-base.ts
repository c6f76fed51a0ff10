/**
 * The binder's state and shared checks: `let` bindings in scope (scalars, tables, user-defined
 * functions), the datasets read, `set stricttypes`, and the errors and constant folding every layer uses.
 */
import { aplError, closestName, type Expr, type FunctionDefinition, type TabularExpr } from '@quarry/apl';
import { QuarryError, type SourceSpan } from '@quarry/common';
import { constantTime } from '../const-time';
import type { StrictProblem } from '../strict-types';
import { col, type PExpr } from '../expr';
import { AGGREGATE_SIGNATURES } from '../functions/aggregate-signatures';
import type { ArgumentTypeError } from '../functions/argument-types';
import { INTERNAL_FUNCTIONS, RARELY_SUGGESTED, SCALAR_SIGNATURES } from '../functions/scalar-signatures';
import type { PlanNode } from '../nodes/plan-node';
import type { Field } from '../types';
import type { PlanContext } from './plan-context';

export abstract class BinderBase {
  /** Bound by ExpressionBinder. */
  abstract bindExpr(e: Expr, fields: Field[]): PExpr;

  /** Built by PlanBuilder. */
  protected abstract buildTabular(t: TabularExpr): PlanNode;

  protected readonly scalarLets = new Map<string, PExpr>();

  protected readonly tableLets = new Map<string, PlanNode>();

  protected readonly datasets: string[] = [];

  /** `set stricttypes;`: implicit coercions are type errors (strict-types.ts). */
  protected strictTypes = false;

  /** >0 while binding a virtual field's expression (see bindIsolated). */
  protected isolated = 0;

  /** User-defined functions in scope (`let f = (x: long) { ... };`). */
  protected readonly functions = new Map<string, FunctionDefinition>();

  /** The user-defined functions being expanded (recursion is an error, as in Kusto). */
  protected readonly expanding: string[] = [];

  /** >0 while binding the subquery of `toscalar(T)` or `x in (T)`, which cannot see the calling row. */
  protected subqueryDepth = 0;

  /** Names of the hidden columns window functions are computed into. */
  protected windowColumns = 0;

  constructor(protected readonly ctx: PlanContext) {}

  /** A `let` hides an earlier binding of the same name of any kind (innermost wins). */
  protected define(name: string, bind: () => void): void {
    this.scalarLets.delete(name);
    this.tableLets.delete(name);
    this.functions.delete(name);
    bind();
  }

  /** Binds an expression that is not part of the query text: lenient on fields, blind to `let`s. */
  protected bindIsolated(e: Expr, fields: Field[]): PExpr {
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

  protected lenientFields(): boolean {
    return this.ctx.lenientFields === true || this.isolated > 0;
  }

  protected projectFields(input: PlanNode, keep: Field[]): PlanNode {
    const items = keep.map((f) => ({ name: f.name, expr: col(f.name, f.type) }));
    return { kind: 'project', input, items, schema: keep.map((f) => ({ ...f })) };
  }

  protected constantCount(e: Expr, fields: Field[], what: string): number {
    const v = this.constantNumber(e, fields, what);
    if (!Number.isInteger(v) || v < 0)
      throw aplError(
        'apl_invalid_argument',
        { name: what, reason: 'expected a non-negative integer' },
        e.span,
      );
    return v;
  }

  protected constantNumber(e: Expr, fields: Field[], what: string): number {
    const bound = this.bindExpr(e, fields);
    const v = this.constantOf(bound, e.span, what);
    if (typeof v !== 'number')
      throw aplError('apl_invalid_argument', { name: what, reason: 'expected a number' }, e.span);
    return v;
  }

  protected constantOf(p: PExpr, span: SourceSpan, what: string): unknown {
    if (p.kind === 'lit') return p.value;
    const folded = constantTime(p);
    if (folded !== null) return folded;
    const arithmetic = constantArithmetic(p);
    if (arithmetic !== undefined) return arithmetic;
    throw aplError('apl_invalid_argument', { name: what, reason: 'expected a constant' }, span);
  }

  protected unknownField(name: string, fields: Field[], span: SourceSpan): QuarryError {
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
  protected unknownFunction(name: string, span: SourceSpan, aggregatesFirst = false): QuarryError {
    const scalars = [...SCALAR_SIGNATURES.keys()].filter((n) => !INTERNAL_FUNCTIONS.has(n));
    const common = scalars.filter((n) => !RARELY_SUGGESTED.has(n));
    const rare = scalars.filter((n) => RARELY_SUGGESTED.has(n));
    const aggregates = [...AGGREGATE_SIGNATURES.keys()];
    const names = aggregatesFirst ? [...aggregates, ...common, ...rare] : [...common, ...aggregates, ...rare];
    return aplError('apl_unknown_function', { name, suggestion: closestName(name, names) }, span);
  }

  /** Rejects a constant regular expression that does not compile, at the pattern's span. */
  protected checkRegex(pattern: string, span: SourceSpan): void {
    const reason = this.ctx.checkRegex?.(pattern);
    if (reason) throw aplError('apl_invalid_regex', { pattern, reason }, span);
  }

  /** Under `set stricttypes`, a coercion the query relies on is a type mismatch at the operator. */
  protected strict(what: string, problem: StrictProblem | null, span: SourceSpan): void {
    if (problem === null) return;
    throw aplError(
      'apl_type_mismatch',
      { what: `'${what}' with set stricttypes`, expected: problem.expected, got: problem.got },
      span,
    );
  }

  /** Throws the type mismatch of an argument at its position (`argument 2 of 'round': expected a number …`). */
  protected checkArgumentTypes(
    fn: string,
    bad: ArgumentTypeError | null,
    args: { span: SourceSpan }[],
  ): void {
    if (bad === null) return;
    throw aplError(
      'apl_type_mismatch',
      { what: `argument ${bad.index + 1} of '${fn}'`, expected: bad.expected, got: bad.got },
      args[bad.index].span,
    );
  }
}

/**
 * The number a constant arithmetic expression over numeric literals has (`10 + Test2 + id` with the
 * lets and parameters of a user-defined function bound to literals), or undefined. `+ - *`, negation
 * and the numeric conversions only; a long result stays an integer.
 */
function constantArithmetic(p: PExpr): number | undefined {
  if (p.kind === 'lit') return typeof p.value === 'number' ? p.value : undefined;
  if (p.kind !== 'call') return undefined;
  const args = p.args.map(constantArithmetic);
  if (args.some((a) => a === undefined)) return undefined;
  const [a, b] = args as number[];
  switch (p.fn) {
    case 'neg':
      return args.length === 1 ? -a : undefined;
    case '+':
      return args.length === 2 ? a + b : undefined;
    case '-':
      return args.length === 2 ? a - b : undefined;
    case '*':
      return args.length === 2 ? a * b : undefined;
    case 'tolong':
    case 'toint':
      return args.length === 1 ? Math.trunc(a) : undefined;
    case 'toreal':
    case 'todouble':
      return args.length === 1 ? a : undefined;
    default:
      return undefined;
  }
}
