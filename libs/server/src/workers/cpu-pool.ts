import { types } from 'node:util';
import { Piscina, queueOptionsSymbol } from 'piscina';
import { runTask, type CpuTaskName, type CpuTasks } from './cpu-tasks';
import { ForegroundFirstQueue, type QueueOptions } from './foreground-first-queue';
import { unwrap, type TaskResult } from './task-result';
import {
  createThreadMemorySlots,
  readThreadMemory,
  type ThreadMemory,
  type ThreadMemorySlots,
} from './thread-memory';
import { workerScript } from './worker-script';

/**
 * Runs the CPU-heavy steps of ingest and compaction (`cpu-tasks.ts`) on worker threads (Piscina), so the
 * event loop only moves bytes, appends to the log and answers; with 0 threads it runs them inline. Either
 * way a task's error comes back as the error it threw (a QuarryError keeps its kind, code and details).
 *
 * Workers load the compiled `dist/workers/cpu-worker.js` of this package, also when this module runs from
 * TypeScript sources (tests), so the package must be built first (`npm test` builds before it runs).
 */
export class CpuPool {
  /** Whether background tasks yield to foreground ones at all (`backgroundDueWhen`). */
  private foregroundFirst = false;
  /** Whether background work has fallen too far behind to keep yielding (`backgroundDueWhen`). */
  private backgroundDue: () => boolean = () => false;

  private constructor(
    private readonly piscina: Piscina | null,
    private readonly memorySlots: ThreadMemorySlots | null = null,
  ) {}

  /** A pool of `threads` workers, or an inline runner when `threads` is 0. */
  static create(threads: number): CpuPool {
    if (threads <= 0) return new CpuPool(null);
    // Spare slots: a worker that idled out keeps its slot until it is stale (thread-memory.ts).
    const memory = createThreadMemorySlots(threads * 2);
    let pool: CpuPool | null = null;
    // Ingest parsing (a client waits) before block building and merging (background), until the
    // background work is due (ForegroundFirstQueue).
    const taskQueue = new ForegroundFirstQueue(() => pool?.backgroundDue() ?? false);
    pool = new CpuPool(
      new Piscina({
        taskQueue,
        filename: workerScript('cpu-worker.js'),
        minThreads: 1,
        maxThreads: threads,
        // Idle workers exit after a while; one always stays so the next request pays no start-up.
        idleTimeout: 30_000,
        // Idle workers keep their event loop running, so their memory report goes on (query-pool.ts).
        atomics: 'async',
        workerData: { memory },
      }),
      memory,
    );
    return pool;
  }

  /**
   * From now on background tasks (`run(..., { background: true })`) yield to foreground ones until `due`
   * says they have fallen too far behind (the standalone's un-compacted tail past its bound). Until this
   * is called every task is served first come, first served.
   */
  backgroundDueWhen(due: () => boolean): void {
    this.foregroundFirst = true;
    this.backgroundDue = due;
  }

  /** What each live worker holds (heap, Buffers), as it last reported it; empty inline. */
  memory(): ThreadMemory[] {
    return this.memorySlots ? readThreadMemory(this.memorySlots) : [];
  }

  get threads(): number {
    return this.piscina?.threads.length ?? 0;
  }

  /**
   * Runs a task. `movable` lists views in `input` the caller no longer needs: those that own their whole
   * buffer move to the worker instead of being copied (and are detached here); the rest are copied as
   * usual. Inline, nothing moves.
   */
  async run<K extends CpuTaskName>(
    name: K,
    input: Parameters<CpuTasks[K]>[0],
    movable: readonly Uint8Array[] = [],
    options: QueueOptions = { background: false },
  ): Promise<Awaited<ReturnType<CpuTasks[K]>>> {
    const transferList = movable.filter(ownsWholeBuffer).map((view) => view.buffer as ArrayBuffer);
    // The queue options ride on a symbol key: the queue reads them, structured clone drops them.
    const queued: QueueOptions = { background: this.foregroundFirst && options.background };
    const task = { name, input, [queueOptionsSymbol]: queued };
    const result: TaskResult<Awaited<ReturnType<CpuTasks[K]>>> = this.piscina
      ? await this.piscina.run(task, { transferList })
      : await runTask(name, input);
    return unwrap(result);
  }

  async close(): Promise<void> {
    await this.piscina?.destroy();
  }
}

/**
 * True when `view` spans its whole ArrayBuffer, so moving that buffer to another thread takes nothing else
 * with it (a small Buffer is a view on Node's shared pool; a SharedArrayBuffer is shared, never moved).
 */
export function ownsWholeBuffer(view: Uint8Array): boolean {
  return (
    view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && types.isArrayBuffer(view.buffer)
  );
}
