import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { statusClass, type GatewayMetrics } from './gateway-metrics';
import { NO_BODY, readReplayable, streamedBody, type ForwardBody } from './request-body';
import type { PoolName } from './routes';
import { classifyFailure, type FailureKind } from './upstream-failure';
import type { PoolMember, UpstreamPool } from './upstream-pool';

/**
 * Attempts per request: one per member, at most this many. A pool of one member (in Kubernetes, the role's
 * Service URL, where each connection may reach another pod) gets this many attempts through that member.
 */
export const MAX_ATTEMPTS = 3;
/** Methods that only read: repeating them is harmless even when an attempt may have reached an upstream. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Hop-by-hop headers: they describe one connection, never forwarded either way. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'http2-settings',
  // The client's `Expect: 100-continue` was answered by this server already (undici refuses it anyway).
  'expect',
];

export interface ForwardOptions {
  timeoutMs: number;
  /** Seconds a client should wait when no node can take its request (the probe interval, at least 1). */
  retryAfterSeconds: number;
  metrics: GatewayMetrics;
  log: FastifyBaseLogger;
}

/**
 * Forwards one request to a member of `pool`, streaming the body both ways. A failed attempt is retried on
 * another member only when that cannot apply the request twice: always when no connection was made, and
 * also when the connection broke before response headers if the request is safe to repeat (a query, or a
 * GET). When no attempt got an answer the gateway answers its own JSON error (502, 503 or 504); every other
 * status the client sees is the upstream's.
 */
export async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  pool: UpstreamPool,
  options: ForwardOptions,
): Promise<FastifyReply> {
  const { metrics } = options;
  const name = pool.name;
  if (pool.healthyCount === 0) return answerUnavailable(reply, name, options);

  let body: ForwardBody;
  try {
    body = await bodyOf(request, name);
  } catch (err) {
    options.log.debug(`${request.method} ${request.url}: ${(err as Error).message}`);
    answerFailure(reply, name, 'client', options);
    return reply;
  }
  const repeatable = body.replayable && (name === 'query' || SAFE_METHODS.has(request.method));
  const single = pool.members.length === 1;
  const maxAttempts = single ? MAX_ATTEMPTS : Math.min(MAX_ATTEMPTS, pool.members.length);
  const tried = new Set<PoolMember>();

  const attempt = (n: number): void => {
    const member = pool.pick(single ? undefined : tried);
    if (member === undefined) {
      answerUnavailable(reply, name, options);
      return;
    }
    tried.add(member);
    (request as { body: unknown }).body = body.forAttempt();
    member.inFlight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      member.inFlight--;
    };
    // Also when the client goes away first (reply-from then drops the upstream answer without telling).
    reply.raw.once('close', release);
    const sentAt = process.hrtime.bigint();

    const retryOrAnswer = (kind: FailureKind, detail: string) => {
      release();
      metrics.upstreamFailures.inc({ pool: name, kind });
      if (kind === 'connect' || kind === 'lost') pool.reportConnectionFailure(member, detail);
      const retry =
        n + 1 < maxAttempts && (kind === 'connect' ? body.untouched : kind === 'lost' && repeatable);
      const line = `${request.method} ${request.url} to ${name} node ${member.origin} failed (${kind}: ${detail})${retry ? '; retrying' : ''}`;
      if (kind === 'client') options.log.debug(line);
      else options.log.warn(line);
      if (retry) {
        metrics.retries.inc({ pool: name, reason: kind });
        attempt(n + 1);
        return;
      }
      answerFailure(reply, name, kind, options);
    };

    try {
      reply.from(member.origin + request.url, {
        timeout: options.timeoutMs,
        retryDelay: () => null, // retries are ours: on another member, and only when safe
        rewriteRequestHeaders: (_req, headers) => forwardedHeaders(request, headers as IncomingHttpHeaders),
        rewriteHeaders: (headers) => withoutHopByHop(headers as IncomingHttpHeaders),
        onResponse: (_req, rep, res) => {
          const seconds = Number(process.hrtime.bigint() - sentAt) / 1e9;
          metrics.upstreamDuration.observe({ pool: name }, seconds);
          metrics.requests.inc({ pool: name, status: statusClass(res.statusCode) });
          res.stream.once('close', release);
          void rep.send(res.stream);
        },
        onError: (_reply, { error }) => {
          const { kind, detail } = classifyFailure(error);
          retryOrAnswer(kind, detail);
        },
      });
    } catch (err) {
      // reply-from refuses some URLs before sending anything (a `..` segment, bad percent-encoding).
      release();
      answer(
        reply,
        name,
        400,
        { message: (err as Error).message, error: 'gateway_bad_request_url' },
        metrics,
      );
    }
  };

  attempt(0);
  return reply;
}

async function bodyOf(request: FastifyRequest, pool: PoolName): Promise<ForwardBody> {
  // The content-type parser hands over the raw request stream; bodyless requests have none.
  if (request.body === undefined || request.body === null) return NO_BODY;
  if (pool === 'query') return readReplayable(request.raw);
  return streamedBody(request.raw);
}

function forwardedHeaders(request: FastifyRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = withoutHopByHop(headers);
  const remote = request.raw.socket.remoteAddress;
  const priorFor = request.headers['x-forwarded-for'];
  if (remote) out['x-forwarded-for'] = priorFor ? `${priorFor}, ${remote}` : remote;
  out['x-forwarded-proto'] = request.headers['x-forwarded-proto'] ?? 'http';
  const host = request.headers['x-forwarded-host'] ?? request.headers.host;
  if (host) out['x-forwarded-host'] = host;
  return out;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out: IncomingHttpHeaders = { ...headers };
  for (const name of [...HOP_BY_HOP, ...listed]) delete out[name];
  return out;
}

function answerUnavailable(reply: FastifyReply, pool: PoolName, options: ForwardOptions): FastifyReply {
  void reply.header('retry-after', String(options.retryAfterSeconds));
  return answer(
    reply,
    pool,
    503,
    {
      message: `no healthy ${pool} node is available`,
      error: 'gateway_no_healthy_upstream',
      detail: { pool },
    },
    options.metrics,
  );
}

function answerFailure(
  reply: FastifyReply,
  pool: PoolName,
  kind: FailureKind,
  options: ForwardOptions,
): void {
  switch (kind) {
    case 'connect':
      answerUnavailable(reply, pool, options);
      return;
    case 'lost':
      answer(
        reply,
        pool,
        502,
        {
          message: `the ${pool} node closed the connection before answering; the request may or may not have been applied`,
          error: 'gateway_upstream_lost',
          detail: { pool },
        },
        options.metrics,
      );
      return;
    case 'timeout':
      answer(
        reply,
        pool,
        504,
        {
          message: `the ${pool} node did not answer within ${options.timeoutMs} ms`,
          error: 'gateway_upstream_timeout',
          detail: { pool },
        },
        options.metrics,
      );
      return;
    case 'client':
      answer(
        reply,
        pool,
        400,
        { message: 'the request body ended early', error: 'gateway_client_body' },
        options.metrics,
      );
      return;
    default:
      answer(
        reply,
        pool,
        502,
        {
          message: `the ${pool} node gave no valid answer`,
          error: 'gateway_upstream_failed',
          detail: { pool },
        },
        options.metrics,
      );
  }
}

/** The gateway's own answers use the server's error shape: `{code, message, error, detail}`. */
function answer(
  reply: FastifyReply,
  pool: PoolName,
  status: number,
  body: { message: string; error: string; detail?: Record<string, unknown> },
  metrics: GatewayMetrics,
): FastifyReply {
  metrics.requests.inc({ pool, status: statusClass(status) });
  // A request whose body was not read to its end leaves the connection unusable for another request.
  if (!reply.request.raw.complete) void reply.header('connection', 'close');
  return reply
    .code(status)
    .type('application/json')
    .send({ code: status, ...body });
}
