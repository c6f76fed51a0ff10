/** Streaming operators: scan, filter, extend, project, limit, union, values. */
import { QuarryError } from '@quarry/common';
import {
  selectRows,
  selectRowsLate,
  type BoolColumn,
  type Column,
  type ColumnBatch,
} from '@quarry/contracts';
import type {
  ExtendNode,
  NamedExpr,
  PExpr,
  ProjectNode,
  ScanNode,
  UnionNode,
  ValuesNode,
} from '@quarry/query-plan';
import { buildColumn, constantColumn, readValue } from '../columns';
import { evaluate } from '../eval/evaluate';
import { asBool } from '../eval/logic';
import { directSelection } from '../eval/direct-select';
import type { BatchStream, ExecEnv } from './exec-env';
import { blockPruning } from '../pruning/block-pruning';
import { windowExtend } from './window';

function checkAbort(env: ExecEnv): void {
  if (env.signal?.aborted) throw new QuarryError('unavailable', 'query aborted', { code: 'query_aborted' });
}

/** Rows where the predicate is exactly true, as a selection vector. */
export function selectWhere(predicate: Column, n: number): Uint32Array {
  const p: BoolColumn = predicate.kind === 'bool' ? predicate : asBool(predicate, n);
  const sel = new Uint32Array(n);
  let m = 0;
  const values = p.values;
  const nulls = p.nulls;
  for (let i = 0; i < n; i++) if (values[i] === 1 && (nulls === null || nulls[i] === 0)) sel[m++] = i;
  return sel.subarray(0, m);
}

/** Keeps the rows where `predicate` is true; other columns are copied only when read (late). */
export function applyFilter(batch: ColumnBatch, predicate: PExpr, env: ExecEnv): ColumnBatch {
  const sel =
    directSelection(predicate, batch) ?? selectWhere(evaluate(predicate, batch, env.ctx), batch.length);
  return sel.length === batch.length ? batch : selectRowsLate(batch, sel);
}

export async function* scan(node: ScanNode, env: ExecEnv): BatchStream {
  const source = env.sources.get(node.dataset);
  if (!source)
    throw new QuarryError('not_found', `dataset "${node.dataset}" not found`, { code: 'dataset_not_found' });
  if (node.endMs <= node.startMs) return;
  const batches = source.scan({
    startMs: node.startMs,
    endMs: node.endMs,
    columns: node.columns,
    stats: env.stats,
    signal: env.signal,
    timeOrder: env.scanHints.get(node),
    pruning: node.filter ? (blockPruning(node.filter) ?? undefined) : undefined,
  });
  for await (const batch of batches) {
    checkAbort(env);
    const out = node.filter ? applyFilter(batch, node.filter, env) : batch;
    if (out.length > 0) yield out;
  }
}

export async function* filter(input: BatchStream, predicate: PExpr, env: ExecEnv): BatchStream {
  for await (const batch of input) {
    const out = applyFilter(batch, predicate, env);
    if (out.length > 0) yield out;
  }
}

function evaluateItems(items: NamedExpr[], batch: ColumnBatch, env: ExecEnv): Map<string, Column> {
  const out = new Map<string, Column>();
  for (const item of items) out.set(item.name, evaluate(item.expr, batch, env.ctx));
  return out;
}

export async function* extend(input: BatchStream, node: ExtendNode, env: ExecEnv): BatchStream {
  if (node.window) {
    yield* windowExtend(input, node, env);
    return;
  }
  for await (const batch of input) {
    // Sequential: each item sees the columns computed by the items before it.
    const columns = new Map(batch.columns);
    const working: ColumnBatch = { length: batch.length, columns };
    for (const item of node.items) {
      const col = evaluate(item.expr, working, env.ctx);
      columns.delete(item.name);
      columns.set(item.name, col);
    }
    yield working;
  }
}

export async function* project(input: BatchStream, node: ProjectNode, env: ExecEnv): BatchStream {
  for await (const batch of input) {
    yield { length: batch.length, columns: evaluateItems(node.items, batch, env) };
  }
}

export async function* limit(input: BatchStream, count: number): BatchStream {
  let remaining = count;
  if (remaining <= 0) return;
  for await (const batch of input) {
    if (batch.length <= remaining) {
      remaining -= batch.length;
      yield batch;
    } else {
      yield selectRows(
        batch,
        Uint32Array.from({ length: remaining }, (_, i) => i),
      );
      remaining = 0;
    }
    if (remaining === 0) return;
  }
}

export async function* union(inputs: BatchStream[], node: UnionNode): BatchStream {
  for (let i = 0; i < inputs.length; i++) {
    for await (const batch of inputs[i]) {
      if (!node.withSource) {
        yield batch;
        continue;
      }
      const columns = new Map<string, Column>([
        [node.withSource, constantColumn(node.sourceNames[i], 'string', batch.length)],
      ]);
      for (const [k, v] of batch.columns) columns.set(k, v);
      yield { length: batch.length, columns };
    }
  }
}

export async function* values(node: ValuesNode, env: ExecEnv): BatchStream {
  if (node.materialized) {
    // `materialize(T)`: the rows computed once before the query.
    if (node.materialized.batch.length > 0) yield node.materialized.batch;
    return;
  }
  if (node.rows.length === 0) return;
  const one: ColumnBatch = { length: 1, columns: new Map() };
  const cols = node.schema.map(() => [] as unknown[]);
  const kinds = node.schema.map((f) => f.type);
  for (const row of node.rows) {
    row.forEach((expr, j) => {
      const c = evaluate(expr, one, env.ctx);
      if (c.kind !== kinds[j] && kinds[j] !== 'dynamic' && c.kind !== 'string') kinds[j] = c.kind;
      cols[j].push(readValue(c, 0));
    });
  }
  const columns = new Map<string, Column>();
  node.schema.forEach((f, j) => columns.set(f.name, buildColumn(cols[j], kinds[j])));
  yield { length: node.rows.length, columns };
}
