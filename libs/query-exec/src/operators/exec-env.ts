import type { ColumnBatch, ColumnKind, DatasetSource, ScanStats, ScanTimeOrder } from '@quarry/contracts';
import type { AggregateNode, LimitNode, ScanNode, TopNode } from '@quarry/query-plan';
import type { PackedInstances } from '../aggregates/state-transfer';
import type { EvalContext } from '../eval/context';
import type { RowBudget } from '../limits';

export type BatchStream = AsyncIterable<import('@quarry/contracts').ColumnBatch>;

/** What operators need at run time. */
export interface ExecEnv {
  sources: Map<string, DatasetSource>;
  stats: ScanStats;
  ctx: EvalContext;
  signal?: AbortSignal;
  /** Rows that survived the filters feeding the output (api.md §4.3 `rowsMatched`). */
  counters: { rowsMatched: number; numGroups: number };
  /** Read-order hints for scans feeding a `top N by _time` (see time-ordered-top.ts). */
  scanHints: Map<ScanNode, ScanTimeOrder>;
  /** Memory limits of this query (limits.ts). */
  budget: RowBudget;
  /** Splits large summarizes across threads or nodes; absent: everything runs here. */
  offload?: AggregateOffload;
}

/**
 * Runs part of a summarize elsewhere. `split` is asked about a summarize whose input is a chain of
 * row-wise operators over one dataset scan; it may start the remote part over some of the scan's data
 * and return the source for the rest, which is read here. Null keeps everything here (too little data).
 */
export interface AggregateOffload {
  split(
    node: AggregateNode,
    scan: ScanNode,
    source: DatasetSource,
    signal?: AbortSignal,
  ): { remote: Promise<RemotePartial[]>; local: DatasetSource } | null;

  /**
   * The same for a `take` or `top` over a row-wise chain over one scan (row-fragments.ts): the remote part
   * answers, for the blocks it read, each block's rows that the take or top keeps, in the scan's order.
   */
  splitRows?(
    node: RowsFragment,
    scan: ScanNode,
    source: DatasetSource,
    signal?: AbortSignal,
  ): { remote: Promise<RemoteRows>; local: DatasetSource } | null;
}

/** A `take` or `top` whose input is a chain of row-wise operators over one dataset scan. */
export type RowsFragment = LimitNode | TopNode;

/** What the remote parts of a split take or top send back. */
export interface RemoteRows {
  /** Per block read (in the scan's order; empty blocks left out), its rows the take or top keeps. */
  segments: ColumnBatch[];
  /** Scan statistics of each part. */
  stats: ScanStats[];
  /** Rows that reached the take or top (matched when its input is the matched point). */
  rowsMatched: number;
}

/** What a remote part of a summarize sends back. */
export interface RemotePartial {
  state: PartialAggregateState;
  stats: ScanStats;
  /** Rows that reached the summarize (they count as matched when its input is the matched point). */
  rowsMatched: number;
}

/** `PartialAggregate` as structured-clone-safe data. */
export interface PartialAggregateState {
  groups: { keys: string[]; keyValues: unknown[][]; groupCount: number };
  keyKinds: ColumnKind[][];
  aggregators: PackedInstances;
}
