import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorKind, isQuarryError } from '@quarry/common';
import { STATUS_OF_KIND, traceIdOf } from '@quarry/nest-kit';
import { HEC_CODES, type HecCode, HecRejection, type HecStatusBody } from './hec-status';

/** The Splunk code for each Quarry error kind (the HTTP status stays Quarry's, as api.md §5.2 wants). */
const HEC_CODE_OF_KIND: Record<ErrorKind, HecCode> = {
  invalid: HEC_CODES.invalidDataFormat,
  unauthenticated: HEC_CODES.invalidToken,
  forbidden: HEC_CODES.invalidToken,
  not_found: HEC_CODES.incorrectIndex,
  conflict: HEC_CODES.invalidDataFormat,
  too_large: HEC_CODES.invalidDataFormat,
  unsupported_media_type: HEC_CODES.invalidDataFormat,
  misdirected: HEC_CODES.incorrectIndex,
  rate_limited: HEC_CODES.serverBusy,
  internal: HEC_CODES.internalError,
  unavailable: HEC_CODES.serverBusy,
  insufficient_storage: HEC_CODES.serverBusy,
};

/**
 * Answers every HEC failure — including the auth guard's — with Splunk's body `{text, code}` (plus
 * `invalid-event-number` and Quarry's `detail`), so Splunk clients can read it. Unknown dataset is
 * Splunk's 400 "Incorrect index", not 404.
 */
@Catch()
export class HecExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('hec');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, retryAfter } = describe(exception);
    if (status === 500) {
      this.logger.error(
        `${request.method} ${request.url} -> 500: ${(exception as Error)?.stack ?? String(exception)}`,
      );
    }
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    void reply.header('X-Axiom-Trace-Id', traceIdOf(request));
    void reply.status(status).type('application/json').send(body);
  }
}

function describe(exception: unknown): { status: number; body: HecStatusBody; retryAfter?: number } {
  if (exception instanceof HecRejection) return { status: exception.status, body: exception.body() };
  if (isQuarryError(exception)) {
    const hec =
      exception.code === 'auth_missing' ? HEC_CODES.tokenRequired : HEC_CODE_OF_KIND[exception.kind];
    const status =
      exception.kind === 'not_found' ? HEC_CODES.incorrectIndex.status : STATUS_OF_KIND[exception.kind];
    return {
      status,
      body: { text: hec.text, code: hec.code, detail: exception.message },
      retryAfter: exception.retryAfterSeconds,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const hec = status >= 500 ? HEC_CODES.internalError : HEC_CODES.invalidDataFormat;
    return { status, body: { text: hec.text, code: hec.code, detail: exception.message } };
  }
  const fastifyError = exception as { statusCode?: number; message?: string };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
    const hec = HEC_CODES.invalidDataFormat;
    return {
      status: fastifyError.statusCode,
      body: { text: hec.text, code: hec.code, detail: fastifyError.message ?? 'bad request' },
    };
  }
  return { status: 500, body: { text: HEC_CODES.internalError.text, code: HEC_CODES.internalError.code } };
}
