/**
 * `top N by keys`: a bounded max-heap (worst kept row at the root) over rows of all input batches, so
 * memory stays O(N) rows plus the batches those rows live in. Ties keep arrival order (stable).
 */
import { selectRows, type Column, type ColumnBatch } from '@quarry/contracts';
import type { SortKeySpec } from '@quarry/query-plan';
import { readValue } from '../columns';
import { concatBatches } from '../concat';
import { evaluate } from '../eval/evaluate';
import { sortedIndexes } from '../sort-order';
import type { BatchStream, ExecEnv } from './exec-env';

interface Entry {
  batch: number;
  row: number;
  /** Arrival sequence, the final tie-breaker. */
  seq: number;
}

function compareValue(x: unknown, y: unknown, desc: boolean, nullsFirst: boolean): number {
  const xn = x === null || x === undefined;
  const yn = y === null || y === undefined;
  if (xn || yn) return xn && yn ? 0 : xn ? (nullsFirst ? -1 : 1) : nullsFirst ? 1 : -1;
  let c: number;
  if (typeof x === 'number' && typeof y === 'number') c = x < y ? -1 : x > y ? 1 : 0;
  else {
    const sx = typeof x === 'string' ? x : JSON.stringify(x);
    const sy = typeof y === 'string' ? y : JSON.stringify(y);
    c = sx < sy ? -1 : sx > sy ? 1 : 0;
  }
  return desc ? -c : c;
}

export async function* topHeap(
  input: BatchStream,
  count: number,
  keys: SortKeySpec[],
  env: ExecEnv,
): BatchStream {
  if (count <= 0) return;
  const batches: ColumnBatch[] = [];
  const keyCols: Column[][] = [];
  const heap: Entry[] = [];
  let seq = 0;
  /** Negative when a should come before b in the output. */
  const order = (a: Entry, b: Entry): number => {
    for (let k = 0; k < keys.length; k++) {
      const c = compareValue(
        readValue(keyCols[a.batch][k], a.row),
        readValue(keyCols[b.batch][k], b.row),
        keys[k].desc,
        keys[k].nullsFirst,
      );
      if (c !== 0) return c;
    }
    return a.seq - b.seq;
  };
  // Max-heap by output order: the root is the row that would be dropped first.
  const swap = (i: number, j: number) => {
    const t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  };
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (order(heap[i], heap[p]) <= 0) return;
      swap(i, p);
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && order(heap[l], heap[m]) > 0) m = l;
      if (r < heap.length && order(heap[r], heap[m]) > 0) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for await (const batch of input) {
    const b = batches.length;
    batches.push(batch);
    keyCols.push(keys.map((k) => evaluate(k.expr, batch, env.ctx)));
    for (let row = 0; row < batch.length; row++) {
      const e: Entry = { batch: b, row, seq: seq++ };
      if (heap.length < count) {
        heap.push(e);
        up(heap.length - 1);
      } else if (order(e, heap[0]) < 0) {
        heap[0] = e;
        down(0);
      }
    }
  }
  if (heap.length === 0) return;
  // Gather the kept rows batch by batch (in arrival order), then sort those N rows.
  heap.sort((a, b) => a.seq - b.seq);
  const parts: ColumnBatch[] = [];
  let i = 0;
  while (i < heap.length) {
    const b = heap[i].batch;
    const rows: number[] = [];
    while (i < heap.length && heap[i].batch === b) rows.push(heap[i++].row);
    parts.push(selectRows(batches[b], rows));
  }
  const kept = concatBatches(parts);
  const orderKeys = keys.map((k) => ({
    column: evaluate(k.expr, kept, env.ctx),
    desc: k.desc,
    nullsFirst: k.nullsFirst,
  }));
  yield selectRows(kept, sortedIndexes(kept.length, orderKeys));
}
