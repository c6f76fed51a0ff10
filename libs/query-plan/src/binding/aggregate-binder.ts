/**
 * `summarize` and `make-series`: group keys, aggregate calls with their output names, and
 * expressions over aggregates (lifted into the aggregate node, computed after it).
 */
import { aplError, type Assignment, type Expr, type Operator } from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import { call, col, type PExpr } from '../expr';
import { AGGREGATE_SIGNATURES } from '../functions/aggregate-signatures';
import { aggregateArgumentError } from '../functions/argument-types';
import { SCALAR_SIGNATURES } from '../functions/scalar-signatures';
import type { AggregateCall, AggregateNode, NamedExpr, PlanNode } from '../nodes/plan-node';
import type { Field } from '../types';
import { TIME_FIELD, containsAggregate, liftAggregates, checkArity } from './binding-helpers';
import { ExpressionBinder } from './expression-binder';

export abstract class AggregateBinder extends ExpressionBinder {
  protected buildSummarize(
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

  protected buildMakeSeries(input: PlanNode, op: Extract<Operator, { kind: 'make-series' }>): PlanNode {
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
    // A series per aggregation: those with several result columns (percentiles, take_any(a, b), arg_max)
    // would lose all but the first.
    aggs.forEach((a, i) => {
      if (a.outputs.length > 1)
        throw aplError(
          'apl_invalid_argument',
          { name: a.fn, reason: 'make-series takes aggregations with one result column' },
          op.aggs[i].item.expr.span,
        );
    });
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
    let startMs = bound(op.from);
    let endMs = bound(op.to);
    if (op.inRange && startMs !== null && endMs !== null) {
      // `in range(start, stop, step)` (Kusto's alternate syntax): bins of `bin()`, so the first is
      // bin(start), and `stop` is inclusive, so the last is bin(stop).
      startMs = Math.floor(startMs / stepMs) * stepMs;
      endMs = Math.floor(endMs / stepMs) * stepMs + stepMs;
    }
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
      startMs,
      endMs,
      ...(op.nonempty ? { nonempty: true as const } : {}),
      schema,
    };
  }

  protected buildAggregateNode(input: PlanNode, keys: NamedExpr[], aggs: AggregateCall[]): AggregateNode {
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

  protected bindAggregate(
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
    checkArity(e.name, sig, e.args.length, e.span);
    // `*` is an argument only of `count(*)`, `presence(*)`, `take_any(*)` and of the extra columns of
    // `arg_max`/`arg_min` (`arg_max(x, *)`).
    e.args.forEach((a, i) => {
      if (a.kind !== 'star') return;
      const allowed =
        (sig.name === 'count' && e.args.length === 1) ||
        (sig.name === 'presence' && e.args.length === 1) ||
        ((sig.name === 'take_any' || sig.name === 'any') && e.args.length === 1) ||
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
      case 'percentiles':
      case 'percentiles_array':
      case 'percentiles_arrayif':
      case 'percentilew':
      case 'percentilesw':
      case 'percentilesw_array': {
        // The weighted forms take (x, weight, ranks…); the others (x, ranks…).
        const valueCount = sig.name.startsWith('percentilew') || sig.name.startsWith('percentilesw') ? 2 : 1;
        valueArgs = values.slice(0, valueCount);
        for (const p of values.slice(valueCount)) {
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
      case 'make_list':
      case 'make_list_if':
      case 'make_set':
      case 'make_set_if':
        valueArgs = values.slice(0, 1);
        for (const p of values.slice(1)) params.push(this.constantOf(p, e.span, sig.name));
        // The size cap of make_list / make_set.
        if (params.length > 0) {
          const cap = params[0];
          if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1)
            throw aplError(
              'apl_invalid_argument',
              { name: sig.name, reason: 'the maximum size must be a positive integer' },
              e.span,
            );
        }
        break;
      case 'dcount':
      case 'dcountif':
      case 'hll':
      case 'hll_if':
      case 'hll_merge': {
        // Kusto's accuracy levels 0–4: 2^12, 2^14 (the default, 1), 2^16, 2^17, 2^18 registers.
        valueArgs = values.slice(0, 1);
        for (const p of values.slice(1)) params.push(this.constantOf(p, e.span, sig.name));
        const level = params[0];
        if (
          level !== undefined &&
          !(typeof level === 'number' && Number.isInteger(level) && level >= 0 && level <= 4)
        )
          throw aplError(
            'apl_invalid_argument',
            { name: sig.name, reason: 'the accuracy must be an integer from 0 to 4' },
            e.span,
          );
        break;
      }
      case 'make_bag':
      case 'make_bag_if':
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
    if (sig.name === 'take_any' || sig.name === 'any' || sig.name === 'take_anyif' || sig.name === 'anyif') {
      return this.bindTakeAny(sig.name, e.args, values, predicate, fields, item, uniqueName, isUsed);
    }
    if (sig.name === 'percentiles' || sig.name === 'percentilesw') {
      // Kusto: one column per rank, `percentile_x_p` (`.` → `_`), e.g. `percentile_LatencyBucket_99_9`.
      const outputs = params.map((p, j) => ({
        name: uniqueName(
          item.names?.[j]?.name ??
            (j === 0 && item.name ? item.name : `percentile_${argName(valueArgs[0])}_${rankSuffix(p)}`),
        ),
        type,
      }));
      return { fn: sig.name, args: valueArgs, predicate, outputs, params };
    }
    let base = item.name;
    if (!base) {
      if (sig.name === 'count' || sig.name === 'countif' || sig.name === 'presence') base = `${sig.name}_`;
      else if (sig.name === 'percentiles_array') base = `percentiles_${argName(valueArgs[0])}`;
      else if (sig.name === 'percentilew')
        base = `percentile_${argName(valueArgs[0])}_${rankSuffix(params[0])}`;
      else if (sig.name === 'percentilesw_array') base = `percentilesw_${argName(valueArgs[0])}`;
      // Kusto's tdigest_merge page names its output `merge_tdigests_x`.
      else if (sig.name === 'tdigest_merge' || sig.name === 'merge_tdigest')
        base = `merge_tdigests_${argName(valueArgs[0])}`;
      else base = `${sig.name}_${argName(valueArgs[0])}`;
      // Axiom names `percentile(x, p)` `percentile_x`; a second rank of the same field gets Kusto's `_p` suffix.
      if (sig.name === 'percentile' && isUsed(base)) base = `${base}_${String(params[0]).replace('.', '_')}`;
    }
    return { fn: sig.name, args: valueArgs, predicate, outputs: [{ name: uniqueName(base), type }], params };
  }

  /**
   * `hll_merge(h1, h2, …)`, `tdigest_merge(t1, …)` / `merge_tdigest(t1, …)` outside summarize: Kusto has
   * them as aggregations and as scalar functions, so a call that is not an aggregation (here, not lifted
   * by summarize) is the scalar form rather than an aggregation in the wrong place.
   */
  protected override bindCall(e: Extract<Expr, { kind: 'call' }>, fields: Field[]): PExpr {
    const scalar = SCALAR_SIGNATURES.get(e.name);
    if (scalar === undefined || !AGGREGATE_SIGNATURES.has(e.name) || this.functions.has(e.name))
      return super.bindCall(e, fields);
    checkArity(e.name, scalar, e.args.length, e.span);
    const args = e.args.map((a) => this.bindExpr(a, fields));
    return call(e.name, args, scalar.returns(args.map((a) => a.type)));
  }

  /**
   * `take_any(e1, …)` / `take_any(*)` / `take_anyif(e, p)` (and the deprecated `any`, `anyif`): one output
   * per expression, named after its column (`any`/`anyif` prefix `any_`, as Kusto's pages say); `*` is every
   * input column but the group keys.
   */
  private bindTakeAny(
    fn: 'take_any' | 'any' | 'take_anyif' | 'anyif',
    written: Expr[],
    values: PExpr[],
    predicate: PExpr | null,
    fields: Field[],
    item: Assignment,
    uniqueName: (base: string) => string,
    isUsed: (name: string) => boolean,
  ): AggregateCall {
    const star = written.length === 1 && written[0].kind === 'star';
    const args = star ? fields.filter((f) => !isUsed(f.name)).map((f) => col(f.name, f.type)) : values;
    const prefix = fn === 'any' || fn === 'anyif' ? 'any_' : '';
    const outputs = args.map((a, j) => {
      const own = a.kind === 'col' ? `${prefix}${a.name}` : `${fn}_`;
      const name = item.names?.[j]?.name ?? (j === 0 && item.name ? item.name : own);
      return { name: uniqueName(name), type: a.type };
    });
    return { fn, args, predicate, outputs, params: [] };
  }
}

/** A percentile rank as a column-name suffix: `99.9` → `99_9`. */
function rankSuffix(p: unknown): string {
  return String(p).replace('.', '_');
}
