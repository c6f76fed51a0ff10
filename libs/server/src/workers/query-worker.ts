import { runAggregateTask, type AggregateTaskInput } from './query-tasks';

/** The worker-thread entry point loaded by `QueryPool` (from `dist/`). */
export default function run(input: AggregateTaskInput) {
  return runAggregateTask(input);
}
