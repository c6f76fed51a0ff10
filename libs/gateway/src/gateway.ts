import fastify, { LogController } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { registerConsole } from '@quarry/console-static';
import type { GatewayConfig, GatewayLogLevel } from './config';
import { forward } from './forward';
import { GatewayMetrics } from './gateway-metrics';
import { classifyRoute, POOLS, type PoolName } from './routes';
import { UpstreamPool } from './upstream-pool';

export interface RunningGateway {
  /** Base URL of the gateway, e.g. `http://127.0.0.1:8080`. */
  url: string;
  close(): Promise<void>;
}

/** Quarry log levels as pino (Fastify) levels. */
const PINO_LEVEL: Record<GatewayLogLevel, string> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Outgoing connections per upstream origin (kept alive between requests). */
const CONNECTIONS_PER_UPSTREAM = 256;
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Starts the gateway: the cluster's one public URL. It routes each request by path to the pool of the role
 * that serves it (`routes.ts`), spreads requests over the pool's healthy members (`upstream-pool.ts`) and
 * streams bodies both ways (`forward.ts`). `/healthz`, `/readyz` and `/metrics` are its own, never forwarded.
 * Resolves once the first health probes answered and the port is open.
 */
export async function startGateway(config: GatewayConfig): Promise<RunningGateway> {
  const app = fastify({
    logger: { level: PINO_LEVEL[config.logLevel] },
    logController: new LogController({ disableRequestLogging: true }),
    // Bodies are streamed to upstreams and never parsed here; each role enforces its own size limit.
    bodyLimit: Number.MAX_SAFE_INTEGER,
  });
  const log = app.log.child({ name: 'gateway' });
  const pools = Object.fromEntries(
    POOLS.map((name) => [
      name,
      new UpstreamPool(name, config.upstreams[name], config.healthIntervalMs, {
        info: (message) => log.info(message),
        warn: (message) => log.warn(message),
      }),
    ]),
  ) as Record<PoolName, UpstreamPool>;
  const metrics = new GatewayMetrics(pools);

  await app.register(replyFrom, {
    disableCache: true,
    disableRequestLogging: true,
    destroyAgent: true,
    undici: {
      connections: CONNECTIONS_PER_UPSTREAM,
      pipelining: 1,
      connect: { timeout: CONNECT_TIMEOUT_MS },
    },
  });

  // Every body reaches the handler as the untouched request stream (no parsing, no limit, no decompression).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _request, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) log.error(err);
    return reply.code(status).send({ code: status, message: err.message, error: err.code });
  });

  // The web console at `/` and every path outside the API (its SPA fallback), before any forwarding.
  registerConsole(app);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const summary = Object.fromEntries(
      POOLS.map((name) => [name, { healthy: pools[name].healthyCount, members: pools[name].members.length }]),
    );
    const missing = POOLS.filter((name) => pools[name].healthyCount === 0);
    if (missing.length === 0) return { status: 'ready', pools: summary };
    return reply.code(503).send({
      code: 503,
      message: `no healthy node in pool${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      error: 'gateway_not_ready',
      detail: { pools: summary },
    });
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });

  const retryAfterSeconds = Math.max(1, Math.ceil(config.healthIntervalMs / 1000));
  app.all('/*', async (request, reply) => {
    const target = classifyRoute(request.method, request.url);
    if (target === 'internal') {
      return reply.code(404).send({
        code: 404,
        message: `route ${request.method} ${request.url.split('?')[0]} not found`,
      });
    }
    if (target === 'gateway') {
      // `/healthz`, `/readyz`, `/metrics` with another method than GET: not forwarded either.
      return reply.code(405).send({
        code: 405,
        message: `route ${request.method} ${request.url.split('?')[0]} is the gateway's own and answers GET only`,
      });
    }
    return forward(request, reply, pools[target], {
      timeoutMs: config.upstreamTimeoutMs,
      retryAfterSeconds,
      metrics,
      log,
    });
  });

  await Promise.all(POOLS.map((name) => pools[name].start()));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await Promise.all(POOLS.map((name) => pools[name].stop()));
    await app.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    url: `http://${reachableHost(config.host)}:${port}`,
    close: async () => {
      await Promise.all(POOLS.map((name) => pools[name].stop()));
      await app.close();
    },
  };
}

/** A host to reach the listener at: loopback for the wildcard addresses. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
