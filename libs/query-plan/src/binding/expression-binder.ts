/**
 * Scalar expressions: names against the input schema, operators and functions with their arity and
 * operand types, `in` lists and subqueries, `toscalar`, search terms, and the names of result columns.
 */
import { finalizeResult } from './result-conventions';
import { aplError, type Assignment, type Expr, type SortKey, type TabularExpr } from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import { arithmeticResultType } from '../arith-types';
import { binAutoSizeMs } from '../bin-auto';
import { strictBranches, strictComparison, strictElements, strictStringOperands } from '../strict-types';
import { call, col, columnsOf, lit, type PExpr } from '../expr';
import { AGGREGATE_SIGNATURES } from '../functions/aggregate-signatures';
import { scalarArgumentError } from '../functions/argument-types';
import { SCALAR_SIGNATURES, canonicalFunctionName } from '../functions/scalar-signatures';
import { type NamedExpr, type SortKeySpec, hasField } from '../nodes/plan-node';
import { WINDOW_SIGNATURES } from '../window-binding';
import type { AplType, Field } from '../types';
import {
  ARITH_OPS,
  COMPARE_OPS,
  REGEX_ARGUMENT,
  STRICT_BRANCHES,
  comparable,
  isConstantExpr,
  arityText,
  checkArity,
  fieldType,
  dottedName,
  implicitName,
  searchTerm,
  multiColumnOf,
} from './binding-helpers';
import { FunctionBinder } from './function-binder';

export abstract class ExpressionBinder extends FunctionBinder {
  // ---- scalar expressions ----

  protected bindPredicate(e: Expr, fields: Field[]): PExpr {
    const p = this.bindExpr(e, fields);
    if (p.type !== 'bool' && p.type !== 'dynamic') {
      throw aplError('apl_type_mismatch', { what: 'where predicate', expected: 'bool', got: p.type }, e.span);
    }
    return p;
  }

  /**
   * `search` predicates (apl.md §7 search): a bare string term applies to every field's text, `Field:"x"`
   * to one field; `and` / `or` / `not` combine terms; anything else is an ordinary predicate. Bare terms
   * leave out `sourceColumn` (a leading search's `$table`).
   */
  protected bindSearch(e: Expr, fields: Field[], caseSensitive: boolean, sourceColumn?: string): PExpr {
    if (e.kind === 'star') return lit(true, 'bool');
    if (e.kind === 'literal' && typeof e.value === 'string') {
      const row: PExpr = sourceColumn
        ? { kind: 'row', type: 'string', skip: [sourceColumn] }
        : { kind: 'row', type: 'string' };
      return searchTerm(row, e.value, caseSensitive);
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
        [
          this.bindSearch(e.left, fields, caseSensitive, sourceColumn),
          this.bindSearch(e.right, fields, caseSensitive, sourceColumn),
        ],
        'bool',
      );
    }
    if (e.kind === 'call' && e.name === 'not' && e.args.length === 1) {
      return call('not', [this.bindSearch(e.args[0], fields, caseSensitive, sourceColumn)], 'bool');
    }
    return this.bindPredicate(e, fields);
  }

  override bindExpr(e: Expr, fields: Field[]): PExpr {
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
        if (e.op === 'table') {
          throw aplError(
            'apl_type_mismatch',
            { what: 'this argument', expected: 'a scalar', got: 'a table' },
            e.span,
          );
        }
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
  protected bindInSubquery(op: string, leftExpr: Expr, subquery: TabularExpr, fields: Field[]): PExpr {
    const left = this.bindExpr(leftExpr, fields);
    const plan = this.inSubquery(() => this.buildTabular(subquery));
    if (plan.schema.length === 0) {
      throw aplError(
        'apl_invalid_argument',
        { name: op, reason: 'the subquery has no columns' },
        subquery.span,
      );
    }
    const values = this.ctx.subqueryValues?.(subquery, finalizeResult(plan, Number.MAX_SAFE_INTEGER)) ?? [];
    return call(op, [left, lit(values, 'dynamic')], 'bool');
  }

  /**
   * `toscalar(T)`: the first value of the first column of T (run by the caller before planning, see
   * PlanContext.subqueryValues); null when T has no rows.
   */
  protected bindToscalar(subquery: TabularExpr): PExpr {
    const plan = this.inSubquery(() => this.buildTabular(subquery));
    const first = plan.schema[0];
    if (!first) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'toscalar', reason: 'the subquery has no columns' },
        subquery.span,
      );
    }
    const values = this.ctx.subqueryValues?.(subquery, finalizeResult(plan, Number.MAX_SAFE_INTEGER)) ?? [];
    return lit(values.length > 0 ? values[0] : null, first.type);
  }

  /** Binds a subquery of `in` or `toscalar` (see subqueryDepth). */
  protected inSubquery<T>(build: () => T): T {
    this.subqueryDepth++;
    try {
      return build();
    } finally {
      this.subqueryDepth--;
    }
  }

  protected rootResolves(e: Expr, fields: Field[]): boolean {
    let root: Expr = e;
    while (root.kind === 'member') root = root.target;
    return root.kind === 'name' && (hasField(fields, root.name) || this.scalarLets.has(root.name));
  }

  protected bindName(name: string, fields: Field[], span: SourceSpan): PExpr {
    if (hasField(fields, name)) return col(name, fieldType(fields, name));
    // `['some number']` may name a `let` too (Kusto), when no column has that name.
    const bound = this.scalarLets.get(name);
    if (bound) {
      if (this.subqueryDepth > 0 && columnsOf(bound).size > 0) {
        // Kusto's UDF restriction 1: toscalar()/in (T) cannot depend on the row the function is called for.
        throw aplError(
          'apl_invalid_argument',
          {
            name,
            reason:
              'a subquery (toscalar, in) of a user-defined function cannot use a value of the calling row; pass a constant',
          },
          span,
        );
      }
      return bound;
    }
    // `a` for `a()`: a scalar function without required arguments is called by its name (Kusto).
    const fn = this.functions.get(name);
    if (fn && fn.result.kind === 'scalar' && fn.params.every((p) => p.defaultValue)) {
      return this.bindFunctionCall(fn, { kind: 'call', name, args: [], nameSpan: span, span }, fields);
    }
    if (this.lenientFields()) return col(name, 'dynamic');
    throw this.unknownField(name, fields, span);
  }

  protected bindBinary(e: Extract<Expr, { kind: 'binary' }>, fields: Field[]): PExpr {
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

  protected bindCall(e: Extract<Expr, { kind: 'call' }>, fields: Field[]): PExpr {
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
    checkArity(name, sig, e.args.length, e.span);
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
    if (canonical === 'pack_all') {
      // Kusto's `pack_all([ignore_null_empty])`: the row's columns in a bag; with `true`, not those null
      // or empty.
      const pairs = fields
        .filter((f) => !f.madeByEarlierItem)
        .flatMap((f) => [lit(f.name, 'string'), col(f.name, f.type)]);
      if (e.args.length === 0) return call('bag_pack', pairs, 'dynamic');
      const ignore = this.bindExpr(e.args[0], fields);
      if (ignore.type !== 'bool' && ignore.type !== 'dynamic')
        throw aplError(
          'apl_type_mismatch',
          { what: 'pack_all argument', expected: 'bool', got: ignore.type },
          e.args[0].span,
        );
      return call('bag_pack_sparse', [ignore, ignore, ...pairs], 'dynamic');
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
    // Kusto's percentiles_array_tdigest page: one rank and a typeof() answer that type's value, not an array.
    if (fn === 'percentiles_array_tdigest' && args.length === 3 && args[1].type !== 'dynamic') {
      const t = args[2];
      if (t.kind === 'lit' && typeof t.value === 'object' && t.value !== null && 'typeof' in t.value)
        return call(fn, args, t.type);
    }
    return call(fn, args, sig.returns(args.map((a) => a.type)));
  }

  // ---- naming ----

  protected bindNamed(
    items: Assignment[],
    fields: Field[],
    context: 'print' | 'extend' | 'project' | 'by' | 'distinct',
    sequential = false,
  ): NamedExpr[] {
    const out: NamedExpr[] = [];
    let generated = 0;
    let scope = fields;
    for (const item of items) {
      const sorted = this.arraySortColumns(item, scope, context);
      if (sorted) {
        for (const { name, expr } of sorted) {
          if (sequential) scope = [...scope.filter((f) => f.name !== name), madeHere(name, expr.type)];
          else {
            const existing = out.findIndex((o) => o.name === name);
            if (existing >= 0) out.splice(existing, 1);
          }
          out.push({ name, expr });
        }
        continue;
      }
      const multi = multiColumnOf(item.expr);
      if (item.names && (!multi || context === 'by' || context === 'distinct')) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: context,
            reason:
              '(a, b, …) = names the columns of series_stats, series_fft, series_ifft or array_sort_asc/desc only',
          },
          item.span,
        );
      }
      if (multi && context !== 'by' && context !== 'distinct') {
        // One call, several columns: each reads a key of the function's bag. Names: `(a, b) = f(x)`, else
        // `<name or f_x>_<key>` (series_stats_x_min, series_fft_y_real). Fewer names than columns keep only
        // the first columns (Kusto's series_stats page: "If you provide a limited number of names, the table
        // will show only those columns").
        const call0 = item.expr as Extract<Expr, { kind: 'call' }>;
        const args = call0.args.map((a) => this.bindExpr(a, scope));
        if (call0.name === 'series_stats') {
          // `series_stats(x [, ignore_nonfinite])`: the flag is series_stats_dynamic's, checked as its.
          if (args.length < 1 || args.length > 2)
            throw aplError(
              'apl_wrong_arity',
              { name: call0.name, expected: arityText(1, 2), got: args.length },
              call0.span,
            );
          this.checkArgumentTypes(
            call0.name,
            scalarArgumentError(
              multi.bag,
              args.map((a) => a.type),
            ),
            call0.args,
          );
        }
        if (item.names && item.names.length > multi.columns.length) {
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
        const columns = item.names ? multi.columns.slice(0, item.names.length) : multi.columns;
        columns.forEach(({ key, type }, i) => {
          const stat = call('getprop', [bag, lit(key, 'string')], 'dynamic');
          const name = item.names ? item.names[i].name : `${prefix}_${key}`;
          const expr = type === 'dynamic' ? stat : call(type === 'long' ? 'tolong' : 'toreal', [stat], type);
          if (sequential) scope = [...scope.filter((f) => f.name !== name), madeHere(name, type)];
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
      if (!name) {
        // A generated name never takes one in use (an input column for extend, a name of this
        // operator's items otherwise): it would silently replace or drop that column.
        const taken = new Set(
          sequential
            ? scope.map((f) => f.name)
            : [
                ...out.map((o) => o.name),
                ...items.flatMap((i) => (i.name ? [i.name] : i.expr.kind === 'name' ? [i.expr.name] : [])),
              ],
        );
        do name = context === 'print' ? `print_${generated++}` : `Column${++generated}`;
        while (taken.has(name));
      }
      if (sequential) {
        const bound = name;
        scope = [...scope.filter((f) => f.name !== bound), madeHere(bound, expr.type)];
      } else {
        const existing = out.findIndex((o) => o.name === name);
        if (existing >= 0) out.splice(existing, 1);
      }
      out.push({ name, expr });
    }
    return out;
  }

  /**
   * Kusto's array_sort_asc / array_sort_desc pages: `print array_sort_asc(a, b)` gives one column per array,
   * named `a_sorted`, `b_sorted`; `(x, y) = array_sort_asc(a, b)` names them. Only those two forms expand
   * (unnamed, every array a plain name; or tuple names); elsewhere the call stays one value, the array of
   * the sorted arrays (`array_sort_asc(a, b)[1]`).
   */
  protected arraySortColumns(
    item: Assignment,
    scope: Field[],
    context: 'print' | 'extend' | 'project' | 'by' | 'distinct',
  ): NamedExpr[] | null {
    const e = item.expr;
    if (e.kind !== 'call' || (e.name !== 'array_sort_asc' && e.name !== 'array_sort_desc')) return null;
    if (item.name || context === 'by' || context === 'distinct') return null;
    const bound = this.bindExpr(e, scope);
    if (bound.kind !== 'call') return null;
    const arrays = bound.args.length - (bound.args.at(-1)?.type === 'bool' ? 1 : 0);
    let names: string[];
    if (item.names) {
      if (item.names.length !== arrays)
        throw aplError(
          'apl_invalid_argument',
          { name: e.name, reason: `it returns ${arrays} columns but ${item.names.length} names were given` },
          item.span,
        );
      names = item.names.map((n) => n.name);
    } else {
      const sources = e.args.slice(0, arrays);
      if (arrays < 2 || !sources.every((a) => a.kind === 'name')) return null;
      names = sources.map((a) => `${(a as Extract<Expr, { kind: 'name' }>).name}_sorted`);
    }
    // One array sorts to itself; several give the array of the sorted arrays.
    if (arrays === 1) return [{ name: names[0], expr: bound }];
    return names.map((name, i) => ({ name, expr: call('index', [bound, lit(i, 'long')], 'dynamic') }));
  }

  protected bindSortKeys(keys: SortKey[], fields: Field[]): SortKeySpec[] {
    return keys.map((k) => ({
      expr: this.bindExpr(k.expr, fields),
      desc: k.desc,
      nullsFirst: k.nullsFirst ?? !k.desc,
    }));
  }
}

/** A column an earlier item of the `extend` (or `print`) being bound made (`Field.madeByEarlierItem`). */
function madeHere(name: string, type: AplType): Field {
  return { name, type, madeByEarlierItem: true };
}
