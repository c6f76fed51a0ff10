import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '@quarry/common';

/**
 * Every request body is read as raw bytes. Ingest needs the exact bytes (NDJSON may arrive as
 * `application/json`, bodies may be gzip/zstd, `processedBytes` counts raw bytes); management endpoints
 * parse JSON through `jsonBodyOf`, which turns a syntax error into a 400 with its position.
 */
export function registerRawBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, (_req, body, done) => {
    done(null, body);
  });
}

/** The raw body of a request (empty when there was none). */
export function rawBodyOf(request: FastifyRequest): Buffer {
  const body = request.body;
  if (Buffer.isBuffer(body)) return body;
  return Buffer.alloc(0);
}

/** Parses the request body as JSON; a missing body is `undefined`. */
export function jsonBodyOf(request: FastifyRequest): unknown {
  const raw = rawBodyOf(request);
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalid(`request body is not valid JSON: ${(err as Error).message}`, { code: 'body_invalid_json' });
  }
}
