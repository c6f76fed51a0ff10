import type { ConditionUpdate } from './conditions';
import { READY, SYNCED } from './conditions';
import { ConnectionNotReadyError } from './connection-resolver';
import { KubeConflictError } from './kube-objects.port';
import { ManagementError } from './management-api.port';
import { after, done, type ReconcileResult } from './reconcile-result';

export interface ErrorTiming {
  /** Wait after 401/403 (k8s.md §3.5: 5 min). */
  unauthorizedRetryMs: number;
  /** Wait while the connection cannot be resolved (30 s). */
  connectionRetryMs: number;
}

export const STALE_CACHE_RETRY_MS = 1_000;

export const DEFAULT_ERROR_TIMING: ErrorTiming = { unauthorizedRetryMs: 300_000, connectionRetryMs: 30_000 };

/** How a failed reconcile shows in status and when it runs again. */
export interface ErrorOutcome {
  /** `undefined`: write no status (the object changed under us; the retry will). */
  synced?: ConditionUpdate;
  /** Set only when the failure says something about the external object; otherwise Ready keeps its value. */
  ready?: ConditionUpdate;
  result: ReconcileResult;
}

/**
 * The one table from error to conditions and retry (k8s.md §3.5). Everything the reconcilers throw ends
 * here; an error of an unknown type is a bug in the operator and is retried with backoff.
 */
export function outcomeOfError(err: unknown, timing: ErrorTiming = DEFAULT_ERROR_TIMING): ErrorOutcome {
  const message = err instanceof Error ? err.message : String(err);
  // The cache was behind our own write (or someone else's): the watch event of that write is on its way
  // and enqueues the key too, so this is no failure; the short delay keeps a stale cache from spinning.
  if (err instanceof KubeConflictError) return { result: after(STALE_CACHE_RETRY_MS) };
  if (err instanceof ConnectionNotReadyError) {
    return {
      ready: { type: READY, status: 'False', reason: 'ConnectionNotReady', message },
      synced: { type: SYNCED, status: 'False', reason: 'ReconcileError', message },
      result: after(timing.connectionRetryMs, message),
    };
  }
  if (err instanceof ManagementError) {
    switch (err.kind) {
      case 'Unavailable':
        return {
          synced: { type: SYNCED, status: 'False', reason: 'ManagementAPIUnavailable', message },
          result: { requeue: 'backoff', notBeforeMs: err.retryAfterMs, error: message },
        };
      case 'Unauthorized':
        return {
          synced: { type: SYNCED, status: 'False', reason: 'Unauthorized', message },
          result: after(timing.unauthorizedRetryMs, message),
        };
      case 'Invalid':
        // Retrying cannot help: the next attempt comes with the next spec change (a new generation).
        return {
          ready: { type: READY, status: 'False', reason: 'InvalidSpec', message },
          synced: { type: SYNCED, status: 'False', reason: 'ReconcileError', message },
          result: { ...done(), error: message },
        };
      case 'NotFound':
      case 'Conflict':
        break;
    }
  }
  return {
    synced: { type: SYNCED, status: 'False', reason: 'ReconcileError', message },
    result: { requeue: 'backoff', error: message },
  };
}
