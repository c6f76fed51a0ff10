/**
 * The tabular operators after `|`, each turned into plan nodes over its input.
 */
import { aplError, type Expr, type NamePattern, type Operator, type TabularExpr } from '@quarry/apl';
import { call, col, lit } from '../expr';
import { type NamedExpr, type ParseKvOptions, type PlanNode, hasField } from '../nodes/plan-node';
import { unifyTypes, type AplType, type Field } from '../types';
import {
  operatorHasWindows,
  escapeRegExp,
  wireName,
  codePointCompare,
  naturalCompare,
  keepOnlyValid,
  caseSensitiveMatches,
  joinOnColumn,
} from './binding-helpers';
import { SEARCH_TABLE_COLUMN, UNNAMED_INPUT, searchTableName } from './search-table';
import { WindowBinder } from './window-binder';

export abstract class OperatorBinder extends WindowBinder {
  /** Built by PlanBuilder: the legs of a union, patterns expanded (`isfuzzy` skips missing ones). */
  protected abstract buildUnionLegs(
    legs: TabularExpr[],
    fuzzy: boolean,
  ): { plans: PlanNode[]; tables: TabularExpr[] };

  /**
   * Built by PlanBuilder: `as hint.materialized=true` (Kusto: as if wrapped in `materialize()`), the plan
   * computed once for this use and every later reference to its name.
   */
  protected abstract materializeNamed(plan: PlanNode): PlanNode;

  /** Plans named by `as` (Kusto): the name `union withsource=` and `search`'s `$table` give their rows. */
  private readonly asNames = new WeakMap<PlanNode, string>();

  protected override buildOperator(input: PlanNode, given: Operator): PlanNode {
    const fields = input.schema;
    const inlined = this.inlineWindowFunctions(given);
    if (operatorHasWindows(inlined)) return this.buildWithWindows(input, inlined);
    const op = given;
    switch (op.kind) {
      case 'serialize':
        return this.buildSerialize(input, op);
      case 'mv-apply':
        return this.buildMvApply(input, op);
      case 'top-nested':
        return this.buildTopNested(input, op);
      case 'as': {
        // The rows pass unchanged (computed once with hint.materialized=true); a union (withsource=) and
        // a search ($table) report the name for this input.
        const named = op.materialized ? this.materializeNamed(input) : input;
        this.asNames.set(named, op.name);
        // Later parts of the query (a join's right side, a union leg) may name it as a table (Kusto).
        this.define(op.name, () => this.tableLets.set(op.name, named));
        return named;
      }
      case 'where':
        return { kind: 'filter', input, predicate: this.bindPredicate(op.predicate, fields), schema: fields };
      case 'search':
        return this.buildSearch(input, op);
      case 'sample': {
        // A whole-number (long) argument is Kusto's row count: that many rows drawn at random
        // (`sample 1`); a real is Axiom's probability per row (`sample 0.05`).
        if (this.bindExpr(op.fraction, fields).type === 'long') {
          return {
            kind: 'top',
            input,
            count: this.constantCount(op.fraction, fields, 'sample'),
            keys: [{ expr: call('rand', [], 'real'), desc: false, nullsFirst: false }],
            schema: fields,
          };
        }
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
        const legs = this.buildUnionLegs(op.tables, op.fuzzy === true);
        const others = legs.plans;
        return this.buildUnion(
          [input, ...others],
          [
            { source: { kind: 'dataset', name: UNNAMED_INPUT, span: op.span }, operators: [], span: op.span },
            ...legs.tables,
          ],
          op.withSource,
        );
      }
    }
  }

  /**
   * `mv-apply` (Kusto) as operators Quarry has: the input rows are numbered (`serialize __mva_row =
   * row_number()`); the subtables are `project __mva_row, <other columns>, Items | mv-expand Items`; the
   * subquery runs over
   * them with each operator made per subtable (`summarize … by __mva_row, …`, `top`/`take` as a
   * `row_number` that restarts at each subtable, `sort by __mva_row, …`); its rows are joined back to the
   * input row's other columns, in input order. A column expanded without a new name is replaced.
   */
  protected buildMvApply(input: PlanNode, op: Extract<Operator, { kind: 'mv-apply' }>): PlanNode {
    const ROW = '__mva_row';
    const SEQ = '__mva_seq';
    const RN = '__mva_rn';
    const span = op.span;
    const name = (n: string): Expr => ({ kind: 'name', name: n, quoted: true, span });
    const fn = (n: string, args: Expr[]): Expr => ({ kind: 'call', name: n, args, nameSpan: span, span });
    const rowKey = { name: ROW, expr: name(ROW), span };
    const numbered = this.buildOperator(input, {
      kind: 'serialize',
      items: [{ name: ROW, expr: fn('row_number', []), span }],
      span,
    });
    // The subtables: the row number and each expanded expression under its column name.
    const replaced = new Set<string>();
    const names = op.expand.items.map((item) => {
      if (item.name) return item.name;
      if (item.expr.kind === 'name') {
        replaced.add(item.expr.name);
        return item.expr.name;
      }
      throw aplError(
        'apl_invalid_argument',
        { name: 'mv-apply', reason: 'name an expanded expression that is not a column (Name = Expr)' },
        item.span,
      );
    });
    // The subquery also sees the row's other columns (Kusto's property-bag example expands `Pack` there).
    const passed = numbered.schema.filter(
      (f) => f.name !== ROW && !replaced.has(f.name) && !names.includes(f.name),
    );
    let sub = this.buildOperator(numbered, {
      kind: 'project',
      items: [
        rowKey,
        ...passed.map((f) => ({ name: f.name, expr: name(f.name), span })),
        ...op.expand.items.map((item, i) => ({ name: names[i], expr: item.expr, span: item.span })),
      ],
      span,
    });
    sub = this.buildOperator(sub, {
      ...op.expand,
      items: op.expand.items.map((item, i) => ({ ...item, name: undefined, expr: name(names[i]) })),
    });
    const perSubtable = (from: PlanNode, count: Expr): PlanNode => {
      const restart = fn('row_number', [
        { kind: 'literal', type: 'long', value: 1, span },
        { kind: 'binary', op: '!=', left: name(ROW), right: fn('prev', [name(ROW)]), opSpan: span, span },
      ]);
      let n = this.buildOperator(from, {
        kind: 'serialize',
        items: [{ name: RN, expr: restart, span }],
        span,
      });
      n = this.buildOperator(n, {
        kind: 'where',
        predicate: { kind: 'binary', op: '<=', left: name(RN), right: count, opSpan: span, span },
        span,
      });
      return this.projectFields(
        n,
        n.schema.filter((f) => f.name !== RN),
      );
    };
    for (const step of op.body) {
      switch (step.kind) {
        case 'where':
        case 'extend':
        case 'parse':
        case 'parse-kv':
        case 'mv-expand':
        case 'project-rename':
        case 'project-away':
        case 'search':
        case 'redact':
          sub = this.buildOperator(sub, step);
          break;
        case 'project':
          sub = this.buildOperator(sub, { ...step, items: [rowKey, ...step.items] });
          break;
        case 'project-keep':
        case 'project-reorder':
          sub = this.buildOperator(sub, {
            ...step,
            patterns: [{ pattern: ROW, wildcard: false, span }, ...step.patterns],
          });
          break;
        case 'summarize':
          sub =
            step.by.length === 0
              ? this.summarizeEachSubtable(numbered, sub, step, ROW)
              : this.buildOperator(sub, { ...step, by: [rowKey, ...step.by] });
          break;
        case 'count':
          sub = this.summarizeEachSubtable(
            numbered,
            sub,
            { kind: 'summarize', aggs: [{ name: 'Count', expr: fn('count', []), span }], by: [], span },
            ROW,
          );
          break;
        case 'distinct':
          if (!(step.items.length === 1 && step.items[0].kind === 'star'))
            sub = this.buildOperator(sub, { ...step, items: [name(ROW), ...step.items] });
          else sub = this.buildOperator(sub, step);
          break;
        case 'sort':
          sub = this.buildOperator(sub, {
            ...step,
            keys: [{ expr: name(ROW), desc: false, nullsFirst: false, span }, ...step.keys],
          });
          break;
        case 'take':
          sub = perSubtable(sub, step.count);
          break;
        case 'top':
          sub = this.buildOperator(sub, {
            kind: 'sort',
            keys: [{ expr: name(ROW), desc: false, nullsFirst: false, span }, ...step.keys],
            span,
          });
          sub = perSubtable(sub, step.count);
          break;
        default:
          throw aplError(
            'apl_unsupported',
            {
              what: `'${step.kind}' inside mv-apply (Quarry runs row-wise operators, summarize, count, distinct, sort, top and take there)`,
            },
            step.span,
          );
      }
    }
    sub = this.buildOperator(sub, {
      kind: 'serialize',
      items: [{ name: SEQ, expr: fn('row_number', []), span }],
      span,
    });
    const left = this.projectFields(
      numbered,
      numbered.schema.filter((f) => !replaced.has(f.name)),
    );
    const schema = [...left.schema];
    const rightNames: (string | null)[] = [];
    for (const f of sub.schema) {
      // The row's own columns come from the input row (the left side), in input order.
      if (f.name === ROW || hasField(left.schema, f.name)) {
        rightNames.push(null);
        continue;
      }
      let out = f.name;
      for (let n = 1; hasField(schema, out); n++) out = `${f.name}${n}`;
      rightNames.push(out);
      schema.push({ name: out, type: f.type });
    }
    const joined: PlanNode = {
      kind: 'join',
      left,
      right: sub,
      joinKind: 'inner',
      on: [{ left: ROW, right: ROW }],
      rightNames,
      schema,
    };
    const sorted = this.buildOperator(joined, {
      kind: 'sort',
      keys: [
        { expr: name(ROW), desc: false, nullsFirst: false, span },
        { expr: name(SEQ), desc: false, nullsFirst: false, span },
      ],
      span,
    });
    return this.projectFields(
      sorted,
      sorted.schema.filter((f) => f.name !== ROW && f.name !== SEQ),
    );
  }

  /**
   * A `summarize` without `by` inside `mv-apply`: one row for each input row, as Kusto runs it on each
   * row's subtable, also one the subquery emptied (a `where` that keeps nothing). Input rows for which
   * the summarize by row number has no group get the summarize of no rows (`count()` 0, `make_list` []),
   * joined to them on a constant key.
   */
  private summarizeEachSubtable(
    numbered: PlanNode,
    sub: PlanNode,
    step: Extract<Operator, { kind: 'summarize' }>,
    row: string,
  ): PlanNode {
    const span = step.span;
    const KEY = '__mva_k';
    const rowName: Expr = { kind: 'name', name: row, quoted: true, span };
    const perRow = this.buildOperator(sub, { ...step, by: [{ name: row, expr: rowName, span }] });
    const none = this.buildOperator(
      this.buildOperator(sub, {
        kind: 'where',
        predicate: { kind: 'literal', type: 'bool', value: false, span },
        span,
      }),
      step,
    );
    const rows = this.projectFields(
      numbered,
      numbered.schema.filter((f) => f.name === row),
    );
    const missing: PlanNode = {
      kind: 'join',
      left: rows,
      right: perRow,
      joinKind: 'leftanti',
      on: [{ left: row, right: row }],
      rightNames: perRow.schema.map(() => null),
      schema: [...rows.schema],
    };
    const keyed = (input: PlanNode) =>
      this.buildOperator(input, {
        kind: 'extend',
        items: [{ name: KEY, expr: { kind: 'literal', type: 'long', value: 1, span }, span }],
        span,
      });
    const filled = joinOnColumn(keyed(missing), keyed(none), KEY, 'inner');
    return {
      kind: 'union',
      inputs: [perRow, this.projectFields(filled, perRow.schema)],
      sourceNames: ['', ''],
      schema: perRow.schema.map((f) => ({ ...f })),
    };
  }

  /**
   * `top-nested` (Kusto) as operators Quarry has. Level k groups the rows that reached it (a join with
   * level k-1's kept values) by the values of levels 0..k, aggregates, and keeps each parent's N best
   * (a `row_number` restarting at each parent, after sorting by parent and aggregate). Output: per level
   * the value and its aggregate (`aggregated_<Expr>` unless named), ordered level by level by aggregate.
   */
  protected buildTopNested(input: PlanNode, op: Extract<Operator, { kind: 'top-nested' }>): PlanNode {
    const span = op.span;
    const name = (n: string): Expr => ({ kind: 'name', name: n, quoted: true, span });
    const fn = (n: string, args: Expr[]): Expr => ({ kind: 'call', name: n, args, nameSpan: span, span });
    const V = (k: number) => `__tn_v${k}`;
    const A = (k: number) => `__tn_a${k}`;
    const G = '__tn_g';
    const RN = '__tn_rn';
    const outNames = op.clauses.map((c) => {
      const value = c.value.name ?? (c.value.expr.kind === 'name' ? c.value.expr.name : undefined);
      if (!value)
        throw aplError(
          'apl_invalid_argument',
          { name: 'top-nested', reason: 'name a value that is not a column (Name = Expr)' },
          c.value.span,
        );
      return { value, agg: c.agg.name ?? `aggregated_${value}` };
    });
    const base = this.buildOperator(input, {
      kind: 'extend',
      items: op.clauses.map((c, k) => ({ name: V(k), expr: c.value.expr, span: c.value.span })),
      span,
    });
    if (op.clauses.some((c) => c.others)) return this.buildTopNestedWithOthers(base, op, outNames);
    let level: PlanNode | null = null;
    op.clauses.forEach((c, k) => {
      let rows = base;
      if (level) {
        const on = Array.from({ length: k }, (_, j) => ({ left: V(j), right: V(j) }));
        const keys = new Set(on.map((o) => o.right));
        const rightNames = level.schema.map((f) => (keys.has(f.name) ? null : f.name));
        rows = {
          kind: 'join',
          left: base,
          right: level,
          joinKind: 'inner',
          on,
          rightNames,
          schema: [...base.schema, ...level.schema.filter((f) => !keys.has(f.name))],
        };
      }
      const parents = Array.from({ length: k }, (_, j) => [V(j), A(j)]).flat();
      let next = this.buildOperator(rows, {
        kind: 'summarize',
        aggs: [{ name: A(k), expr: c.agg.expr, span: c.agg.span }],
        by: [...parents, V(k)].map((n) => ({ name: n, expr: name(n), span })),
        span,
      });
      if (c.count) {
        const byAgg = { expr: name(A(k)), desc: c.desc, nullsFirst: !c.desc, span };
        if (k === 0) {
          next = this.buildOperator(next, { kind: 'top', count: c.count, keys: [byAgg], span });
        } else {
          const parent = fn('tostring', [
            fn(
              'pack_array',
              Array.from({ length: k }, (_, j) => name(V(j))),
            ),
          ]);
          next = this.buildOperator(next, { kind: 'extend', items: [{ name: G, expr: parent, span }], span });
          next = this.buildOperator(next, {
            kind: 'sort',
            keys: [{ expr: name(G), desc: false, nullsFirst: true, span }, byAgg],
            span,
          });
          const restart = fn('row_number', [
            { kind: 'literal', type: 'long', value: 1, span },
            { kind: 'binary', op: '!=', left: name(G), right: fn('prev', [name(G)]), opSpan: span, span },
          ]);
          next = this.buildOperator(next, {
            kind: 'serialize',
            items: [{ name: RN, expr: restart, span }],
            span,
          });
          next = this.buildOperator(next, {
            kind: 'where',
            predicate: { kind: 'binary', op: '<=', left: name(RN), right: c.count, opSpan: span, span },
            span,
          });
          next = this.projectFields(
            next,
            next.schema.filter((f) => f.name !== G && f.name !== RN),
          );
        }
      }
      level = next;
    });
    const sorted = this.buildOperator(level!, {
      kind: 'sort',
      keys: op.clauses.flatMap((c, k) => [
        { expr: name(A(k)), desc: c.desc, nullsFirst: !c.desc, span },
        { expr: name(V(k)), desc: false, nullsFirst: true, span },
      ]),
      span,
    });
    return this.buildOperator(sorted, {
      kind: 'project',
      items: outNames.flatMap((n, k) => [
        { name: n.value, expr: name(V(k)), span },
        { name: n.agg, expr: name(A(k)), span },
      ]),
      span,
    });
  }

  /**
   * `top-nested` with `with others = C` at some level, as the examples on Kusto's page show it: each row
   * gets a path. At level k a row keeps its value when its path is still real and the value is among its
   * parent's N best; otherwise the path turns "other" for good and the level's value is C (or null at a
   * level without `with others`), its aggregate null there. Each level's aggregate is over the rows of the
   * path so far. The output is every path that is real throughout or has a C somewhere.
   */
  private buildTopNestedWithOthers(
    base: PlanNode,
    op: Extract<Operator, { kind: 'top-nested' }>,
    outNames: { value: string; agg: string }[],
  ): PlanNode {
    const span = op.span;
    const name = (n: string): Expr => ({ kind: 'name', name: n, quoted: true, span });
    const fn = (n: string, args: Expr[]): Expr => ({ kind: 'call', name: n, args, nameSpan: span, span });
    const bin = (o: string, left: Expr, right: Expr): Expr => ({
      kind: 'binary',
      op: o,
      left,
      right,
      opSpan: span,
      span,
    });
    const bool = (v: boolean): Expr => ({ kind: 'literal', type: 'bool', value: v, span });
    const V = (k: number) => `__tn_v${k}`;
    const O = (k: number) => `__tn_o${k}`;
    const A = (k: number) => `__tn_a${k}`;
    const C = (k: number) => `__tn_c${k}`;
    const [P, OTHER, KEY, KEEP, IN, S, RN] = [
      '__tn_p',
      '__tn_other',
      '__tn_key',
      '__tn_keep',
      '__tn_in',
      '__tn_s',
      '__tn_rn',
    ];
    const extend = (n: PlanNode, items: [string, Expr][]) =>
      this.buildOperator(n, {
        kind: 'extend',
        items: items.map(([x, expr]) => ({ name: x, expr, span })),
        span,
      });
    const leftOuter = (left: PlanNode, right: PlanNode, key: string) =>
      joinOnColumn(left, right, key, 'leftouter');
    const drop = (n: PlanNode, names: string[]) =>
      this.projectFields(
        n,
        n.schema.filter((f) => !names.includes(f.name)),
      );
    let cur = extend(base, [
      [P, { kind: 'literal', type: 'string', value: '', span }],
      [OTHER, bool(false)],
    ]);
    op.clauses.forEach((c, k) => {
      const type = base.schema.find((f) => f.name === V(k))!.type;
      // The values each real parent keeps.
      let kept = this.buildOperator(cur, { kind: 'where', predicate: fn('not', [name(OTHER)]), span });
      kept = this.buildOperator(kept, {
        kind: 'summarize',
        aggs: [{ name: S, expr: c.agg.expr, span: c.agg.span }],
        by: [P, V(k)].map((x) => ({ name: x, expr: name(x), span })),
        span,
      });
      if (c.count) {
        kept = this.buildOperator(kept, {
          kind: 'sort',
          keys: [
            { expr: name(P), desc: false, nullsFirst: true, span },
            { expr: name(S), desc: c.desc, nullsFirst: !c.desc, span },
          ],
          span,
        });
        const restart = fn('row_number', [
          { kind: 'literal', type: 'long', value: 1, span },
          bin('!=', name(P), fn('prev', [name(P)])),
        ]);
        kept = this.buildOperator(kept, {
          kind: 'serialize',
          items: [{ name: RN, expr: restart, span }],
          span,
        });
        kept = this.buildOperator(kept, { kind: 'where', predicate: bin('<=', name(RN), c.count), span });
      }
      const keyOf = fn('tostring', [fn('pack_array', [name(P), name(V(k))])]);
      kept = this.buildOperator(kept, {
        kind: 'project',
        items: [
          { name: KEY, expr: keyOf, span },
          { name: KEEP, expr: bool(true), span },
        ],
        span,
      });
      cur = leftOuter(extend(cur, [[KEY, keyOf]]), kept, KEY);
      const otherValue: Expr = c.others ?? { kind: 'literal', type, value: null, span };
      cur = extend(cur, [[IN, bin('and', fn('not', [name(OTHER)]), fn('isnotnull', [name(KEEP)]))]]);
      cur = extend(cur, [
        [O(k), fn('iff', [name(IN), name(V(k)), otherValue])],
        [C(k), bin('and', fn('not', [name(IN)]), bool(c.others !== undefined))],
        [OTHER, fn('not', [name(IN)])],
      ]);
      cur = extend(cur, [[P, fn('tostring', [fn('pack_array', [name(P), name(O(k)), name(OTHER)])])]]);
      cur = drop(cur, [KEY, KEEP, IN]);
      // The level's aggregate over the rows of each path so far (null for an "other" without C).
      const aggs = this.buildOperator(cur, {
        kind: 'summarize',
        aggs: [{ name: A(k), expr: c.agg.expr, span: c.agg.span }],
        by: [{ name: P, expr: name(P), span }],
        span,
      });
      cur = leftOuter(cur, aggs, P);
      const aggType = cur.schema.find((f) => f.name === A(k))!.type;
      cur = extend(cur, [
        [
          A(k),
          fn('iff', [
            bin('and', name(OTHER), fn('not', [name(C(k))])),
            { kind: 'literal', type: aggType, value: null, span },
            name(A(k)),
          ]),
        ],
      ]);
    });
    const K = op.clauses.length;
    const anyC = op.clauses.map((_, k) => name(C(k))).reduce((l, r) => bin('or', l, r));
    cur = this.buildOperator(cur, {
      kind: 'where',
      predicate: bin('or', fn('not', [name(OTHER)]), anyC),
      span,
    });
    const cols = Array.from({ length: K }, (_, k) => [O(k), A(k), C(k)]).flat();
    cur = this.buildOperator(cur, {
      kind: 'summarize',
      aggs: [],
      by: [P, OTHER, ...cols].map((x) => ({ name: x, expr: name(x), span })),
      span,
    });
    cur = this.buildOperator(cur, {
      kind: 'sort',
      keys: op.clauses.flatMap((c, k) => [
        // At each level the kept values first (by aggregate), then the level's others.
        { expr: name(C(k)), desc: false, nullsFirst: true, span },
        { expr: name(A(k)), desc: c.desc, nullsFirst: !c.desc, span },
        { expr: name(O(k)), desc: false, nullsFirst: true, span },
      ]),
      span,
    });
    return this.buildOperator(cur, {
      kind: 'project',
      items: outNames.flatMap((n, k) => [
        { name: n.value, expr: name(O(k)), span },
        { name: n.agg, expr: name(A(k)), span },
      ]),
      span,
    });
  }

  protected matchPatterns(patterns: NamePattern[], fields: Field[]): Set<string> {
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

  /**
   * `parse-kv`: a parse whose captures are the listed keys (ParseNode mode `kv`): each column is its key's
   * value converted to the key's type, null when the key is absent or the value does not convert.
   */
  protected buildParseKv(input: PlanNode, op: Extract<Operator, { kind: 'parse-kv' }>): PlanNode {
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
  protected buildRedact(input: PlanNode, op: Extract<Operator, { kind: 'redact' }>): PlanNode {
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

  /**
   * `T | search Predicate`: the matching rows, led by a string column `$table` naming where they came from
   * (Kusto's search page: the output always has it). An input that has `$table` already (a leading
   * `search`'s union, which names each row's dataset) keeps it. The column is a constant projected after
   * the filter, so bare terms match the row's own fields only and raw rows stay a raw (newest-first) stream.
   */
  private buildSearch(input: PlanNode, op: Extract<Operator, { kind: 'search' }>): PlanNode {
    const fields = input.schema;
    const predicate = this.bindSearch(op.predicate, fields, op.caseSensitive, op.sourceColumn);
    const filtered: PlanNode = {
      kind: 'filter',
      input,
      predicate: op.caseSensitive ? caseSensitiveMatches(predicate) : predicate,
      schema: fields,
    };
    if (hasField(fields, SEARCH_TABLE_COLUMN)) return filtered;
    const table = lit(searchTableName(input, this.asNames), 'string');
    return {
      kind: 'project',
      input: filtered,
      items: [
        { name: SEARCH_TABLE_COLUMN, expr: table },
        ...fields.map((f) => ({ name: f.name, expr: col(f.name, f.type) })),
      ],
      schema: [{ name: SEARCH_TABLE_COLUMN, type: 'string' }, ...fields.map((f) => ({ ...f }))],
    };
  }

  protected buildUnion(inputs: PlanNode[], exprs: TabularExpr[], withSource?: string): PlanNode {
    const schema: Field[] = [];
    if (withSource) schema.push({ name: withSource, type: 'string' });
    for (const input of inputs) {
      for (const f of input.schema) {
        const existing = schema.find((x) => x.name === f.name);
        if (existing) existing.type = unifyTypes(existing.type, f.type);
        else schema.push({ ...f });
      }
    }
    const sourceNames = exprs.map(
      (e, i) => this.asNames.get(inputs[i]) ?? (e.source.kind === 'dataset' ? e.source.name : 'union'),
    );
    return { kind: 'union', inputs, sourceNames, withSource, schema };
  }
}
