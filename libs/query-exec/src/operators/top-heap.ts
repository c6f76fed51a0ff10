/**
 * `top N by keys` (and `sort | take N`, fused by the optimizer): a bounded max-heap (worst kept row at the
 * root) over rows of all input batches, so memory stays O(N) rows plus the batches those rows live in; a
 * batch none of whose rows is in the heap is released. Only the key columns are read while ranking; the
 * other columns of the N survivors are gathered at the end (late materialization: with lazily built input
 * columns, rows that lose are never copied).
 *
 * Results equal a stable full sort followed by take N (ordering.ts + sort-order.ts): ties keep arrival
 * order, nulls go first/last per key, numbers compare numerically, strings by ordinal order, and when a key
 * column's kind differs between batches values compare as the full sort sees them after concatenation
 * (long+real as numbers, other mixes as dynamic values; see concat.ts).
 */
import { selectRowsLate, type Column, type ColumnBatch, type ColumnKind } from '@quarry/contracts';
import type { SortKeySpec } from '@quarry/query-plan';
import { readValue } from '../columns';
import { concatBatches, unifyKinds } from '../concat';
import { evaluate } from '../eval/evaluate';
import { toDynamic } from '../functions/scalar-impl';
import type { BatchStream, ExecEnv } from './exec-env';
import type { TopBoundSink } from './time-ordered-top';

interface Entry {
  batch: number;
  row: number;
  /** Arrival sequence, the final tie-breaker. */
  seq: number;
}

/** Row -> comparable value (null for null): what the full sort compares for this key. */
type Reader = (row: number) => unknown;

function compareValue(x: unknown, y: unknown, desc: boolean, nullsFirst: boolean): number {
  const xn = x === null || x === undefined;
  const yn = y === null || y === undefined;
  if (xn || yn) return xn && yn ? 0 : xn ? (nullsFirst ? -1 : 1) : nullsFirst ? 1 : -1;
  let c: number;
  if (typeof x === 'number' && typeof y === 'number') c = x < y ? -1 : x > y ? 1 : 0;
  else if (typeof x === 'boolean' && typeof y === 'boolean') c = x === y ? 0 : x ? 1 : -1;
  else {
    const sx = typeof x === 'string' ? x : JSON.stringify(x);
    const sy = typeof y === 'string' ? y : JSON.stringify(y);
    c = sx < sy ? -1 : sx > sy ? 1 : 0;
  }
  return desc ? -c : c;
}

function reader(column: Column, unified: ColumnKind): Reader {
  if (unified === 'dynamic' && column.kind !== 'dynamic') {
    const kind = column.kind;
    return (row) => toDynamic(readValue(column, row), kind);
  }
  switch (column.kind) {
    case 'string': {
      const { codes, dict } = column;
      return (row) => (codes[row] < 0 ? null : dict[codes[row]]);
    }
    case 'dynamic':
      return (row) => readValue(column, row);
    case 'bool': {
      const { values, nulls } = column;
      return (row) => (nulls !== null && nulls[row] === 1 ? null : values[row]);
    }
    default: {
      const { values, nulls } = column;
      return (row) => (nulls !== null && nulls[row] === 1 ? null : values[row]);
    }
  }
}

export async function* topHeap(
  input: BatchStream,
  count: number,
  keys: SortKeySpec[],
  env: ExecEnv,
  bound?: TopBoundSink,
): BatchStream {
  if (count <= 0) return;
  const batches: (ColumnBatch | null)[] = [];
  const keyCols: (Column[] | null)[] = [];
  const readers: (Reader[] | null)[] = [];
  /** Heap entries per batch, to release batches that lost all their rows. */
  const live: number[] = [];
  /** Kinds of each key column over all batches so far, unified like concatenation does. */
  const unified: (ColumnKind | null)[] = keys.map(() => null);
  const heap: Entry[] = [];
  let seq = 0;
  const nk = keys.length;
  const cmpKeys = (ba: number, ra: number, bb: number, rb: number): number => {
    const xa = readers[ba]!;
    const xb = readers[bb]!;
    for (let k = 0; k < nk; k++) {
      const c = compareValue(xa[k](ra), xb[k](rb), keys[k].desc, keys[k].nullsFirst);
      if (c !== 0) return c;
    }
    return 0;
  };
  /** Negative when a should come before b in the output. */
  const order = (a: Entry, b: Entry): number => cmpKeys(a.batch, a.row, b.batch, b.row) || a.seq - b.seq;
  // Max-heap by output order: the root is the row that would be dropped first.
  const up = (i: number) => {
    const e = heap[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (order(e, heap[p]) <= 0) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = e;
  };
  const down = (i: number) => {
    const e = heap[i];
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && order(heap[r], heap[l]) > 0 ? r : l;
      if (order(heap[m], e) <= 0) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = e;
  };
  const rebuildReaders = () => {
    for (let b = 0; b < keyCols.length; b++) {
      const cols = keyCols[b];
      if (cols) readers[b] = cols.map((c, k) => reader(c, unified[k]!));
    }
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  };

  for await (const batch of input) {
    const b = batches.length;
    const cols = keys.map((k) => evaluate(k.expr, batch, env.ctx));
    let kindsChanged = false;
    cols.forEach((c, k) => {
      const u = unified[k] === null ? c.kind : unifyKinds([unified[k]!, c.kind]);
      // Only a change to dynamic alters how already-seen values compare (long -> real does not).
      if (u === 'dynamic' && unified[k] !== null && unified[k] !== 'dynamic') kindsChanged = true;
      unified[k] = u;
    });
    batches.push(batch);
    keyCols.push(cols);
    readers.push(null);
    live.push(0);
    if (kindsChanged) rebuildReaders();
    else readers[b] = cols.map((c, k) => reader(c, unified[k]!));
    for (let row = 0; row < batch.length; row++) {
      if (heap.length < count) {
        heap.push({ batch: b, row, seq: seq++ });
        live[b]++;
        up(heap.length - 1);
        continue;
      }
      const root = heap[0];
      // A later row replaces the root only when strictly better (it loses ties by arrival order).
      if (cmpKeys(b, row, root.batch, root.row) < 0) {
        live[root.batch]--;
        heap[0] = { batch: b, row, seq: seq++ };
        live[b]++;
        down(0);
      } else seq++;
    }
    if (bound && heap.length === count) {
      const worst = readers[heap[0].batch]![0](heap[0].row);
      if (typeof worst === 'number') bound(worst);
    }
    for (let i = 0; i <= b; i++) {
      if (live[i] === 0 && batches[i] !== null) {
        batches[i] = null;
        keyCols[i] = null;
        readers[i] = null;
      }
    }
  }
  if (heap.length === 0) return;
  // Output order of the kept rows, then their columns gathered batch by batch (in arrival order).
  const ranked = [...heap].sort(order);
  const rankOf = new Map<Entry, number>();
  ranked.forEach((e, i) => rankOf.set(e, i));
  const byArrival = [...heap].sort((a, b) => a.seq - b.seq);
  const parts: ColumnBatch[] = [];
  const position = new Uint32Array(byArrival.length);
  let i = 0;
  while (i < byArrival.length) {
    const b = byArrival[i].batch;
    const rows: number[] = [];
    while (i < byArrival.length && byArrival[i].batch === b) {
      position[rankOf.get(byArrival[i])!] = i;
      rows.push(byArrival[i++].row);
    }
    parts.push(selectRowsLate(batches[b]!, Uint32Array.from(rows)));
  }
  yield selectRowsLate(concatBatches(parts), position);
}
