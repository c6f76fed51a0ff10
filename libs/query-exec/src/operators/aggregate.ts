/**
 * Hash group-by. Group ids are assigned per row from the key columns (a single string key maps
 * dictionary codes to groups once per batch); aggregators keep per-group partial states.
 */
import type {
  BoolColumn,
  Column,
  ColumnBatch,
  ColumnKind,
  NumericColumn,
  StringColumn,
} from '@quarry/contracts';
import type { AggregateNode } from '@quarry/query-plan';
import { buildColumn, readValue } from '../columns';
import { unifyKinds } from '../concat';
import { createAggregator } from '../aggregates/create-aggregator';
import { NUMERIC_KINDS } from '../eval/compare';
import { evaluate } from '../eval/evaluate';
import { asBool } from '../eval/logic';
import { toDynamic } from '../functions/scalar-impl';
import type { RowBudget } from '../limits';
import type { BatchStream, ExecEnv, PartialAggregateState } from './exec-env';
import type { Aggregator } from '../aggregates/aggregator';
import { CountAggregator, SumAggregator } from '../aggregates/basic-aggregators';
import { packInstances, unpackInstances } from '../aggregates/state-transfer';
import { rowsPerSlot, slotsByFirstRow } from '../aggregates/slot-lanes';
import type { EvalContext } from '../eval/context';

function keyPart(v: unknown): string {
  if (v === null || v === undefined) return '\u0000';
  if (typeof v === 'number') return 'n' + v;
  if (typeof v === 'string') return 's' + v;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  return 'j' + JSON.stringify(v);
}

export async function* aggregate(input: BatchStream, node: AggregateNode, env: ExecEnv): BatchStream {
  const partial = new PartialAggregate(node, env.budget);
  for await (const batch of input) partial.add(batch, env.ctx);
  yield partial.finish(env.counters);
}

/**
 * A summarize's state over part of its input: group ids by key, the kinds each key took, and one
 * aggregator state per aggregate. Parts computed elsewhere (worker threads, other query nodes) fold in
 * with `mergeFrom` (matching groups by key, then `Aggregator.merge`); `finish` turns the state into the
 * result batch. `toState` / `fromState` carry it across threads (aggregates/state-transfer.ts).
 */
export class PartialAggregate {
  private readonly table: GroupTable;
  private keyKinds: Set<ColumnKind>[];
  private aggregators: Aggregator[];
  /** Every aggregate is a plain `count()`, `sum(x)` or `avg(x)`: `sumsByDictionary` may apply. */
  private readonly perCodeAggregates: boolean;

  constructor(
    readonly node: AggregateNode,
    budget: RowBudget,
  ) {
    this.table = new GroupTable(node.keys.length, budget);
    this.keyKinds = node.keys.map(() => new Set());
    this.aggregators = node.aggs.map(createAggregator);
    this.perCodeAggregates = node.aggs.every(
      (call, a) =>
        call.predicate === null &&
        ((this.aggregators[a] instanceof CountAggregator && call.args.length === 0) ||
          (this.aggregators[a] instanceof SumAggregator && call.args.length === 1)),
    );
  }

  get groupCount(): number {
    return this.table.groupCount;
  }

  add(batch: ColumnBatch, ctx: EvalContext): void {
    const { node, table } = this;
    const n = batch.length;
    const keyCols = node.keys.map((k) => evaluate(k.expr, batch, ctx));
    keyCols.forEach((c, j) => this.keyKinds[j].add(c.kind));
    if (
      this.perCodeAggregates &&
      keyCols.length === 1 &&
      keyCols[0].kind === 'string' &&
      this.sumsByDictionary(keyCols[0], batch, ctx)
    )
      return;
    const groups = keyCols.length === 0 ? zeroGroups(n) : new Int32Array(n);
    if (keyCols.length === 1 && keyCols[0].kind === 'string') table.assignByDictionary(keyCols[0], groups, n);
    else if (keyCols.length === 1 && NUMERIC_KINDS.has(keyCols[0].kind))
      table.assignByNumber(keyCols[0] as NumericColumn, groups, n);
    else if (keyCols.length > 0) table.assignByRow(keyCols, groups, n);
    node.aggs.forEach((call, a) => {
      const args = call.args.map((e) => evaluate(e, batch, ctx));
      const predicate: BoolColumn | null = call.predicate
        ? asBool(evaluate(call.predicate, batch, ctx), n)
        : null;
      const aggregator = this.aggregators[a];
      if (keyCols.length === 0 && aggregator.updateAll) aggregator.updateAll(n, args, predicate);
      else aggregator.update(groups, n, args, predicate);
    });
  }

  /**
   * `summarize count(), sum(x), avg(x) … by <string>`: rows, sums and counts are kept per dictionary code
   * in plain loops and folded into their groups once per code, instead of a group id per row and an
   * indirect update per row and aggregate. Groups are created in order of first appearance, as the
   * general path creates them. False (nothing done) when an argument is not numeric in this batch.
   */
  private sumsByDictionary(key: StringColumn, batch: ColumnBatch, ctx: EvalContext): boolean {
    const { node, aggregators } = this;
    const args = node.aggs.map((call) =>
      call.args.length === 0 ? null : evaluate(call.args[0], batch, ctx),
    );
    if (args.some((c) => c !== null && !NUMERIC_KINDS.has(c.kind))) return false;
    const n = batch.length;
    const codes = key.codes;
    const nullSlot = key.dict.length;
    const rows = rowsPerSlot(codes, nullSlot, n);
    const firstSeen = slotsByFirstRow(codes, nullSlot, n, rows);
    const groupOfSlot = new Int32Array(nullSlot + 1).fill(-1);
    for (const slot of firstSeen)
      groupOfSlot[slot] = this.table.groupOfString(slot === nullSlot ? null : key.dict[slot]);
    args.forEach((column, a) => {
      const aggregator = aggregators[a];
      if (column === null) {
        for (const slot of firstSeen)
          (aggregator as CountAggregator).addToGroup(groupOfSlot[slot], rows[slot]);
      } else (aggregator as SumAggregator).updateBySlot(codes, nullSlot, n, column, groupOfSlot, rows);
    });
    return true;
  }

  /** Folds in the state of the same summarize over other rows. */
  mergeFrom(other: PartialAggregate): void {
    const groupMap = this.table.mergeGroups(other.table);
    other.keyKinds.forEach((kinds, j) => kinds.forEach((k) => this.keyKinds[j].add(k)));
    this.aggregators.forEach((aggregator, a) => aggregator.merge(other.aggregators[a], groupMap));
  }

  finish(counters: { numGroups: number }): ColumnBatch {
    const { node, table } = this;
    const groupCount = table.groupCount;
    const keyValues = table.keyValues;
    counters.numGroups = groupCount;
    const columns = new Map<string, Column>();
    node.keys.forEach((k, j) => {
      const kind = unifyKinds([...this.keyKinds[j]]);
      const vals = keyValues[j];
      const out = new Array(groupCount);
      for (let g = 0; g < groupCount; g++) out[g] = untag(vals[g], kind);
      columns.set(k.name, buildColumn(out, kinds(kind, node.schema[j].type)));
    });
    node.aggs.forEach((call, a) => {
      const outs = this.aggregators[a].finish(groupCount);
      call.outputs.forEach((f, j) => columns.set(f.name, buildColumn(outs[j].values, outs[j].kind)));
    });
    return { length: groupCount, columns };
  }

  /**
   * The state as plain data for another thread (the aggregators' classes travel as tags). With
   * `moveMinBytes`, the sender moves buffers of that size (`transferablesOf`) instead of copying them.
   */
  toState(moveMinBytes?: number): PartialAggregateState {
    for (const aggregator of this.aggregators) aggregator.prepareForTransfer?.(moveMinBytes);
    return {
      groups: this.table.toState(),
      keyKinds: this.keyKinds.map((kinds) => [...kinds]),
      aggregators: packInstances(this.aggregators),
    };
  }

  /**
   * Buffers of at least `minBytes` that only a state from `toState` holds (its aggregators' big sketch
   * arrays), for a sender that moves them to the receiving thread instead of copying them. Read on the
   * sending thread, before the state is cloned; the state must not be used there afterwards.
   */
  static transferablesOf(state: PartialAggregateState, minBytes: number): ArrayBuffer[] {
    const aggregators = state.aggregators.value as Aggregator[];
    return [...new Set(aggregators.flatMap((a) => a.transferables?.(minBytes) ?? []))];
  }

  /**
   * A state whose buffers moved untrimmed (`toState(moveMinBytes)`), trimmed for a copy or the wire: a
   * query node sends its workers' partials on to another node, where spare capacity would be bytes sent.
   */
  static trimmedState(state: PartialAggregateState): PartialAggregateState {
    const aggregators = unpackInstances(state.aggregators) as Aggregator[];
    for (const aggregator of aggregators) aggregator.prepareForTransfer?.();
    return { ...state, aggregators: packInstances(aggregators) };
  }

  /** A state made by `toState` on another thread, for the same node. */
  static fromState(node: AggregateNode, budget: RowBudget, state: PartialAggregateState): PartialAggregate {
    const partial = new PartialAggregate(node, budget);
    partial.table.loadState(state.groups);
    partial.keyKinds = state.keyKinds.map((kinds) => new Set(kinds));
    partial.aggregators = unpackInstances(state.aggregators) as Aggregator[];
    return partial;
  }
}

let sharedZeros = new Int32Array(0);

/** All-zero group ids for a summarize without keys; shared because aggregators only read them. */
function zeroGroups(n: number): Int32Array {
  if (sharedZeros.length < n) sharedZeros = new Int32Array(Math.max(n, 2 * sharedZeros.length));
  return sharedZeros.subarray(0, n);
}

/**
 * Group ids for key values, kept across batches. Each way of assigning ids is its own small function:
 * hot loops inside the async generator above would not be optimized as well.
 */
class GroupTable {
  keyValues: unknown[][];
  groupCount: number;
  /** Each group's key string (see `keyPart`), by group id: how groups of merged parts are matched. */
  private keys: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly numericGroups = new Map<number, number>();

  constructor(
    keyCount: number,
    private readonly budget: RowBudget,
  ) {
    this.keyValues = Array.from({ length: keyCount }, () => []);
    this.groupCount = keyCount === 0 ? 1 : 0;
    if (keyCount === 0) this.keys.push('');
  }

  private groupFor(key: string, values: unknown[]): number {
    let g = this.index.get(key);
    if (g === undefined) {
      g = this.groupCount++;
      if (g >= this.budget.limits.maxGroups) this.budget.checkGroups(g + 1);
      this.index.set(key, g);
      this.keys[g] = key;
      for (let j = 0; j < values.length; j++) this.keyValues[j][g] = values[j];
    }
    return g;
  }

  /** Adds the other table's groups; returns this table's group id for each of the other's. */
  mergeGroups(other: GroupTable): Int32Array {
    const map = new Int32Array(other.groupCount);
    if (this.keyValues.length === 0) return map; // one group, 0, on both sides
    for (let g = 0; g < other.groupCount; g++) {
      map[g] = this.groupFor(
        other.keys[g],
        other.keyValues.map((values) => values[g]),
      );
    }
    return map;
  }

  toState(): PartialAggregateState['groups'] {
    return { keys: this.keys, keyValues: this.keyValues, groupCount: this.groupCount };
  }

  loadState(state: PartialAggregateState['groups']): void {
    this.keys = state.keys;
    this.keyValues = state.keyValues;
    this.groupCount = state.groupCount;
    for (let g = 0; g < this.keys.length; g++) this.index.set(this.keys[g], g);
  }

  /** The group of one string key value (null for a null key). */
  groupOfString(v: string | null): number {
    // The same key string as `assignByRow` gives, so a value groups together whatever path found it.
    return this.groupFor(keyPart(v) + '\u0001', [v]);
  }

  /** One string key: each dictionary code is mapped to its group once per batch. */
  assignByDictionary(c: StringColumn, groups: Int32Array, n: number): void {
    const perCode = new Int32Array(c.dict.length).fill(-1);
    const codes = c.codes;
    let nullGroup = -1;
    for (let i = 0; i < n; i++) {
      const code = codes[i];
      let g = code < 0 ? nullGroup : perCode[code];
      if (g < 0) {
        g = this.groupOfString(code < 0 ? null : c.dict[code]);
        if (code < 0) nullGroup = g;
        else perCode[code] = g;
      }
      groups[i] = g;
    }
  }

  /** One numeric key (e.g. `bin(_time, 1h)`): runs of equal keys (time-sorted blocks) skip the lookups. */
  assignByNumber(c: NumericColumn, groups: Int32Array, n: number): void {
    const { values, nulls, kind } = c;
    let lastValue = NaN;
    let lastGroup = -1;
    for (let i = 0; i < n; i++) {
      const isNull = nulls !== null && nulls[i] === 1;
      const v = values[i];
      if (!isNull && v === lastValue) {
        groups[i] = lastGroup;
        continue;
      }
      let g = isNull ? undefined : this.numericGroups.get(v);
      if (g === undefined) {
        g = this.groupFor(keyPart(isNull ? null : v) + '\u0001', [tagKind(isNull ? null : v, kind)]);
        if (!isNull) this.numericGroups.set(v, g);
      }
      if (!isNull) {
        lastValue = v;
        lastGroup = g;
      }
      groups[i] = g;
    }
  }

  /** Several keys (or a dynamic one): a composite string key per row. */
  assignByRow(keyCols: Column[], groups: Int32Array, n: number): void {
    const row = new Array(keyCols.length);
    for (let i = 0; i < n; i++) {
      let key = '';
      for (let j = 0; j < keyCols.length; j++) {
        row[j] = readValue(keyCols[j], i);
        key += keyPart(row[j]) + '\u0001';
      }
      let g = this.index.get(key);
      if (g === undefined)
        g = this.groupFor(
          key,
          row.map((v, j) => tagKind(v, keyCols[j].kind)),
        );
      groups[i] = g;
    }
  }
}

function kinds(actual: ColumnKind, planned: ColumnKind): ColumnKind {
  return actual ?? planned;
}

/** Key values remember their kind so a datetime key stays a datetime when kinds are unified later. */
interface Tagged {
  __kind: ColumnKind;
  value: unknown;
}

function tagKind(v: unknown, kind: ColumnKind): unknown {
  return kind === 'datetime' || kind === 'timespan' ? ({ __kind: kind, value: v } as Tagged) : v;
}

function untag(v: unknown, unified: ColumnKind): unknown {
  if (v !== null && typeof v === 'object' && '__kind' in (v as object)) {
    const t = v as Tagged;
    return unified === 'dynamic' ? toDynamic(t.value, t.__kind) : t.value;
  }
  return v === undefined ? null : v;
}

export function countRows(batch: ColumnBatch): number {
  return batch.length;
}
