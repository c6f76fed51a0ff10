/** sort: blocking and stable (top N lives in top-heap.ts). */
import { selectRows, type ColumnBatch } from '@quarry/contracts';
import type { SortKeySpec } from '@quarry/query-plan';
import { concatBatches } from '../concat';
import { evaluate } from '../eval/evaluate';
import { sortedIndexes } from '../sort-order';
import type { BatchStream, ExecEnv } from './exec-env';

function sortBatch(batch: ColumnBatch, keys: SortKeySpec[], env: ExecEnv): ColumnBatch {
  const orderKeys = keys.map((k) => ({
    column: evaluate(k.expr, batch, env.ctx),
    desc: k.desc,
    nullsFirst: k.nullsFirst,
  }));
  return selectRows(batch, sortedIndexes(batch.length, orderKeys));
}

export async function* sort(input: BatchStream, keys: SortKeySpec[], env: ExecEnv): BatchStream {
  const batches: ColumnBatch[] = [];
  for await (const b of input) {
    env.budget.hold(b.length, 'sort');
    batches.push(b);
  }
  if (batches.length === 0) return;
  yield sortBatch(concatBatches(batches), keys, env);
}
