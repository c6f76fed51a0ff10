/**
 * Window functions over a serialized row set (Kusto's `prev`, `next`, `row_number`, `row_cumsum`,
 * `row_rank_dense`, `row_rank_min`, `row_window_session`): an extend whose items each compute one window function over every
 * row of its input, in input order. The input is held whole (a row's value may depend on any other row's),
 * so the operator is blocking; the planner only places it above a serialized input (sort, top, serialize,
 * datatable), which the distributed path never splits below it.
 */
import { QuarryError } from '@quarry/common';
import type { Column, ColumnBatch } from '@quarry/contracts';
import type { ExtendNode, PExpr } from '@quarry/query-plan';
import { buildColumn, readValue } from '../columns';
import { concatBatches } from '../concat';
import { evaluate } from '../eval/evaluate';
import type { BatchStream, ExecEnv } from './exec-env';

export async function* windowExtend(input: BatchStream, node: ExtendNode, env: ExecEnv): BatchStream {
  const batches: ColumnBatch[] = [];
  for await (const b of input) {
    env.budget.hold(b.length, 'window functions');
    batches.push(b);
  }
  if (batches.length === 0) return;
  const batch = concatBatches(
    batches,
    node.input.schema.map((f) => f.name),
  );
  const columns = new Map(batch.columns);
  const working: ColumnBatch = { length: batch.length, columns };
  for (const item of node.items) {
    columns.delete(item.name);
    columns.set(item.name, windowColumn(item.expr, working, env));
  }
  yield working;
}

/** The values of one window function call over all rows of `batch`. */
function windowColumn(e: PExpr, batch: ColumnBatch, env: ExecEnv): Column {
  if (e.kind !== 'call') throw internal(`window item is not a call`);
  const n = batch.length;
  const arg = (i: number): Column | null => (e.args[i] ? evaluate(e.args[i], batch, env.ctx) : null);
  const at = (c: Column | null, i: number): unknown => (c === null ? null : readValue(c, i));
  const restartAt = (c: Column | null, i: number): boolean => i > 0 && c !== null && at(c, i) === true;
  const out: unknown[] = new Array(n);
  switch (e.fn) {
    case 'prev':
    case 'next': {
      const values = arg(0)!;
      const offset = Number(constantOf(e.args[1], 1));
      const fallback = arg(2);
      const step = e.fn === 'prev' ? -offset : offset;
      for (let i = 0; i < n; i++) {
        const j = i + step;
        out[i] = j >= 0 && j < n ? at(values, j) : at(fallback, i);
      }
      break;
    }
    case 'row_number': {
      const start = arg(0);
      const restart = arg(1);
      let current = 0;
      for (let i = 0; i < n; i++) {
        const first = Number(at(start, i) ?? 1);
        current = i === 0 || restartAt(restart, i) ? first : current + 1;
        out[i] = current;
      }
      break;
    }
    case 'row_cumsum': {
      const term = arg(0)!;
      const restart = arg(1);
      let sum = 0;
      for (let i = 0; i < n; i++) {
        if (restartAt(restart, i)) sum = 0;
        const v = at(term, i);
        if (typeof v === 'number') sum += v;
        out[i] = sum;
      }
      break;
    }
    case 'row_rank_dense':
    case 'row_rank_min': {
      const term = arg(0)!;
      const restart = arg(1);
      let rank = 0;
      let rowInPartition = 0;
      let previous: string | undefined;
      for (let i = 0; i < n; i++) {
        const key = keyOf(at(term, i));
        if (i === 0 || restartAt(restart, i)) {
          rowInPartition = 1;
          rank = 1;
        } else {
          rowInPartition++;
          if (key !== previous) rank = e.fn === 'row_rank_dense' ? rank + 1 : rowInPartition;
        }
        previous = key;
        out[i] = rank;
      }
      break;
    }
    case 'row_window_session': {
      // Kusto: a value starts a session when there is no session yet (or it began at null), when it is at
      // least MaxDistanceFromFirst past the session's start or MaxDistanceBetweenNeighbors past the previous
      // value, or when Restart is true; each row gets its session's first value. A null value is its own
      // (null) session, so the next value starts a new one.
      const values = arg(0)!;
      const fromFirst = arg(1);
      const betweenNeighbors = arg(2);
      const restart = arg(3);
      let start: number | null = null;
      let previous: number | null = null;
      for (let i = 0; i < n; i++) {
        const raw = at(values, i);
        const v = typeof raw === 'number' ? raw : null;
        const maxFirst = at(fromFirst, i);
        const maxGap = at(betweenNeighbors, i);
        const isNew =
          v === null ||
          start === null ||
          previous === null ||
          restartAt(restart, i) ||
          (typeof maxFirst === 'number' && v >= start + maxFirst) ||
          (typeof maxGap === 'number' && v >= previous + maxGap);
        if (isNew) start = v;
        previous = v;
        out[i] = start;
      }
      break;
    }
    default:
      throw internal(`unknown window function '${e.fn}'`);
  }
  return buildColumn(out, e.type);
}

/** Equality of window terms: nulls equal each other; dynamic values compare by their JSON text. */
function keyOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return typeof v === 'object' ? 'o' + JSON.stringify(v) : typeof v + ':' + String(v);
}

function constantOf(e: PExpr | undefined, fallback: unknown): unknown {
  if (!e) return fallback;
  return e.kind === 'lit' && e.value !== null ? e.value : fallback;
}

function internal(message: string): QuarryError {
  return new QuarryError('internal', message, { code: 'query_internal' });
}
