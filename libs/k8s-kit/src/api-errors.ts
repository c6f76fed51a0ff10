import { ApiException } from '@kubernetes/client-node';

/**
 * A failed Kubernetes API call as a value: the HTTP code and the `Status` reason and message the
 * apiserver sent. client-node 1.4 throws `ApiException` with the Status body as a JSON string; this reads
 * it once so reconcilers branch on `reason` instead of parsing messages.
 */
export interface KubeApiFailure {
  code: number;
  /** `NotFound`, `AlreadyExists`, `Conflict`, `Invalid`, `Expired`, … (empty when the body had none). */
  reason: string;
  message: string;
}

/** The failure inside an error thrown by a client-node API call, or `undefined` for other errors. */
export function kubeApiFailureOf(error: unknown): KubeApiFailure | undefined {
  if (!(error instanceof ApiException)) return undefined;
  const status = parseStatus(error.body);
  return {
    code: error.code,
    reason: typeof status?.reason === 'string' ? status.reason : '',
    message: typeof status?.message === 'string' ? status.message : `HTTP ${error.code}`,
  };
}

export const isNotFound = (error: unknown): boolean => kubeApiFailureOf(error)?.code === 404;

/** A 409 that is a stale resourceVersion (not AlreadyExists): re-read and try again. */
export const isConflict = (error: unknown): boolean => {
  const failure = kubeApiFailureOf(error);
  return failure?.code === 409 && failure.reason !== 'AlreadyExists';
};

export const isAlreadyExists = (error: unknown): boolean =>
  kubeApiFailureOf(error)?.reason === 'AlreadyExists';

export const isInvalid = (error: unknown): boolean => kubeApiFailureOf(error)?.code === 422;

function parseStatus(body: unknown): Record<string, unknown> | undefined {
  if (typeof body === 'object' && body !== null) return body as Record<string, unknown>;
  if (typeof body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
