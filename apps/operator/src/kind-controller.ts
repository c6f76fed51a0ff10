import type { ObjectKey, ReconcileResult } from '@quarry/operator';

/** The part of k8s-kit's `WorkQueue<string>` a controller drives (a port, so the loop is testable). */
export interface KeyQueue {
  readonly depth: number;
  get(): Promise<string | undefined>;
  done(key: string): void;
  add(key: string): void;
  addAfter(key: string, delayMs: number): void;
  addRateLimited(key: string): void;
  forget(key: string): void;
}

export interface KindControllerOptions {
  kind: string;
  queue: KeyQueue;
  reconcile(key: ObjectKey): Promise<ReconcileResult>;
  parseKey(key: string): ObjectKey;
  /** Told of each finished reconcile (metrics). */
  onReconciled?(kind: string, seconds: number, failed: boolean): void;
  log?(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
}

/**
 * Workers that take keys from one kind's queue, reconcile them and schedule them again as the result
 * says. Informers only add keys; this is the only place a key is reconciled, and the queue guarantees a
 * key is never reconciled by two workers at once.
 */
export class KindController {
  constructor(private readonly options: KindControllerOptions) {}

  /** Runs `workers` loops until the queue shuts down. */
  run(workers: number): Promise<void> {
    return Promise.all(Array.from({ length: workers }, () => this.worker())).then(() => undefined);
  }

  private async worker(): Promise<void> {
    const { queue } = this.options;
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await this.process(key);
      } finally {
        queue.done(key);
      }
    }
  }

  private async process(key: string): Promise<void> {
    const { queue, kind } = this.options;
    const started = performance.now();
    let result: ReconcileResult;
    try {
      result = await this.options.reconcile(this.options.parseKey(key));
    } catch (err) {
      // Reconcilers turn their failures into results; reaching here is a bug or a failed cache read.
      this.options.log?.('error', `Reconcile of ${kind} threw`, { key, error: String(err) });
      result = { requeue: 'backoff', error: String(err) };
    }
    this.options.onReconciled?.(kind, (performance.now() - started) / 1000, result.error !== undefined);
    schedule(queue, key, result);
  }
}

/** Applies a reconcile result to the queue. */
export function schedule(queue: KeyQueue, key: string, result: ReconcileResult): void {
  switch (result.requeue) {
    case 'none':
      queue.forget(key);
      return;
    case 'after':
      // A success or a deliberate wait: the backoff of earlier failures starts over.
      if (result.error === undefined) queue.forget(key);
      queue.addAfter(key, result.afterMs);
      return;
    case 'backoff':
      // Retry-After is the server's own word on when to come back; otherwise the per-key backoff.
      if (result.notBeforeMs !== undefined) queue.addAfter(key, result.notBeforeMs);
      else queue.addRateLimited(key);
      return;
  }
}
