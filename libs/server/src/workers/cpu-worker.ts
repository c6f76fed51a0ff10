import { move, transferableSymbol, valueSymbol } from 'piscina';
import { outputTransferList, runTask, type CpuTaskName } from './cpu-tasks';

/**
 * The worker-thread entry point loaded by `CpuPool` (from `dist/`): one exported function, given the task
 * name and its input, answering a `TaskResult`. Buffers the output owns outright (the ingest log record)
 * are moved to the calling thread rather than copied.
 */
export default async function run(message: { name: CpuTaskName; input: never }) {
  const result = await runTask(message.name, message.input);
  const transfer = result.ok ? outputTransferList(message.name, result.value) : [];
  if (transfer.length === 0) return result;
  return move({ [transferableSymbol]: transfer, [valueSymbol]: result });
}
