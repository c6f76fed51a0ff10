import { Piscina } from 'piscina';
import { invalid } from '@quarry/common';
import type { RemotePartial } from '@quarry/query-exec';
import type { AggregateTaskInput, ForgetTaskInput } from './query-tasks';
import { unwrap, type TaskResult } from './task-result';
import {
  createThreadMemorySlots,
  readThreadMemory,
  type ThreadMemory,
  type ThreadMemorySlots,
} from './thread-memory';
import { workerScript } from './worker-script';

/**
 * Query worker threads, one Piscina pool of one thread per shard: a block always goes to the same shard,
 * so each worker's decoded-column cache holds its own share of the data.
 */
export class QueryPool {
  private readonly shards: Piscina[];
  /** Each shard's memory slot (one thread per shard). */
  private readonly memorySlots: ThreadMemorySlots[];

  /**
   * `heapMb` bounds each worker's heap: a query whose part outgrows it fails (the worker is replaced)
   * instead of taking the process down.
   */
  constructor(
    threads: number,
    private readonly heapMb: number,
  ) {
    this.memorySlots = Array.from({ length: threads }, () => createThreadMemorySlots(1));
    this.shards = this.memorySlots.map(
      (memory) =>
        new Piscina({
          filename: workerScript('query-worker.js'),
          minThreads: 1,
          maxThreads: 1,
          // Workers keep their caches: they never idle out.
          idleTimeout: Number.POSITIVE_INFINITY,
          // An idle worker waits with Atomics.waitAsync, not Atomics.wait: its event loop keeps running, so
          // its memory report (a timer, `thread-memory.ts`) goes on while it waits for tasks. With the
          // default ('sync') a worker wrote its report once at start and never again.
          atomics: 'async',
          resourceLimits: { maxOldGenerationSizeMb: heapMb },
          workerData: { memory },
        }),
    );
  }

  get size(): number {
    return this.shards.length;
  }

  /** What each shard's worker holds (heap, Buffers, its reader's caches), as it last reported it. */
  memory(): Array<ThreadMemory | null> {
    return this.memorySlots.map((slots) => readThreadMemory(slots)[0] ?? null);
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

  /**
   * Every worker drops what its reader cached for these blocks (they left the index). Sent to every
   * shard, not only each block's preferred one: `dealBlocks` passes a block to another shard when its
   * own is over its share, so any worker may hold it. A worker takes the message after the task it runs.
   */
  async forget(objectKeys: readonly string[]): Promise<void> {
    if (objectKeys.length === 0) return;
    const input: ForgetTaskInput = { objectKeys: [...objectKeys] };
    await Promise.all(this.shards.map((shard) => shard.run(input, { name: 'forget' })));
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.destroy()));
  }
}
