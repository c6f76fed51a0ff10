import type { DatasetSource } from '@quarry/contracts';
import { runPartialAggregate, type AggregateOffload } from '@quarry/query-exec';
import { MemoryDataset } from './memory-catalog';

/**
 * For tests: an `AggregateOffload` that splits every summarize over a `MemoryDataset` as worker threads
 * would: batches whose index is odd go to the "remote" part, computed by `runPartialAggregate` and passed
 * through `structuredClone` (what a thread boundary does to the state); the rest stays local.
 */
export function splittingOffload(): AggregateOffload & { splits: number } {
  const offload = {
    splits: 0,
    split(node: Parameters<AggregateOffload['split']>[0], _scan: unknown, source: DatasetSource) {
      if (!(source instanceof MemoryDataset) || source.batches.length < 2) return null;
      offload.splits++;
      const remoteSource = source.subset((i) => i % 2 === 1);
      const remote = runPartialAggregate(structuredClone(node), remoteSource, {}).then((part) => [
        structuredClone(part),
      ]);
      return { remote, local: source.subset((i) => i % 2 === 0) };
    },
  };
  return offload;
}
