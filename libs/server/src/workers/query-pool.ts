import { Piscina } from 'piscina';
import type { RemotePartial } from '@quarry/query-exec';
import type { AggregateTaskInput } from './query-tasks';
import { unwrap, type TaskResult } from './task-result';
import { workerScript } from './worker-script';

/**
 * Query worker threads, one Piscina pool of one thread per shard: a block always goes to the same shard,
 * so each worker's decoded-column cache holds its own share of the data.
 */
export class QueryPool {
  private readonly shards: Piscina[];

  constructor(threads: number) {
    this.shards = Array.from(
      { length: threads },
      () =>
        new Piscina({
          filename: workerScript('query-worker.js'),
          minThreads: 1,
          maxThreads: 1,
          // Workers keep their caches: they never idle out.
          idleTimeout: Number.POSITIVE_INFINITY,
        }),
    );
  }

  get size(): number {
    return this.shards.length;
  }

  async aggregate(shard: number, input: AggregateTaskInput): Promise<RemotePartial> {
    const result: TaskResult<RemotePartial> = await this.shards[shard].run(input);
    return unwrap(result);
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.destroy()));
  }
}
