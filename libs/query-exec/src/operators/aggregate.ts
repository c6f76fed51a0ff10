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
import { evaluate } from '../eval/evaluate';
import { asBool } from '../eval/logic';
import { toDynamic } from '../functions/scalar-impl';
import type { RowBudget } from '../limits';
import type { BatchStream, ExecEnv } from './exec-env';

function keyPart(v: unknown): string {
  if (v === null || v === undefined) return '\u0000';
  if (typeof v === 'number') return 'n' + v;
  if (typeof v === 'string') return 's' + v;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  return 'j' + JSON.stringify(v);
}

export async function* aggregate(input: BatchStream, node: AggregateNode, env: ExecEnv): BatchStream {
  const table = new GroupTable(node.keys.length, env.budget);
  const keyKinds: Set<ColumnKind>[] = node.keys.map(() => new Set());
  const aggregators = node.aggs.map(createAggregator);

  for await (const batch of input) {
    const n = batch.length;
    const keyCols = node.keys.map((k) => evaluate(k.expr, batch, env.ctx));
    keyCols.forEach((c, j) => keyKinds[j].add(c.kind));
    const groups = keyCols.length === 0 ? zeroGroups(n) : new Int32Array(n);
    if (keyCols.length === 1 && keyCols[0].kind === 'string') table.assignByDictionary(keyCols[0], groups, n);
    else if (keyCols.length === 1 && isNumericKind(keyCols[0].kind))
      table.assignByNumber(keyCols[0] as NumericColumn, groups, n);
    else if (keyCols.length > 0) table.assignByRow(keyCols, groups, n);
    node.aggs.forEach((call, a) => {
      const args = call.args.map((e) => evaluate(e, batch, env.ctx));
      const predicate: BoolColumn | null = call.predicate
        ? asBool(evaluate(call.predicate, batch, env.ctx), n)
        : null;
      const aggregator = aggregators[a];
      if (keyCols.length === 0 && aggregator.updateAll) aggregator.updateAll(n, args, predicate);
      else aggregator.update(groups, n, args, predicate);
    });
  }
  const groupCount = table.groupCount;
  const keyValues = table.keyValues;
  env.counters.numGroups = groupCount;

  const columns = new Map<string, Column>();
  node.keys.forEach((k, j) => {
    const kind = unifyKinds([...keyKinds[j]]);
    const vals = keyValues[j];
    const out = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) out[g] = untag(vals[g], kind);
    columns.set(k.name, buildColumn(out, kinds(kind, node.schema[j].type)));
  });
  node.aggs.forEach((call, a) => {
    const outs = aggregators[a].finish(groupCount);
    call.outputs.forEach((f, j) => columns.set(f.name, buildColumn(outs[j].values, outs[j].kind)));
  });
  yield { length: groupCount, columns };
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
  readonly keyValues: unknown[][];
  groupCount: number;
  private readonly index = new Map<string, number>();
  private readonly numericGroups = new Map<number, number>();

  constructor(
    keyCount: number,
    private readonly budget: RowBudget,
  ) {
    this.keyValues = Array.from({ length: keyCount }, () => []);
    this.groupCount = keyCount === 0 ? 1 : 0;
  }

  private groupFor(key: string, values: unknown[]): number {
    let g = this.index.get(key);
    if (g === undefined) {
      g = this.groupCount++;
      if (g >= this.budget.limits.maxGroups) this.budget.checkGroups(g + 1);
      this.index.set(key, g);
      for (let j = 0; j < values.length; j++) this.keyValues[j][g] = values[j];
    }
    return g;
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
        const v = code < 0 ? null : c.dict[code];
        g = this.groupFor(keyPart(v), [v]);
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

function isNumericKind(k: ColumnKind): boolean {
  return k === 'long' || k === 'real' || k === 'datetime' || k === 'timespan';
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
