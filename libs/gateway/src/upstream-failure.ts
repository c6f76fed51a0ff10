import { ClientBodyError } from './request-body';

/**
 * What went wrong with one forwarded attempt, which decides whether it may be retried:
 * - `connect`: no connection was made, nothing reached the upstream (safe to retry for every route);
 * - `lost`: the connection broke before response headers, the request may have reached the upstream
 *   (retried only when the request is safe to repeat);
 * - `timeout`: the upstream did not answer in time (never retried: it may still be working on it);
 * - `client`: the client's own request failed (it went away mid-upload);
 * - `other`: anything else (a protocol error, an invalid answer).
 */
export type FailureKind = 'connect' | 'lost' | 'timeout' | 'client' | 'other';

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
const LOST_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
]);

/** Classifies the error @fastify/reply-from reports (it wraps undici's error as `cause`). */
export function classifyFailure(error: unknown): { kind: FailureKind; detail: string } {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const root = cause as { code?: unknown; message?: unknown };
  const detail = typeof root?.message === 'string' ? root.message : String(cause);
  if (cause instanceof ClientBodyError) return { kind: 'client', detail };
  const code = typeof root?.code === 'string' ? root.code : '';
  if (CONNECT_CODES.has(code)) return { kind: 'connect', detail };
  if (LOST_CODES.has(code)) return { kind: 'lost', detail };
  if (TIMEOUT_CODES.has(code) || (error as { statusCode?: unknown })?.statusCode === 504)
    return { kind: 'timeout', detail };
  return { kind: 'other', detail };
}
