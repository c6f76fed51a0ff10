import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before its response was written: long work done for a
 * request (a query and the shares it sent to other nodes) stops instead of finishing for nobody.
 */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  return controller.signal;
}
