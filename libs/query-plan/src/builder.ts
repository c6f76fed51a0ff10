/**
 * Builds a logical plan from the syntax tree: resolves names against input schemas (case-sensitive),
 * checks function names, arity and operand types, names result columns (apl.md §5) and adds the implicit
 * result conventions (raw rows newest first, default row cap).
 *
 * The binder is layered, one job per file under `binding/`: binder-base → function-binder →
 * expression-binder → aggregate-binder → window-binder → operator-binder → PlanBuilder (sources, statements).
 */
import { aplError, type Expr, type Query, type TabularExpr, type TabularSource } from '@quarry/apl';
import { QuarryError, type SourceSpan } from '@quarry/common';
import type { ColumnBatch } from '@quarry/contracts';
import { call, col, columnsOf, lit, readsAllColumns, type PExpr } from './expr';
import { isSerialized, type NamedExpr, type PlanNode } from './nodes/plan-node';
import type { AplType } from './types';
import { MAX_RANGE_ROWS, escapeRegExp, fieldType } from './binding/binding-helpers';
import { FIND_PACK_COLUMN, findOutput, findTablesKept } from './binding/find-output';
import { isAggregated, finalizeResult } from './binding/result-conventions';
import type { PlanContext, VirtualFieldDefinition, BuiltPlan } from './binding/plan-context';
import { OperatorBinder } from './binding/operator-binder';

export type { BuiltPlan, PlanContext, VirtualFieldDefinition } from './binding/plan-context';

/** Names matching a dataset pattern where `*` stands for any text (case-sensitive), sorted. */
export function matchDatasetPattern(pattern: string, names: readonly string[]): string[] {
  const re = new RegExp('^' + pattern.split('*').map(escapeRegExp).join('.*') + '$');
  return names.filter((n) => re.test(n)).sort();
}

/**
 * A `materialize(T)` plan's result in its place (`PlanContext.materialized`): inline rows that keep
 * what the plan was (aggregated, serialized), so the query around them is planned as before.
 */
export function materializedTable(plan: PlanNode, key: string, batch: ColumnBatch): PlanNode {
  return {
    kind: 'values',
    schema: plan.schema.map((f) => ({ ...f })),
    rows: [],
    materialized: { key, batch, aggregated: isAggregated(plan), serialized: isSerialized(plan) },
  };
}

export function buildPlan(query: Query, ctx: PlanContext): BuiltPlan {
  return new PlanBuilder(ctx).build(query);
}

class PlanBuilder extends OperatorBinder {
  /** Uses of each cacheable `materialize(T)` plan not run yet (a `let` of it returns the same node). */
  private readonly materializedUses = new Map<PlanNode, number>();

  build(query: Query): BuiltPlan {
    for (const st of query.statements) this.applyStatement(st);
    const raw = this.buildTabular(query.body);
    const finalized = finalizeResult(raw, this.ctx.defaultLimit ?? 1000);
    const reusedMaterialized = [...this.materializedUses].filter(([, n]) => n > 1).map(([plan]) => plan);
    return {
      root: finalized,
      datasets: this.datasets,
      aggregated: isAggregated(finalized),
      reusedMaterialized,
    };
  }

  /** A table bound to a name (`let`, tabular parameter): counted when it is a materialized plan. */
  private boundTable(plan: PlanNode): PlanNode {
    const uses = this.materializedUses.get(plan);
    if (uses !== undefined) this.materializedUses.set(plan, uses + 1);
    return plan;
  }

  /**
   * `materialize(T)`: the rows computed once when the caller has them, else T. A raw event stream is
   * never cached (its rows come back newest first and capped only at the end of the query).
   */
  private buildMaterialize(query: TabularExpr): PlanNode {
    return this.materializePlan(this.buildTabular(query), 0);
  }

  /** `T | as hint.materialized=true Name`: T as `materialize(T)`, its pipe already one use of it. */
  protected override materializeNamed(plan: PlanNode): PlanNode {
    return this.materializePlan(plan, 1);
  }

  /**
   * The rows of `plan` computed once: the cached rows when the caller has them, else the plan, counted
   * from `uses` (each later reference through a name adds one). A plan counted already (a `let` of
   * `materialize()` named again) keeps its count.
   */
  private materializePlan(plan: PlanNode, uses: number): PlanNode {
    const cached = this.ctx.materialized?.(plan);
    if (cached) return cached;
    if ((isAggregated(plan) || isSerialized(plan)) && !this.materializedUses.has(plan))
      this.materializedUses.set(plan, uses);
    return plan;
  }

  // ---- tabular ----

  protected override buildTabular(t: TabularExpr): PlanNode {
    let node = this.buildSource(t.source);
    for (const op of t.operators) node = this.buildOperator(node, op);
    return node;
  }

  protected buildSource(s: TabularSource): PlanNode {
    switch (s.kind) {
      case 'dataset': {
        const bound = this.tableLets.get(s.name);
        if (bound) return this.boundTable(bound);
        // A view or a tabular function without parameters named like a table (`union T*`, `union T`).
        const fn = this.functions.get(s.name);
        if (fn && fn.result.kind === 'tabular')
          return this.buildInvocation({ definition: fn, args: [], span: s.span });
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
      case 'table-parameter': {
        const table = this.tableLets.get(s.name);
        if (!table) throw new Error(`tabular parameter '${s.name}' is not bound`);
        return this.boundTable(table);
      }
      case 'subquery':
        if (s.invoke) return this.buildInvocation(s.invoke);
        if (s.materialize) return this.buildMaterialize(s.query);
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
        const legs = this.buildUnionLegs(s.tables, s.fuzzy === true);
        return this.buildUnion(legs.plans, legs.tables, s.withSource);
      }
      case 'find':
        return this.buildFind(s);
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
   * Kusto's `find`: the union of the tables that have a column the predicate reads, named in the source
   * column, filtered by the search predicate, then projected to `find`'s output schema (find-output.ts).
   * Packed columns go into `pack_` without their null values (an event without the field).
   */
  protected buildFind(s: Extract<TabularSource, { kind: 'find' }>): PlanNode {
    const legs = this.buildUnionLegs(s.tables, false);
    const everything = this.buildUnion(legs.plans, legs.tables, s.withSource);
    const probe = this.bindSearch(s.predicate, everything.schema, false, s.withSource);
    const read = columnsOf(probe);
    read.delete(s.withSource);
    const kept = findTablesKept(
      legs.plans.map((p) => p.schema),
      read,
      readsAllColumns(probe),
    );
    const plans = legs.plans.filter((_, i) => kept[i]);
    // Usually every table stays: the union and predicate bound above are the ones to use.
    const everyTable = plans.length === legs.plans.length;
    const union = everyTable
      ? everything
      : this.buildUnion(
          plans,
          legs.tables.filter((_, i) => kept[i]),
          s.withSource,
        );
    const filtered: PlanNode = {
      kind: 'filter',
      input: union,
      predicate: everyTable ? probe : this.bindSearch(s.predicate, union.schema, false, s.withSource),
      schema: union.schema,
    };
    const columns = union.schema.filter((f) => f.name !== s.withSource);
    const output = findOutput(
      s.projection,
      plans.map((p) => p.schema),
      columns,
      read,
      this.lenientFields(),
    );
    const items: NamedExpr[] = [{ name: s.withSource, expr: col(s.withSource, 'string') }];
    for (const c of output.columns) {
      const known = columns.find((f) => f.name === c.name);
      const value = known ? col(c.name, known.type) : lit(null, c.type);
      items.push({ name: c.name, expr: c.cast ? call(`to${c.type}`, [value], c.type) : value });
    }
    if (output.packed.length > 0) {
      const pairs = output.packed.flatMap((name) => [
        lit(name, 'string'),
        col(name, fieldType(columns, name)),
      ]);
      items.push({
        name: FIND_PACK_COLUMN,
        expr: call('bag_pack_sparse', [lit(true, 'bool'), lit(false, 'bool'), ...pairs], 'dynamic'),
      });
    }
    return {
      kind: 'project',
      input: filtered,
      items,
      schema: items.map((i) => ({ name: i.name, type: i.expr.type })),
    };
  }

  /**
   * The legs of a `union` source, name patterns expanded. With `isfuzzy=true` a leg naming no dataset
   * or view (a `not_found`) is left out, as Kusto does, unless every leg is.
   */
  protected override buildUnionLegs(
    legs: TabularExpr[],
    fuzzy: boolean,
  ): { plans: PlanNode[]; tables: TabularExpr[] } {
    const plans: PlanNode[] = [];
    const tables: TabularExpr[] = [];
    let firstMiss: QuarryError | undefined;
    for (const leg of legs) {
      try {
        const expanded =
          leg.source.kind === 'dataset-pattern' && leg.operators.length === 0
            ? this.expandPattern(leg.source)
            : [leg];
        for (const t of expanded) {
          plans.push(this.buildTabular(t));
          tables.push(t);
        }
      } catch (err) {
        if (!fuzzy || !(err instanceof QuarryError) || err.kind !== 'not_found') throw err;
        firstMiss ??= err;
      }
    }
    if (plans.length === 0 && firstMiss) throw firstMiss;
    return { plans, tables };
  }

  /**
   * `range x from A to B step S` (Kusto): constant bounds of one type (long, real, datetime with a timespan
   * step, timespan), the rows computed here as inline values; at most MAX_RANGE_ROWS of them.
   */
  protected buildRange(s: Extract<TabularSource, { kind: 'range' }>): PlanNode {
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
  protected datatableValue(e: Expr, column: { name: string; type: AplType }): PExpr {
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
  protected expandPattern(s: { pattern: string; span: SourceSpan }): TabularExpr[] {
    // Views in scope match too (Kusto: a view "behaves like a table whenever wildcard table name
    // resolution is done"); they come first, then datasets, each in name order.
    const views = [...this.functions.values()].filter((f) => f.view).map((f) => f.name);
    const datasets = this.ctx.datasetNames
      ? matchDatasetPattern(s.pattern, this.ctx.datasetNames)
      : this.ctx.lenientFields
        ? [s.pattern]
        : [];
    const names = [...matchDatasetPattern(s.pattern, views), ...datasets.filter((d) => !views.includes(d))];
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
  protected withVirtualFields(scan: PlanNode, dataset: string, span: SourceSpan): PlanNode {
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
}
