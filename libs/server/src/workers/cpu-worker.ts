import { runTask, type CpuTaskName } from './cpu-tasks';

/**
 * The worker-thread entry point loaded by `CpuPool` (from `dist/`): one exported function, given the task
 * name and its input, answering a `TaskResult`.
 */
export default function run(message: { name: CpuTaskName; input: never }) {
  return runTask(message.name, message.input);
}
