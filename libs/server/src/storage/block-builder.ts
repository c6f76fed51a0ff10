import { decodeBlock, encodeBlock } from '@quarry/block-format';
import {
  concatEventBatches,
  selectRows,
  timeOrder,
  TIME_FIELD,
  wireTypeOfKind,
  type ColumnBatch,
} from '@quarry/contracts';
import { decodeLogRecord } from './log-codec';

/** A block ready to upload, with what its registration needs. */
export interface BuiltBlock {
  bytes: Uint8Array;
  rowCount: number;
  minTime: number;
  maxTime: number;
  /** Every column with its wire type, for the dataset's field schema. */
  fields: { name: string; type: string }[];
}

/**
 * One block from a dataset's record batches (in log order): concatenated as `batchFromEvents` would have
 * built them from all the events, rows sorted by `_time` (ties keep log order), encoded and compressed.
 * Pure CPU work: the compactor and the merger run it on the worker pool (`workers/cpu-tasks.ts`).
 */
export function buildBlock(batches: readonly ColumnBatch[]): BuiltBlock {
  const all = concatEventBatches(batches);
  const order = timeOrder(all);
  const batch = order === null ? all : selectRows(all, order);
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

/** `buildBlock` over ingest log record payloads of one dataset, in log order. */
export function buildBlockFromRecords(payloads: readonly Uint8Array[]): BuiltBlock {
  return buildBlock(payloads.map((payload) => decodeLogRecord(payload).batch));
}

/**
 * `buildBlock` over stored blocks, or null when a column has different kinds in different inputs: merging
 * those would change answers (a field that is a string in one block and a number in another keeps
 * answering exactly as before only while the blocks stay apart).
 */
export function mergeBlocks(blocks: readonly Uint8Array[]): BuiltBlock | null {
  const batches = blocks.map((bytes) => decodeBlock(bytes));
  return kindsAgree(batches) ? buildBlock(batches) : null;
}

/** True when every column present in several batches has the same kind in all of them. */
function kindsAgree(batches: readonly ColumnBatch[]): boolean {
  const kinds = new Map<string, string>();
  for (const batch of batches) {
    for (const [name, column] of batch.columns) {
      const seen = kinds.get(name);
      if (seen === undefined) kinds.set(name, column.kind);
      else if (seen !== column.kind) return false;
    }
  }
  return true;
}
