import type { DatasetSource } from '@quarry/contracts';
import {
  runPartialAggregate,
  rowsShareMode,
  runRowsShare,
  type AggregateOffload,
  type RowsFragment,
} from '@quarry/query-exec';
import type { ScanNode } from '@quarry/query-plan';
import { MemoryDataset } from './memory-catalog';

/**
 * For tests: an `AggregateOffload` that splits every summarize over a `MemoryDataset` as worker threads
 * would: batches whose index is odd go to the "remote" part, computed by `runPartialAggregate` and passed
 * through `structuredClone` (what a thread boundary does to the state); the rest stays local. A take or
 * top is split as query nodes split it: every batch but the last is a remote block read on its own (by
 * `runRowsShare`), the last stays local (the tail the coordinator reads).
 */
export function splittingOffload(): AggregateOffload & { splits: number; rowSplits: number } {
  const offload = {
    splits: 0,
    rowSplits: 0,
    split(node: Parameters<AggregateOffload['split']>[0], _scan: unknown, source: DatasetSource) {
      if (!(source instanceof MemoryDataset) || source.batches.length < 2) return null;
      offload.splits++;
      const remoteSource = source.subset((i) => i % 2 === 1);
      const remote = runPartialAggregate(structuredClone(node), remoteSource, {}).then((part) => [
        structuredClone(part),
      ]);
      return { remote, local: source.subset((i) => i % 2 === 0) };
    },
    splitRows(node: RowsFragment, scan: ScanNode, source: DatasetSource) {
      const n = source instanceof MemoryDataset ? source.batches.length : 0;
      if (!(source instanceof MemoryDataset) || n < 2) return null;
      offload.rowSplits++;
      const blocks =
        rowsShareMode(node) === 'whole'
          ? [source.subset((i) => i < n - 1)]
          : source.batches.slice(0, -1).map((_, b) => source.subset((i) => i === b));
      const remote = runRowsShare(structuredClone(node), scan.dataset, blocks, {}).then((share) => ({
        segments: structuredClone(share.segments.filter((s) => s !== null)),
        stats: [share.stats],
        rowsMatched: share.rowsMatched,
      }));
      return { remote, local: source.subset((i) => i === n - 1) };
    },
  };
  return offload;
}
