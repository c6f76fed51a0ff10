import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuarryError } from '@quarry/common';
import type { AdmissionLimits } from './admission-config';
import { FixedWindowCounter, subjectOf, type WindowState } from './rate-limit';
import { bodyDeadline } from './slow-client';
import { traceIdOf } from './trace-id';

/** What admission control sees of a route: ingest bodies, queries, or anything else. */
export type RouteClass = 'ingest' | 'query' | 'other';

// Paths only (the query string is cut off first). Internal RPC between query nodes (/internal/...) is
// never queued: a coordinator holds a slot while it waits for its shares, so queueing shares could deadlock.
const INGEST_PATH =
  /^\/(?:v1\/(?:ingest\/[^/]+|datasets\/[^/]+\/ingest|logs|traces|metrics)|services\/collector(?:\/.*)?)$/;
const QUERY_PATH =
  /^\/v1\/(?:datasets\/_apl|query\/_apl|query\/_mpl|query\/_metrics|query\/batch|datasets\/[^/]+\/query)$/;
/** Probes and scrapes are never rate limited (an orchestrator must always see the node). */
const PROBE_PATH = /^\/(?:healthz|readyz|metrics)$/;

export function classifyRoute(method: string, url: string): RouteClass {
  if (method !== 'POST') return 'other';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (INGEST_PATH.test(path)) return 'ingest';
  if (QUERY_PATH.test(path)) return 'query';
  return 'other';
}

/** Why a request was refused, as counted in `/metrics`. */
export type RejectReason =
  'ingest_inflight_bytes' | 'query_queue_full' | 'query_queue_timeout' | 'rate_limit' | 'ingest_quota';

interface Waiter {
  admit(): void;
}

/**
 * Per-node admission control (issue 17). Ingest requests reserve their body bytes before the body is
 * read (by Content-Length, or chunk by chunk when there is none), queries take one of a fixed number of
 * slots (waiting in a bounded queue for a bounded time), and both give back what they hold when their
 * response closes, however it closes. Past a bound the answer is 503 with Retry-After: the node is busy,
 * the request was not applied, and the same request may be sent again.
 */
export class Admission {
  ingestInflightBytes = 0;
  queriesRunning = 0;
  private readonly queue: Waiter[] = [];
  private readonly rate: FixedWindowCounter | null;
  private readonly quota: FixedWindowCounter | null;
  /** Called once per refused request (the metrics count them). */
  onRejected: (reason: RejectReason) => void = () => {};

  constructor(readonly limits: AdmissionLimits) {
    this.rate =
      limits.rateLimitPerMinute > 0 ? new FixedWindowCounter(limits.rateLimitPerMinute, 60_000) : null;
    this.quota =
      limits.ingestQuotaBytes > 0
        ? new FixedWindowCounter(limits.ingestQuotaBytes, limits.ingestQuotaWindowSeconds * 1000)
        : null;
  }

  get queriesQueued(): number {
    return this.queue.length;
  }

  /**
   * Reserves `bytes` more of the ingest budget for a request already holding `own`; false when they do
   * not fit. A request alone on the node always fits (its size is bounded by the body limit instead).
   */
  reserveIngest(bytes: number, own = 0): boolean {
    const max = this.limits.ingestMaxInflightBytes;
    const others = this.ingestInflightBytes - own;
    if (max > 0 && others > 0 && this.ingestInflightBytes + bytes > max) return false;
    this.ingestInflightBytes += bytes;
    return true;
  }

  releaseIngest(bytes: number): void {
    this.ingestInflightBytes = Math.max(0, this.ingestInflightBytes - bytes);
  }

  /**
   * Takes a query slot: at once when one is free, else after waiting in the queue. Resolves `null` when
   * the queue is full or the wait timed out, or when `gone` fires (the client left) before a slot came.
   */
  acquireQuery(onGone: (cancel: () => void) => void): Promise<(() => void) | null | RejectReason> {
    const max = this.limits.queryMaxConcurrent;
    if (max === 0 || this.queriesRunning < max) {
      this.queriesRunning++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.limits.queryMaxQueued) return Promise.resolve('query_queue_full');
    return new Promise((resolve) => {
      let settled = false;
      const waiter: Waiter = {
        admit: () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          this.queriesRunning++;
          resolve(this.releaser());
        },
      };
      const leave = (outcome: RejectReason | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(outcome);
      };
      const timer = setTimeout(() => leave('query_queue_timeout'), this.limits.queryQueueTimeoutMs);
      this.queue.push(waiter);
      onGone(() => leave(null));
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.queriesRunning--;
      const next = this.queue.shift();
      if (next) next.admit();
    };
  }

  /** Counts one request against its subject's per-minute limit; null when rate limits are off. */
  takeRequest(key: string): WindowState | null {
    return this.rate === null ? null : this.rate.take(key, 1);
  }

  /** The subject's ingest quota before this request; null when quotas are off. */
  peekQuota(key: string): WindowState | null {
    return this.quota === null ? null : this.quota.peek(key);
  }

  chargeQuota(key: string, bytes: number): void {
    this.quota?.add(key, bytes);
  }

  /** Subjects remembered by the rate limiter and the quota (bounded). */
  get trackedSubjects(): number {
    return (this.rate?.size ?? 0) + (this.quota?.size ?? 0);
  }
}

/** Per-request state the hooks share. */
interface Held {
  route: RouteClass;
  reservedBytes: number;
  counted: boolean;
}
const HELD = Symbol('quarry.admission');

function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: 429 | 503,
  message: string,
  code: string,
  retryAfterSeconds: number,
): FastifyReply {
  return reply
    .code(status)
    .header('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))))
    .header('X-Axiom-Trace-Id', traceIdOf(request))
    .header('Connection', status === 503 ? 'close' : 'keep-alive')
    .type('application/json')
    .send({ code: status, message, error: code });
}

function onClose(response: ServerResponse, release: () => void): void {
  if (response.destroyed || response.writableFinished) release();
  else response.once('close', release);
}

function rateHeaders(reply: FastifyReply, scope: string, state: WindowState): void {
  void reply.header('X-RateLimit-Scope', scope);
  void reply.header('X-RateLimit-Limit', String(state.limit));
  void reply.header('X-RateLimit-Remaining', String(state.remaining));
  void reply.header('X-RateLimit-Reset', String(state.resetEpochSeconds));
}

function quotaHeaders(reply: FastifyReply, state: WindowState): void {
  void reply.header('X-IngestLimit-Limit', String(state.limit));
  void reply.header('X-IngestLimit-Remaining', String(state.remaining));
  void reply.header('X-IngestLimit-Reset', String(state.resetEpochSeconds));
}

/**
 * Installs admission control on a Fastify instance, before any route: `onRequest` refuses what is over a
 * limit before the body is read, `preParsing` meters bodies sent without a length (and drops stalled
 * ones), and everything held is given back when the response closes.
 */
export function registerAdmission(app: FastifyInstance, admission: Admission): void {
  const { limits } = admission;
  app.addHook('onRequest', async (request, reply) => {
    const route = classifyRoute(request.method, request.url);
    const path = request.url.split('?', 1)[0];
    const subject = subjectOf(request.headers.authorization, request.url, request.ip);
    const held: Held = { route, reservedBytes: 0, counted: false };
    (request as unknown as { [HELD]: Held })[HELD] = held;

    if (!PROBE_PATH.test(path)) {
      const rate = admission.takeRequest(subject.key);
      if (rate !== null) {
        rateHeaders(reply, subject.scope, rate);
        if (!rate.allowed) {
          admission.onRejected('rate_limit');
          return refuse(
            request,
            reply,
            429,
            'rate limit exceeded',
            'rate_limited',
            rate.resetEpochSeconds - Date.now() / 1000,
          );
        }
      }
    }

    if (route === 'ingest') {
      const quota = admission.peekQuota(subject.key);
      if (quota !== null) {
        quotaHeaders(reply, quota);
        if (!quota.allowed) {
          admission.onRejected('ingest_quota');
          return refuse(
            request,
            reply,
            429,
            'ingest limit exceeded',
            'ingest_quota_exceeded',
            quota.resetEpochSeconds - Date.now() / 1000,
          );
        }
      }
      const length = Number(request.headers['content-length']);
      if (Number.isSafeInteger(length) && length > 0) {
        if (!admission.reserveIngest(length)) {
          admission.onRejected('ingest_inflight_bytes');
          return refuse(
            request,
            reply,
            503,
            'the server is ingesting as much as it can hold; retry shortly',
            'overloaded',
            limits.retryAfterSeconds,
          );
        }
        held.reservedBytes = length;
        held.counted = true;
        onClose(reply.raw, () => admission.releaseIngest(length));
      }
      if (quota !== null) {
        // Only an accepted body counts against the quota: a refused one stored nothing.
        onClose(reply.raw, () => {
          if (reply.raw.statusCode < 300) admission.chargeQuota(subject.key, held.reservedBytes);
        });
      }
      return;
    }

    if (route === 'query') {
      const outcome = await admission.acquireQuery((cancel) => onClose(reply.raw, cancel));
      if (typeof outcome === 'function') {
        onClose(reply.raw, outcome);
        return;
      }
      if (outcome === null) {
        // The client left while waiting: nothing to answer, and the query must not run without a slot.
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      admission.onRejected(outcome);
      return refuse(
        request,
        reply,
        503,
        outcome === 'query_queue_full'
          ? 'too many queries are waiting on this server; retry shortly'
          : 'no query slot came free in time; retry shortly',
        'overloaded',
        limits.retryAfterSeconds,
      );
    }
  });

  app.addHook('preParsing', (request, reply, payload, done) => {
    const held = (request as unknown as { [HELD]?: Held })[HELD];
    const meter = held?.route === 'ingest' && !held.counted;
    if (!meter && limits.bodyIdleTimeoutMs === 0) {
      done(null, payload);
      return;
    }
    let metered = 0;
    let releasing = false;
    done(
      null,
      bodyDeadline(payload, {
        idleTimeoutMs: limits.bodyIdleTimeoutMs,
        onChunk: (bytes) => {
          if (!meter || held === undefined) return undefined;
          if (!admission.reserveIngest(bytes, metered)) {
            admission.onRejected('ingest_inflight_bytes');
            return new QuarryError(
              'unavailable',
              'the server is ingesting as much as it can hold; retry shortly',
              { code: 'overloaded', retryAfterSeconds: limits.retryAfterSeconds },
            );
          }
          if (!releasing) {
            releasing = true;
            onClose(reply.raw, () => admission.releaseIngest(metered));
          }
          metered += bytes;
          held.reservedBytes = metered;
          return undefined;
        },
      }),
    );
  });
}
