import { Piscina } from 'piscina';
import { invalid } from '@quarry/common';
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

  /**
   * `heapMb` bounds each worker's heap: a query whose part outgrows it fails (the worker is replaced)
   * instead of taking the process down.
   */
  constructor(
    threads: number,
    private readonly heapMb: number,
  ) {
    this.shards = Array.from(
      { length: threads },
      () =>
        new Piscina({
          filename: workerScript('query-worker.js'),
          minThreads: 1,
          maxThreads: 1,
          // Workers keep their caches: they never idle out.
          idleTimeout: Number.POSITIVE_INFINITY,
          resourceLimits: { maxOldGenerationSizeMb: heapMb },
        }),
    );
  }

  get size(): number {
    return this.shards.length;
  }

  async aggregate(shard: number, input: AggregateTaskInput): Promise<RemotePartial> {
    let result: TaskResult<RemotePartial>;
    try {
      result = await this.shards[shard].run(input);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY') throw err;
      throw invalid(
        `the query needs more memory than a query worker may use (${this.heapMb} MiB); ` +
          'narrow the time range, filter earlier, or group by fewer or coarser keys',
        { code: 'query_limit_exceeded', details: { limit: 'QUARRY_QUERY_WORKER_HEAP_MB', mib: this.heapMb } },
      );
    }
    return unwrap(result);
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.destroy()));
  }
}
