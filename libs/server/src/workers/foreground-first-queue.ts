import { FixedQueue, queueOptionsSymbol, type PiscinaTask, type TaskQueue } from 'piscina';

/** What a task payload carries under Piscina's `queueOptionsSymbol`; the worker never sees it. */
export interface QueueOptions {
  background: boolean;
}

type QueuedTask = PiscinaTask;

/**
 * The CPU pool's queue: foreground tasks (parsing an ingest request, which a client waits on) go before
 * background tasks (building and merging blocks, which nobody waits on), as a database lets writes go
 * before flushes and compactions. Background work still runs whenever no foreground task waits, and goes
 * first again once `backgroundDue` says it has fallen too far behind (the compactor's tail has grown past
 * its bound), so un-compacted rows and their memory stay bounded under sustained ingest.
 */
export class ForegroundFirstQueue implements TaskQueue {
  private readonly foreground = new FixedQueue();
  private readonly background = new FixedQueue();

  constructor(private readonly backgroundDue: () => boolean) {}

  get size(): number {
    return this.foreground.size + this.background.size;
  }

  push(task: QueuedTask): void {
    (this.isBackground(task) ? this.background : this.foreground).push(task);
  }

  shift(): QueuedTask | null {
    if (this.background.size > 0 && (this.foreground.size === 0 || this.backgroundDue()))
      return this.background.shift() as QueuedTask | null;
    return (this.foreground.shift() ?? this.background.shift()) as QueuedTask | null;
  }

  remove(task: QueuedTask): void {
    (this.isBackground(task) ? this.background : this.foreground).remove(task);
  }

  private isBackground(task: QueuedTask): boolean {
    const options = (task as unknown as Record<symbol, QueueOptions | null | undefined>)[queueOptionsSymbol];
    return options?.background === true;
  }
}
