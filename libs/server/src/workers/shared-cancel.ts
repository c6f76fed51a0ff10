import { QuarryError } from '@quarry/common';
import type { Cancellation } from '@quarry/contracts';

/**
 * Cancellation across threads. An `AbortSignal` cannot cross to a worker, and a worker busy scanning
 * cached blocks may never turn its event loop to hear a message; so the main thread shares one 32-bit
 * flag with the task, sets it when the query is aborted, and the worker's scan reads it between blocks.
 * (Piscina's own `signal` would terminate a running worker, and with it the worker's column cache.)
 */
export function shareCancellation(signal: AbortSignal | undefined): SharedArrayBuffer | undefined {
  if (signal === undefined) return undefined;
  const flag = new SharedArrayBuffer(4);
  const view = new Int32Array(flag);
  if (signal.aborted) Atomics.store(view, 0, 1);
  else signal.addEventListener('abort', () => Atomics.store(view, 0, 1), { once: true });
  return flag;
}

/** The worker's side: a cancellation that reads the shared flag. */
export function cancellationOf(flag: SharedArrayBuffer): Cancellation {
  const view = new Int32Array(flag);
  return {
    get aborted() {
      return Atomics.load(view, 0) === 1;
    },
    throwIfAborted() {
      if (Atomics.load(view, 0) === 1)
        throw new QuarryError('unavailable', 'query aborted', { code: 'query_aborted' });
    },
  };
}
