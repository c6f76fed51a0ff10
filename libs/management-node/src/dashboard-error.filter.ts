import { type ArgumentsHost, Catch } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, type QuarryError } from '@quarry/common';
import { QuarryErrorFilter, STATUS_OF_KIND, traceIdOf } from '@quarry/nest-kit';

/** DashboardError of v2.json: the only error shape the `/v2/dashboards` operations document. */
export interface DashboardErrorBody {
  /** The error's stable code (`version_conflict`, `dashboard_exists`, ...): a string here, not the status. */
  code: string;
  message: string;
  currentVersion?: number;
  reason?: string;
  uid?: string;
}

/** v2.json and api.md §5.2: a stale `version` is "412 Version conflict" (409 is "already exists"). */
const VERSION_CONFLICT_STATUS = 412;

/**
 * Answers the errors of the dashboards routes in the DashboardError shape: string `code`, and
 * `currentVersion` and `uid` at the top level instead of under `detail`. The status is the server-wide one
 * for the error's kind, except a version conflict (412). Bugs and framework errors keep the server-wide
 * handling (`QuarryErrorFilter`): logged, 500 without internals.
 */
@Catch()
export class DashboardErrorFilter extends QuarryErrorFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!isQuarryError(exception) || !exception.isUserError) return super.catch(exception, host);
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const status =
      exception.code === 'version_conflict' ? VERSION_CONFLICT_STATUS : STATUS_OF_KIND[exception.kind];
    if (exception.retryAfterSeconds !== undefined)
      void reply.header('Retry-After', String(exception.retryAfterSeconds));
    void reply.header('X-Axiom-Trace-Id', traceIdOf(http.getRequest<FastifyRequest>()));
    void reply.status(status).type('application/json').send(dashboardErrorBody(exception));
  }
}

export function dashboardErrorBody(error: QuarryError): DashboardErrorBody {
  const body: DashboardErrorBody = { code: error.code, message: error.message };
  const { currentVersion, reason, uid } = error.details ?? {};
  if (typeof currentVersion === 'number') body.currentVersion = currentVersion;
  if (typeof reason === 'string') body.reason = reason;
  if (typeof uid === 'string') body.uid = uid;
  return body;
}
