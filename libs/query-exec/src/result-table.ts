/**
 * Converts the final batch to a tabular result table (api.md §4.3): column-major JSON values, datetimes
 * as RFC 3339, NaN/Infinity as null, field types as wire type names.
 */
import { formatRfc3339 } from '@quarry/common';
import {
  wireTypeOfKind,
  type Column,
  type ColumnBatch,
  type ResultField,
  type ResultTable,
} from '@quarry/contracts';
import type { AggregateNode, Field, PlanNode } from '@quarry/query-plan';
import { AGGREGATE_SIGNATURES, joinRowSource } from '@quarry/query-plan';
import { formatTimespan, readValue } from './columns';

function jsonValue(v: unknown, c: Column): unknown {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'datetime':
      return formatRfc3339(v as number);
    case 'timespan':
      return formatTimespan(v as number);
    case 'real':
    case 'long':
      return Number.isFinite(v as number) ? v : null;
    case 'dynamic':
      return sanitize(v);
    default:
      return v;
  }
}

function sanitize(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map(sanitize);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = sanitize(x);
    return out;
  }
  return v;
}

function dynamicWireType(c: Column, n: number): string {
  const types = new Set<string>();
  for (let i = 0; i < n; i++) {
    const v = readValue(c, i);
    if (v === null) continue;
    if (Array.isArray(v)) types.add('array');
    else if (typeof v === 'object') types.add('map[string]any');
    else if (typeof v === 'string') types.add('string');
    else if (typeof v === 'boolean') types.add('boolean');
    else if (typeof v === 'number') types.add(Number.isInteger(v) ? 'integer' : 'float');
  }
  if (types.size === 0) return 'array';
  return [...types].sort().join('|');
}

function findAggregate(root: PlanNode): AggregateNode | null {
  let n: PlanNode = root;
  for (;;) {
    if (n.kind === 'aggregate') return n;
    // Rows of a cached aggregated `materialize(T)`: its key is T's plan as JSON (run-apl), where the
    // aggregation that names the fields' notes is, as it would be had T been planned in place.
    if (n.kind === 'values' && n.materialized?.aggregated) {
      const replaced = planOfKey(n.materialized.key);
      if (replaced === null) return null;
      n = replaced;
      continue;
    }
    if (n.kind === 'scan' || n.kind === 'values' || n.kind === 'union') return null;
    n = n.kind === 'join' ? joinRowSource(n) : n.input;
  }
}

/** The plan a materialized table replaced, from its key; null when the key is not a plan's JSON. */
function planOfKey(key: string): PlanNode | null {
  try {
    const plan = JSON.parse(key) as PlanNode | null;
    return typeof plan === 'object' && plan !== null && typeof plan.kind === 'string' ? plan : null;
  } catch {
    return null;
  }
}

export interface TableOptions {
  root: PlanNode;
  batch: ColumnBatch;
  sources: string[];
}

export function toResultTable({ root, batch, sources }: TableOptions): ResultTable {
  const fields: ResultField[] = [];
  const columns: unknown[][] = [];
  const agg = findAggregate(root);
  const aggOf = new Map<string, { name: string; fields?: string[]; args?: unknown[] }>();
  if (agg) {
    for (const call of agg.aggs) {
      const wireOp = AGGREGATE_SIGNATURES.get(call.fn)?.wireOp ?? 'computed';
      const argFields = call.args.flatMap((a) => (a.kind === 'col' ? [a.name] : []));
      for (const out of call.outputs)
        aggOf.set(out.name, { name: wireOp, fields: argFields, args: call.params });
    }
  }
  root.schema.forEach((f: Field) => {
    const col = batch.columns.get(f.name);
    const values = new Array(batch.length).fill(null);
    let type: string = wireTypeOfKind(f.type);
    if (col) {
      for (let i = 0; i < batch.length; i++) values[i] = jsonValue(readValue(col, i), col);
      type = col.kind === 'dynamic' ? dynamicWireType(col, batch.length) : wireTypeOfKind(col.kind);
    }
    const field: ResultField = { name: f.name, type };
    const a = aggOf.get(f.name);
    if (a) field.agg = a;
    fields.push(field);
    columns.push(values);
  });
  return {
    name: '0',
    sources: sources.map((name) => ({ name })),
    fields,
    order: orderOf(root),
    groups: agg ? agg.keys.map((k) => ({ name: k.name })) : [],
    ...(agg?.timeBucketMs !== undefined
      ? { buckets: { field: agg.keys[0].name, size: agg.timeBucketMs * 1e6 } }
      : {}),
    columns,
  };
}

function orderOf(root: PlanNode): { field: string; desc: boolean }[] {
  let n: PlanNode = root;
  while (n.kind === 'limit' || n.kind === 'project' || n.kind === 'extend') n = n.input;
  if (n.kind === 'sort' || n.kind === 'top') {
    return n.keys.flatMap((k) => (k.expr.kind === 'col' ? [{ field: k.expr.name, desc: k.desc }] : []));
  }
  return [];
}
