import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError } from '@quarry/common';
import { STATUS_OF_KIND } from './http-status';
import { traceIdOf } from './trace-id';

/**
 * PostgreSQL data exceptions (SQLSTATE class 22) a stored value causes: character_not_in_repertoire
 * (U+0000 in text), untranslatable_character, numeric_value_out_of_range, invalid_text_representation
 * (a lone UTF-16 surrogate in a json value).
 */
const STORED_VALUE_SQLSTATES = new Set(['22021', '22P05', '22003', '22P02']);

/** Body of every error response: `message` is what clients read; the rest helps people and tools. */
export interface ErrorBody {
  code: number;
  message: string;
  error?: string;
  detail?: Record<string, unknown>;
}

/**
 * Turns every thrown value into a JSON error with the right status. A `QuarryError` carries its own kind;
 * framework errors (bad JSON, body too large, unknown route) are user mistakes with 4xx statuses; anything
 * else is a bug: logged with its stack and answered 500 without internals.
 */
@Catch()
export class QuarryErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, retryAfter } = this.describe(exception, request);
    if (status >= 500 && status !== 503 && status !== 507) {
      this.logger.error(
        `${request.method} ${request.url} -> ${status}: ${(exception as Error)?.stack ?? String(exception)}`,
      );
    }
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    void reply.header('X-Axiom-Trace-Id', traceIdOf(request));
    void reply.status(status).type('application/json').send(body);
  }

  private describe(
    exception: unknown,
    request: FastifyRequest,
  ): { status: number; body: ErrorBody; retryAfter?: number } {
    if (isQuarryError(exception)) {
      const status = STATUS_OF_KIND[exception.kind];
      const body: ErrorBody = { code: status, message: exception.message, error: exception.code };
      if (exception.span || exception.details) {
        body.detail = {
          ...(exception.details ?? {}),
          ...(exception.span ? { line: exception.span.line, column: exception.span.column } : {}),
        };
      }
      return { status, body, retryAfter: exception.retryAfterSeconds };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message =
        status === 404
          ? `route ${request.method} ${request.url.split('?')[0]} not found`
          : typeof response === 'string'
            ? response
            : String((response as { message?: unknown }).message ?? exception.message);
      return { status, body: { code: status, message } };
    }
    const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
    if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
      const status = fastifyError.statusCode;
      return {
        status,
        body: { code: status, message: fastifyError.message ?? 'bad request', error: fastifyError.code },
      };
    }
    const sqlState = (exception as { code?: unknown })?.code;
    if (typeof sqlState === 'string' && STORED_VALUE_SQLSTATES.has(sqlState)) {
      // The request carried a value the metastore cannot hold (a U+0000 in a text, a number past a
      // bigint): the caller's data, not a bug (found by the /v2 fuzzer).
      const message = `a value in the request cannot be stored: ${(exception as Error).message}`;
      return { status: 400, body: { code: 400, message, error: 'value_not_storable' } };
    }
    return { status: 500, body: { code: 500, message: 'internal error; the server log has the details' } };
  }
}
