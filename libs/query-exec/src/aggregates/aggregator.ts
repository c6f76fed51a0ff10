import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';

export interface AggregateOutput {
  values: unknown[];
  kind: ColumnKind;
}

/**
 * Per-group aggregation state, updated one batch at a time with the group id of every row. A predicate
 * (for `*if` variants) masks rows. States are plain arrays indexed by group id.
 */
export interface Aggregator {
  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void;
  /**
   * Optional fast path for a summarize without keys (every row in group 0), for aggregates that can
   * fold a whole batch without looking at rows one by one.
   */
  updateAll?(n: number, args: Column[], predicate: BoolColumn | null): void;
  /**
   * Folds another partial state of the same aggregate into this one (for split work: batches on
   * worker threads, partitions on query nodes). `groupMap[g]` is this state's group for the other's g.
   * `other` is spent afterwards (it may have handed over its arrays, as `percentile`'s do): never read it.
   */
  merge(other: Aggregator, groupMap: ArrayLike<number>): void;
  /**
   * Optional: work best done on the sending thread before the state is cloned to another one. With
   * `moveMinBytes`, buffers of at least that size will move (`transferables`) rather than be copied, so
   * they keep their spare capacity instead of being trimmed by a copy; without it every buffer is copied
   * (or serialized whole), so trimming pays.
   */
  prepareForTransfer?(moveMinBytes?: number): void;
  /**
   * Optional, after `prepareForTransfer`: buffers of at least `minBytes` that only this state holds, which
   * may move to the receiving thread instead of being copied (the state is not used again here).
   */
  transferables?(minBytes: number): ArrayBuffer[];
  finish(groupCount: number): AggregateOutput[];
}

export function rowPasses(predicate: BoolColumn | null, i: number): boolean {
  if (predicate === null) return true;
  return predicate.values[i] === 1 && (predicate.nulls === null || predicate.nulls[i] === 0);
}
