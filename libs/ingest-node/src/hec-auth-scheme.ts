import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The HEC routes: the only ones whose callers may use Splunk's authorization schemes. */
export const HEC_PATH_PREFIX = '/services/collector';

/**
 * The bearer form of a HEC `Authorization` header: `Splunk <token>` and HTTP Basic with the token as
 * password (`x:<token>`, any user) become `Bearer <token>`; anything else is returned unchanged (the
 * auth guard then answers 401 as for any other route).
 */
export function bearerFromHecAuthorization(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const splunk = /^Splunk\s+(\S+)\s*$/i.exec(header);
  if (splunk) return `Bearer ${splunk[1]}`;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0 && colon < decoded.length - 1) return `Bearer ${decoded.slice(colon + 1)}`;
  }
  return header;
}

/**
 * Lets HEC clients authenticate the Splunk way. The auth guard (libs/server) reads only `Bearer`, and
 * guards run before anything a controller declares, so the header is rewritten in a Fastify `onRequest`
 * hook — for HEC paths only — before Nest sees the request.
 *
 * Stopgap: the natural home is `AuthService.authenticate` (accept the schemes for routes that declare
 * them), which is outside this lib; once it does, this provider goes away.
 */
@Injectable()
export class HecAuthSchemes implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
      if (request.url.startsWith(HEC_PATH_PREFIX)) {
        request.headers.authorization = bearerFromHecAuthorization(request.headers.authorization);
      }
      done();
    });
  }
}
