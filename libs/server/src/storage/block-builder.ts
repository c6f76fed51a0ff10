import { decodeBlock, encodeBlock } from '@quarry/block-format';
import {
  concatEventBatches,
  selectRows,
  sliceRows,
  timeOrder,
  TIME_FIELD,
  wireTypeOfKind,
  type ColumnBatch,
} from '@quarry/contracts';
import { decodeLogRecord } from './log-codec';
import { ReusedBuffers } from './reused-buffers';

/** A block ready to upload, with what its registration needs. */
export interface BuiltBlock {
  bytes: Uint8Array;
  rowCount: number;
  minTime: number;
  maxTime: number;
  /** Every column with its wire type, for the dataset's field schema. */
  fields: { name: string; type: string }[];
}

/** Where `buildBlocks` cuts: time spans of `spanMs` from the epoch; a span with fewer rows is not cut out. */
export interface SpanPolicy {
  spanMs: number;
  minSpanRows: number;
}

/** Which span a time falls in (its start), for blocks cut at span boundaries. */
export function spanOf(timeMs: number, spanMs: number): number {
  return Math.floor(timeMs / spanMs) * spanMs;
}

/**
 * One block from a dataset's record batches (in log order): concatenated as `batchFromEvents` would have
 * built them from all the events, rows sorted by `_time` (ties keep log order), encoded and compressed.
 * Pure CPU work: the compactor and the merger run it on the worker pool (`workers/cpu-tasks.ts`).
 */
export function buildBlock(batches: readonly ColumnBatch[]): BuiltBlock {
  try {
    return encodeSorted(sortedByTime(batches));
  } finally {
    dictionaryBuffers.returnAll();
  }
}

/**
 * Like `buildBlock`, but the rows are cut at span boundaries (`SpanPolicy`): each span with at least
 * `minSpanRows` rows becomes a block of its own, and the rows of sparser spans share one more block. Blocks
 * then rarely straddle a span, so a query over a short window reads few of them (the merger merges blocks
 * only within a span). In time order; the block that collects sparse spans, if any, last.
 */
export function buildBlocks(batches: readonly ColumnBatch[], policy: SpanPolicy): BuiltBlock[] {
  try {
    return cutAndEncode(sortedByTime(batches), policy);
  } finally {
    dictionaryBuffers.returnAll();
  }
}

function cutAndEncode(batch: ColumnBatch, policy: SpanPolicy): BuiltBlock[] {
  const time = batch.columns.get(TIME_FIELD);
  const n = batch.length;
  if (n === 0 || time === undefined || time.kind !== 'datetime') return [encodeSorted(batch)];
  const values = time.values;
  const out: BuiltBlock[] = [];
  const sparse: number[] = [];
  for (let start = 0; start < n;) {
    const spanEnd = spanOf(values[start], policy.spanMs) + policy.spanMs;
    let end = start + 1;
    while (end < n && values[end] < spanEnd) end++;
    if (end - start >= policy.minSpanRows || (start === 0 && end === n)) {
      out.push(encodeSorted(start === 0 && end === n ? batch : sliceRows(batch, start, end)));
    } else for (let i = start; i < end; i++) sparse.push(i);
    start = end;
  }
  if (sparse.length > 0) out.push(encodeSorted(selectRows(batch, sparse)));
  return out;
}

/**
 * The concatenated dictionaries of this thread's builds: lent to one build, reused by the next (their
 * blocks are encoded, copies, before the build returns).
 */
const dictionaryBuffers = new ReusedBuffers();

/** The batches concatenated, rows sorted by `_time` (ties keep log order). */
function sortedByTime(batches: readonly ColumnBatch[]): ColumnBatch {
  const all = concatEventBatches(batches, { dictionaryBuffer: (bytes) => dictionaryBuffers.take(bytes) });
  const order = timeOrder(all);
  return order === null ? all : selectRows(all, order);
}

function encodeSorted(batch: ColumnBatch): BuiltBlock {
  const time = batch.columns.get(TIME_FIELD);
  const n = batch.length;
  const hasTimes = n > 0 && time !== undefined && time.kind === 'datetime';
  return {
    bytes: encodeBlock(batch),
    rowCount: n,
    minTime: hasTimes ? time.values[0] : 0,
    maxTime: hasTimes ? time.values[n - 1] : 0,
    fields: [...batch.columns].map(([name, column]) => ({ name, type: wireTypeOfKind(column.kind) })),
  };
}

/** `buildBlocks` over ingest log record payloads of one dataset, in log order. */
export function buildBlocksFromRecords(payloads: readonly Uint8Array[], policy: SpanPolicy): BuiltBlock[] {
  return buildBlocks(
    payloads.map((payload) => decodeLogRecord(payload).batch),
    policy,
  );
}

/** The inputs of a merge (indexes into its run, ascending), and the block they became. */
export interface MergedGroup {
  inputs: number[];
  block: BuiltBlock;
}

/**
 * `buildBlock` over stored blocks, in groups of inputs whose shared columns have the same kind. Merging
 * a field that is a string in one block and a number in another would change answers (they stay apart),
 * but refusing the whole run left every such dataset with thousands of small blocks for good: a soak
 * mixing CSV (strings) and JSON (numbers) grew by 600 unmerged blocks a minute, and the merger read them
 * all again each round. Splitting only where consecutive blocks disagree was not enough either: when the
 * formats alternate, so do the blocks' kinds, every part held one block, and the soak still grew by 350
 * unmerged blocks a minute. So blocks group by kinds wherever they sit in the run (time order does not
 * matter to a merge: its output is sorted by `_time`). Groups of one input are not returned.
 */
export function mergeBlocks(blocks: readonly Uint8Array[]): MergedGroup[] {
  const batches = blocks.map((bytes) => decodeBlock(bytes));
  const groups: MergedGroup[] = [];
  for (const inputs of compatibleGroups(batches)) {
    if (inputs.length >= 2) groups.push({ inputs, block: buildBlock(inputs.map((i) => batches[i])) });
  }
  return groups;
}

/**
 * The batches in groups in which every column has one kind: each batch joins the first group whose
 * columns agree with its own (a batch without the disputed column agrees with any), else starts a new
 * one. Indexes ascend within a group.
 */
export function compatibleGroups(batches: readonly ColumnBatch[]): number[][] {
  const groups: { inputs: number[]; kinds: Map<string, string> }[] = [];
  for (let i = 0; i < batches.length; i++) {
    const columns = batches[i].columns;
    let home = groups.find((g) => {
      for (const [name, column] of columns) {
        const seen = g.kinds.get(name);
        if (seen !== undefined && seen !== column.kind) return false;
      }
      return true;
    });
    if (home === undefined) {
      home = { inputs: [], kinds: new Map() };
      groups.push(home);
    }
    home.inputs.push(i);
    for (const [name, column] of columns) home.kinds.set(name, column.kind);
  }
  return groups.map((g) => g.inputs);
}
