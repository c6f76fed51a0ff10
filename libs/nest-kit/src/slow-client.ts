import * as http from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { AdmissionLimits } from './admission-config';

/**
 * The Node HTTP server with deadlines for slow clients (issue 17), for Fastify's `serverFactory`.
 * Fastify's own defaults turn Node's request timeout off (0), so a client that sends a body forever
 * would hold its socket and buffers forever; here every stage has a deadline:
 * - `headersTimeout`: the headers must arrive in time (a slowloris client trickling header lines gets 408);
 * - `requestTimeout`: the whole request, body included, must arrive in time;
 * - `bodyDeadline` (below, per request): no pause between body chunks longer than the idle timeout.
 * Node checks the first two every `connectionsCheckingInterval`, so that is kept well below them.
 */
export function slowClientServerFactory(
  limits: AdmissionLimits,
): (handler: http.RequestListener) => http.Server {
  return (handler) => {
    const shortest = Math.min(
      limits.headersTimeoutMs,
      limits.requestTimeoutMs > 0 ? limits.requestTimeoutMs : Number.POSITIVE_INFINITY,
    );
    const server = http.createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(shortest / 4))),
        keepAliveTimeout: limits.keepAliveTimeoutMs,
      },
      handler,
    );
    return server;
  };
}

export interface BodyDeadlineOptions {
  /** Longest pause between chunks (0 = none). */
  idleTimeoutMs: number;
  /** Sees each chunk's size before it is passed on; an error returned fails the body with it. */
  onChunk?: (bytes: number) => Error | undefined;
}

/**
 * Wraps a request body stream: fails it with 408 when the client pauses longer than the idle timeout,
 * and lets `onChunk` refuse a chunk (admission of bodies sent without Content-Length). Reports the bytes
 * received as `receivedEncodedLength`, which Fastify's body limit reads from a replaced stream.
 */
export function bodyDeadline(source: Readable, options: BodyDeadlineOptions): Readable {
  let timer: NodeJS.Timeout | undefined;
  const wrapped = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const refused = options.onChunk?.(chunk.length);
      if (refused) {
        callback(refused);
        return;
      }
      counter.receivedEncodedLength += chunk.length;
      arm();
      callback(null, chunk);
    },
    flush(callback) {
      if (timer) clearTimeout(timer);
      callback();
    },
  });
  const counter = wrapped as Transform & { receivedEncodedLength: number };
  counter.receivedEncodedLength = 0;
  // The client has sent the whole body: whether or not anyone reads it, it did not stall.
  let ended = false;
  const arm = () => {
    if (ended || options.idleTimeoutMs <= 0) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const err = Object.assign(
        new Error(`the request body stalled for more than ${options.idleTimeoutMs} ms`),
        { statusCode: 408, code: 'body_timeout' },
      );
      wrapped.destroy(err);
      // The socket goes too, once the 408 had a moment to leave: a client that stopped sending would
      // otherwise keep it open.
      const socket = (source as Readable & { socket?: { destroy(): void } }).socket;
      setTimeout(() => socket?.destroy(), 1000).unref();
    }, options.idleTimeoutMs);
    timer.unref();
  };
  const stop = () => {
    if (timer) clearTimeout(timer);
  };
  wrapped.once('close', stop);
  source.once('end', () => {
    ended = true;
    stop();
  });
  // Whoever reads the body listens for its errors too; a body nobody reads (a route that answered
  // without it: 415, 401…) must not take the process down with an unhandled 'error' when it fails.
  wrapped.on('error', () => {});
  source.once('error', (err) => wrapped.destroy(err));
  source.once('aborted', () =>
    wrapped.destroy(Object.assign(new Error('client aborted'), { statusCode: 400 })),
  );
  arm();
  source.pipe(wrapped);
  return wrapped;
}
