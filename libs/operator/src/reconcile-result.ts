/**
 * What a reconcile asks of the work queue. Reconcilers never sleep or retry themselves: they return this
 * and the queue (k8s-kit) schedules the key again.
 */
export type ReconcileResult =
  /** Nothing to do until the object changes (an informer event enqueues it). */
  | { requeue: 'none'; error?: string }
  /** Look again after a fixed delay (resync, expiry, grace end, connection retry). */
  | { requeue: 'after'; afterMs: number; error?: string }
  /** A transient failure: per-key exponential backoff, but not before `notBeforeMs` (Retry-After). */
  | { requeue: 'backoff'; notBeforeMs?: number; error: string };

export const done = (): ReconcileResult => ({ requeue: 'none' });
export const after = (afterMs: number, error?: string): ReconcileResult => ({
  requeue: 'after',
  afterMs: Math.max(0, Math.round(afterMs)),
  ...(error === undefined ? {} : { error }),
});

/** The sooner of two results (a backoff wins over any fixed delay; `none` loses to everything). */
export function sooner(a: ReconcileResult, b: ReconcileResult): ReconcileResult {
  if (a.requeue === 'backoff') return a;
  if (b.requeue === 'backoff') return b;
  if (a.requeue === 'none') return b;
  if (b.requeue === 'none') return a;
  return a.afterMs <= b.afterMs ? a : b;
}

/** Resync delay with ±10 % jitter (k8s.md §0), so objects created together do not resync together. */
export function jittered(ms: number, random: () => number = Math.random): number {
  return Math.round(ms * (0.9 + 0.2 * random()));
}
