import { QuarryError, type ErrorKind } from '@quarry/common';

/**
 * What a worker-thread task answers. Errors come back as values because an Error crossing threads loses
 * its class: `deserializeError` rebuilds a QuarryError with its kind, code and details, so the HTTP edge
 * answers exactly as if the work had run on the main thread.
 */
export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** Runs `work` and turns whatever it throws into a value. */
export async function settle<T>(work: () => T | Promise<T>): Promise<TaskResult<Awaited<T>>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, error: serializeError(err) };
  }
}

/** The value of a settled task, or the error it threw. */
export function unwrap<T>(result: TaskResult<T>): T {
  if (result.ok) return result.value;
  throw deserializeError(result.error);
}

/** An error as a structured-clone-safe value. */
export interface SerializedError {
  quarry: boolean;
  kind: ErrorKind;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  stack?: string;
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof QuarryError) {
    return {
      quarry: true,
      kind: err.kind,
      code: err.code,
      message: err.message,
      details: err.details,
      retryAfterSeconds: err.retryAfterSeconds,
      stack: err.stack,
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { quarry: false, kind: 'internal', code: 'internal', message: e.message, stack: e.stack };
}

/** The error a task threw, rebuilt on this side: a QuarryError stays one (same kind, code, details). */
export function deserializeError(error: SerializedError): Error {
  if (!error.quarry) {
    const rebuilt = new Error(error.message);
    if (error.stack) rebuilt.stack = error.stack;
    return rebuilt;
  }
  return new QuarryError(error.kind, error.message, {
    code: error.code,
    details: error.details,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
