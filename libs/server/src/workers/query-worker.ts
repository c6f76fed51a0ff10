import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import {
  forgetTask,
  movableBuffersOf,
  openedReader,
  runAggregateTask,
  type AggregateTaskInput,
  type ForgetTaskInput,
} from './query-tasks';
import { reportThreadMemory, type ThreadMemorySlots } from './thread-memory';

// This worker's heap and its reader's caches, for the main thread's /metrics (QueryPool.memory()).
reportThreadMemory((workerData as { memory?: ThreadMemorySlots } | undefined)?.memory, () =>
  openedReader ? openedReader.cacheBytes : {},
);

/** The worker-thread entry point loaded by `QueryPool` (from `dist/`). */
export default async function run(input: AggregateTaskInput) {
  const result = await runAggregateTask(input);
  // Piscina posts a value wrapped this way with its buffers in the transfer list: moved, not copied.
  return move({ [transferableSymbol]: movableBuffersOf(result), [valueSymbol]: result });
}

/** `QueryPool.forget`: blocks that left the index are dropped from this worker's caches at once. */
export function forget(input: ForgetTaskInput): void {
  forgetTask(input);
}
