import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter';

export interface WorkQueueOptions<K> {
  /** Backoff for `addRateLimited` (default: per-key 1 s → 5 min, overall 10/s after a burst of 100). */
  rateLimiter?: RateLimiter<K>;
}

/**
 * A keyed work queue with client-go's semantics (`util/workqueue`):
 * - a key is queued at most once however often it is added (the dirty set);
 * - a key is never handed out while it is being processed: adding it then marks it dirty, and `done`
 *   puts it back in the queue, so the newest state is always reconciled once more;
 * - `addAfter` delays an add (the earliest pending delay wins), `addRateLimited` delays by the key's
 *   backoff, `forget` resets the backoff;
 * - after `shutdown` adds are ignored, `get` still hands out what is queued and then resolves `undefined`;
 *   `shutdownWithDrain` also waits until every handed-out key is `done`.
 */
export class WorkQueue<K = string> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly waiting: Array<(key: K | undefined) => void> = [];
  private readonly delayed = new Map<K, { readyAt: number; timer: ReturnType<typeof setTimeout> }>();
  private readonly rateLimiter: RateLimiter<K>;
  private shuttingDown = false;
  private drained: (() => void) | undefined;
  private addCount = 0;
  private retryCount = 0;

  constructor(options: WorkQueueOptions<K> = {}) {
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>();
  }

  /** Keys queued and not yet handed out (the depth metric). */
  get depth(): number {
    return this.queue.length;
  }

  /** Keys handed out by `get` and not yet `done`. */
  get inFlight(): number {
    return this.processing.size;
  }

  /** Keys waiting for an `addAfter` / `addRateLimited` delay. */
  get delayedCount(): number {
    return this.delayed.size;
  }

  /** Adds accepted since start (counter metric; a duplicate of a queued key is not counted). */
  get totalAdds(): number {
    return this.addCount;
  }

  /** `addRateLimited` calls since start (counter metric). */
  get totalRetries(): number {
    return this.retryCount;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(key: K): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.addCount += 1;
    this.dirty.add(key);
    if (this.processing.has(key)) return; // `done` will queue it again
    this.queue.push(key);
    this.handOut();
  }

  addAfter(key: K, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const readyAt = Date.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.readyAt <= readyAt) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { readyAt, timer });
  }

  /** Adds the key after its backoff delay; each call lengthens the next delay until `forget`. */
  addRateLimited(key: K): void {
    if (this.shuttingDown) return;
    this.retryCount += 1;
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Resets the key's backoff; call it after a successful reconcile. */
  forget(key: K): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: K): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * The next key to process, waiting while the queue is empty; `undefined` once the queue is shut down and
   * empty. The caller owns the key until it calls `done(key)`.
   */
  get(): Promise<K | undefined> {
    const key = this.take();
    if (key !== undefined) return Promise.resolve(key);
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Ends processing of a key; if it was added meanwhile it is queued again. */
  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.handOut();
    }
    if (this.drained && this.processing.size === 0) this.drained();
  }

  /** Stops accepting keys, drops pending delays and wakes idle getters with `undefined`. */
  shutdown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.handOut();
  }

  /** `shutdown`, then resolves once every key handed out has been marked `done`. */
  shutdownWithDrain(): Promise<void> {
    this.shutdown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = () => {
        this.drained = undefined;
        resolve();
      };
    });
  }

  private take(): K | undefined {
    if (this.queue.length === 0) return undefined;
    const key = this.queue.shift()!;
    this.dirty.delete(key);
    this.processing.add(key);
    return key;
  }

  /** Gives queued keys to idle getters; after shutdown, an idle getter with nothing to take gets `undefined`. */
  private handOut(): void {
    while (this.waiting.length > 0) {
      const key = this.take();
      if (key === undefined && !this.shuttingDown) return;
      this.waiting.shift()!(key);
    }
  }
}
