import { workerData } from 'piscina';
import {
  forgetTask,
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
export default function run(input: AggregateTaskInput) {
  return runAggregateTask(input);
}

/** `QueryPool.forget`: blocks that left the index are dropped from this worker's caches at once. */
export function forget(input: ForgetTaskInput): void {
  forgetTask(input);
}
