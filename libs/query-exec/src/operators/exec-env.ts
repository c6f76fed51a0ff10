import type { DatasetSource, ScanStats, ScanTimeOrder } from '@quarry/contracts';
import type { ScanNode } from '@quarry/query-plan';
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
}
