import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const TRACE_ID = Symbol('quarry.traceId');

/** A per-request id returned as `X-Axiom-Trace-Id` (the Go client reads it from error responses). */
export function traceIdOf(request: FastifyRequest): string {
  const holder = request as unknown as { [TRACE_ID]?: string };
  return (holder[TRACE_ID] ??= randomBytes(16).toString('hex'));
}
