import { emptyScanStats, type ColumnBatch } from '@quarry/contracts';
import { EvalContext } from '../eval/context';
import type { ExecEnv } from '../operators/exec-env';
import { DEFAULT_QUERY_LIMITS, RowBudget } from '../limits';

/** A fresh execution environment for operator unit tests (no sources, zeroed counters). */
export function testEnv(): ExecEnv {
  return {
    sources: new Map(),
    stats: emptyScanStats(),
    ctx: new EvalContext(),
    counters: { rowsMatched: 0, numGroups: 0 },
    scanHints: new Map(),
    budget: new RowBudget(DEFAULT_QUERY_LIMITS),
  };
}

/** The batches as the async stream operators consume. */
export async function* streamOf(batches: ColumnBatch[]): AsyncGenerator<ColumnBatch> {
  for (const b of batches) yield b;
}
