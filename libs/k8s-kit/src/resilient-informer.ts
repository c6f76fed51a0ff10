import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';

export interface Selectors {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ResilientInformerOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig;
  /** Collection to list and watch, e.g. `collectionPath({group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets'})`. */
  path: string;
  /**
   * Lists the collection. It receives the informer's selectors so list and watch always select the same
   * objects, e.g. `(s) => customObjects.listClusterCustomObject({group, version, plural, ...s})`.
   */
  list: (selectors: Selectors) => Promise<KubernetesListObject<T>>;
  labelSelector?: string;
  fieldSelector?: string;
  /** First restart delay after an error (default 1 s); doubles per consecutive error. */
  restartDelayMs?: number;
  /** Longest restart delay (default 30 s). */
  maxRestartDelayMs?: number;
  /**
   * Reconnect the watch this often even when nothing failed (default: never). Long watches can stall
   * without an error (client-node issues #364, #596, #958); reconnecting from the last resourceVersion
   * cures that, and a 410 on reconnect makes client-node relist.
   */
  rewatchEveryMs?: number;
  /** Told of each list/watch error and when the restart comes (logging, metrics). */
  onError?: (error: unknown, restartInMs: number) => void;
  /** Told when an event handler throws; the informer carries on with the next handler and event. */
  onHandlerError?: (error: unknown, event: InformerEvent) => void;
}

export type InformerEvent = 'add' | 'update' | 'delete';
export type ObjectHandler<T> = (object: T) => void;

/**
 * client-node 1.4's `ListWatch` kept running. On its own it relists after a 410 Gone and re-watches from
 * the last resourceVersion when a watch ends cleanly, but after any other list or watch error it calls
 * its error callbacks and stops for good, and `start()` must be called again (k8s.md §4). This wrapper
 * does that with exponential backoff, reconnects periodically against silent stalls, guards the watch
 * loop against throwing handlers (a throw inside client-node's async watch handler would surface as an
 * unhandled rejection), and tells when the first list is in the cache (`synced`).
 */
export class ResilientInformer<T extends KubernetesObject> {
  /** Resolves once the first list has been applied to the cache (client-go's HasSynced). */
  readonly synced: Promise<void>;
  private readonly listWatch: ListWatch<T>;
  private readonly handlers: Record<InformerEvent, ObjectHandler<T>[]> = { add: [], update: [], delete: [] };
  private readonly restartDelayMs: number;
  private readonly maxRestartDelayMs: number;
  private markSynced!: () => void;
  private hasSyncedOnce = false;
  private running = false;
  /** Set while a periodic reconnect aborts the old watch, whose abort error is expected. */
  private reconnecting = false;
  /** A start() is listing or connecting; ListWatch cannot abort a watch that is not connected yet. */
  private attemptInFlight = false;
  private nextRestartDelayMs: number;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private rewatchTimer: ReturnType<typeof setInterval> | undefined;
  private errorsThisAttempt = 0;
  private restartCount = 0;
  private listCount = 0;
  private errorCount = 0;

  constructor(private readonly options: ResilientInformerOptions<T>) {
    this.restartDelayMs = options.restartDelayMs ?? 1_000;
    this.maxRestartDelayMs = options.maxRestartDelayMs ?? 30_000;
    this.nextRestartDelayMs = this.restartDelayMs;
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
    const selectors = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
    const list = () => {
      const listed = options.list(selectors);
      // ListWatch awaits this very promise and applies the list to its cache synchronously after it. A
      // reaction registered in a microtask comes after that await's, so it runs with the cache filled
      // (no timer involved, so fake timers in a caller's test cannot stall it).
      queueMicrotask(() =>
        listed.then(
          () => this.listed(),
          () => undefined,
        ),
      );
      return listed;
    };
    this.listWatch = new ListWatch(
      options.path,
      new Watch(options.kubeConfig),
      list,
      false,
      options.labelSelector,
      options.fieldSelector,
    );
    for (const event of ['add', 'update', 'delete'] as const) {
      this.listWatch.on(event, (object) => this.dispatch(event, object));
    }
    this.listWatch.on('error', (error) => this.failed(error));
  }

  on(event: InformerEvent, handler: ObjectHandler<T>): this {
    this.handlers[event].push(handler);
    return this;
  }

  /** Starts listing and watching; returns at once (await `synced` for the first list). */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.options.rewatchEveryMs) {
      this.rewatchTimer = setInterval(() => void this.rewatch(), this.options.rewatchEveryMs);
    }
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.restartTimer);
    clearInterval(this.rewatchTimer);
    await this.listWatch.stop();
  }

  get(name: string, namespace?: string): T | undefined {
    return this.listWatch.get(name, namespace);
  }

  list(namespace?: string): readonly T[] {
    return this.listWatch.list(namespace);
  }

  get hasSynced(): boolean {
    return this.hasSyncedOnce;
  }

  /** Restarts after errors since start (metric). */
  get restarts(): number {
    return this.restartCount;
  }

  /** Completed lists: the first, plus one per relist after a 410 (metric). */
  get lists(): number {
    return this.listCount;
  }

  get errors(): number {
    return this.errorCount;
  }

  private async attempt(): Promise<void> {
    this.errorsThisAttempt = 0;
    this.attemptInFlight = true;
    try {
      await this.listWatch.start();
    } finally {
      this.attemptInFlight = false;
    }
    if (!this.running) {
      // stop() raced with a list in flight; ListWatch does not re-check after its list, so stop it again.
      await this.listWatch.stop();
      return;
    }
    if (this.errorsThisAttempt === 0) this.nextRestartDelayMs = this.restartDelayMs;
  }

  private failed(error: unknown): void {
    // Stopping or reconnecting aborts the watch request, which ListWatch reports as an error. Only this
    // informer aborts (ListWatch's own aborts hit requests that already ended), so an abort is no failure.
    if (!this.running || this.reconnecting || isAbort(error)) return;
    this.errorCount += 1;
    this.errorsThisAttempt += 1;
    if (this.restartTimer !== undefined) return;
    const delay = this.nextRestartDelayMs;
    this.nextRestartDelayMs = Math.min(this.maxRestartDelayMs, delay * 2);
    this.options.onError?.(error, delay);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.running) return;
      this.restartCount += 1;
      void this.attempt();
    }, delay);
  }

  private async rewatch(): Promise<void> {
    if (!this.running || this.reconnecting || this.attemptInFlight || this.restartTimer !== undefined) return;
    this.reconnecting = true;
    await this.listWatch.stop();
    await new Promise((resolve) => setImmediate(resolve)); // let the aborted watch report and settle
    this.reconnecting = false;
    if (this.running) void this.attempt();
  }

  private listed(): void {
    this.listCount += 1;
    if (this.hasSyncedOnce) return;
    this.hasSyncedOnce = true;
    this.markSynced();
  }

  private dispatch(event: InformerEvent, object: T): void {
    for (const handler of this.handlers[event]) {
      try {
        handler(object);
      } catch (error) {
        this.options.onHandlerError?.(error, event);
      }
    }
  }
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
