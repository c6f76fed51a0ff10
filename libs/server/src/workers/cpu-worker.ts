import { workerData } from 'piscina';
import { runTask, type CpuTaskName } from './cpu-tasks';
import { reportThreadMemory, type ThreadMemorySlots } from './thread-memory';

// This worker's heap, for the main thread's /metrics (CpuPool.memory()).
reportThreadMemory((workerData as { memory?: ThreadMemorySlots } | undefined)?.memory);

/**
 * The worker-thread entry point loaded by `CpuPool` (from `dist/`): one exported function, given the task
 * name and its input, answering a `TaskResult`.
 */
export default function run(message: { name: CpuTaskName; input: never }) {
  return runTask(message.name, message.input);
}
