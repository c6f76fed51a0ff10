import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuarryError } from '@quarry/common';
import type { AdmissionLimits } from './admission-config';
import {
  FixedWindowCounter,
  subjectOf,
  type RateLimitScope,
  type RateLimitSubject,
  type WindowState,
} from './rate-limit';
import type { LimitsSyncStats, NamedCounter } from './rate-limit-cluster';
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
/**
 * Never rate limited: probes and scrapes (an orchestrator must always see the node), and RPC between
 * cluster nodes (`/internal/`, authenticated by the cluster secret and never forwarded by the gateway:
 * the user's request that caused it was counted where it arrived).
 */
const UNLIMITED_PATH = /^\/(?:healthz|readyz|metrics|internal\/.*)$/;

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
  | 'ingest_inflight_bytes'
  | 'query_queue_full'
  | 'query_queue_timeout'
  | 'rate_limit'
  | 'ingest_quota'
  | 'query_cost';

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
  private readonly queryCost: FixedWindowCounter | null;
  /** Called once per refused request (the metrics count them). */
  onRejected: (reason: RejectReason) => void = () => {};
  /**
   * Cluster: how sharing the counters with the region's nodes goes (`shareAdmissionCounters` sets it);
   * null where the node counts alone (the standalone server, or every per-token limit off).
   */
  limitsSync: LimitsSyncStats | null = null;

  constructor(readonly limits: AdmissionLimits) {
    this.rate =
      limits.rateLimitPerMinute > 0 ? new FixedWindowCounter(limits.rateLimitPerMinute, 60_000) : null;
    this.quota =
      limits.ingestQuotaBytes > 0
        ? new FixedWindowCounter(limits.ingestQuotaBytes, limits.ingestQuotaWindowSeconds * 1000)
        : null;
    this.queryCost =
      limits.queryCostBudgetGbMs > 0
        ? new FixedWindowCounter(limits.queryCostBudgetGbMs, limits.queryCostWindowSeconds * 1000)
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

  /** The subject's query-cost budget before this query; null when the budget is off. */
  peekQueryCost(key: string, nowMs?: number): WindowState | null {
    return this.queryCost === null ? null : this.queryCost.peek(key, nowMs);
  }

  /** Charges a finished query's cost (GB·ms) to its subject. */
  chargeQueryCost(key: string, gbMs: number, nowMs?: number): void {
    this.queryCost?.add(key, gbMs, nowMs);
  }

  /**
   * The per-token counters that are on, each with the name its rows carry in the region's shared counters
   * (kind and window, so nodes configured with different windows never add to each other's rows).
   */
  get namedCounters(): NamedCounter[] {
    const named: NamedCounter[] = [];
    if (this.rate) named.push({ name: `requests/${this.rate.windowMs}`, counter: this.rate });
    if (this.quota) named.push({ name: `ingest_bytes/${this.quota.windowMs}`, counter: this.quota });
    if (this.queryCost)
      named.push({ name: `query_gbms/${this.queryCost.windowMs}`, counter: this.queryCost });
    return named;
  }

  /** Subjects remembered by the rate limiter, the quota and the query-cost budget (bounded). */
  get trackedSubjects(): number {
    return (this.rate?.size ?? 0) + (this.quota?.size ?? 0) + (this.queryCost?.size ?? 0);
  }
}

/**
 * A query's cost in GB·ms, Axiom's unit of query compute (memory × time). Quarry does not meter the
 * memory one query holds (its scans share caches and worker threads), so it counts every query as
 * holding 1 GB while it runs: the cost is its running time in milliseconds, from the moment it got a
 * query slot (waiting in the queue is free) to its answer, rounded up, at least 1.
 */
export function queryCostGbMs(runningNs: bigint): number {
  return Math.max(1, Math.ceil(Number(runningNs) / 1e6));
}

const INGESTED_BYTES = Symbol('quarry.ingestedBytes');

/**
 * The ingest route tells admission control how many bytes the request carried after decompression
 * (its `processedBytes`): the ingest quota charges those, not the bytes sent (a gzip body counts what it
 * inflates to). Routes that never call this are charged their bytes as sent.
 */
export function noteIngestedBytes(request: { raw: object }, bytes: number): void {
  (request.raw as { [INGESTED_BYTES]?: number })[INGESTED_BYTES] = bytes;
}

function ingestedBytesOf(request: FastifyRequest): number | undefined {
  return (request.raw as { [INGESTED_BYTES]?: number })[INGESTED_BYTES];
}

/** Per-request state the hooks share. */
interface Held {
  route: RouteClass;
  reservedBytes: number;
  counted: boolean;
  /** Query-cost budget on: whom the query is charged to, and when it got its slot (0: never ran). */
  costKey: string | null;
  runningSince: bigint;
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

function queryCostHeaders(reply: FastifyReply, state: WindowState): void {
  void reply.header('X-QueryLimit-Limit', String(state.limit));
  void reply.header('X-QueryLimit-Remaining', String(state.remaining));
  void reply.header('X-QueryLimit-Reset', String(state.resetEpochSeconds));
}

function quotaHeaders(reply: FastifyReply, state: WindowState): void {
  void reply.header('X-IngestLimit-Limit', String(state.limit));
  void reply.header('X-IngestLimit-Remaining', String(state.remaining));
  void reply.header('X-IngestLimit-Reset', String(state.resetEpochSeconds));
}

const ADMISSIONS = new WeakMap<object, Admission>();

/**
 * The admission control `registerAdmission` installed on a Fastify instance (a role's providers reach it
 * through Nest's HttpAdapterHost to share its counters across the cluster); undefined when none was.
 */
export function admissionOf(app: object): Admission | undefined {
  return ADMISSIONS.get(app);
}

/**
 * Installs admission control on a Fastify instance, before any route: `onRequest` refuses what is over a
 * limit before the body is read, `preParsing` meters bodies sent without a length (and drops stalled
 * ones), and everything held is given back when the response closes.
 */
export function registerAdmission(app: FastifyInstance, admission: Admission): void {
  ADMISSIONS.set(app, admission);
  const { limits } = admission;
  app.addHook('onRequest', async (request, reply) => {
    const route = classifyRoute(request.method, request.url);
    const path = request.url.split('?', 1)[0];
    const subject = subjectOf(request.headers.authorization, request.url, request.ip);
    const held: Held = { route, reservedBytes: 0, counted: false, costKey: null, runningSince: 0n };
    (request as unknown as { [HELD]: Held })[HELD] = held;

    if (!UNLIMITED_PATH.test(path)) {
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
        // Only an accepted body counts against the quota: a refused one stored nothing. What it counts is
        // the body after decompression when the route said so (T18 in the reliability reference).
        onClose(reply.raw, () => {
          if (reply.raw.statusCode < 300)
            admission.chargeQuota(subject.key, ingestedBytesOf(request) ?? held.reservedBytes);
        });
      }
      return;
    }

    if (route === 'query') {
      const cost = admission.peekQueryCost(subject.key);
      if (cost !== null) {
        if (!cost.allowed) {
          queryCostHeaders(reply, cost);
          admission.onRejected('query_cost');
          return refuse(
            request,
            reply,
            429,
            'query limit exceeded',
            'query_limit_exceeded',
            cost.resetEpochSeconds - Date.now() / 1000,
          );
        }
        held.costKey = subject.key;
      }
      const outcome = await admission.acquireQuery((cancel) => onClose(reply.raw, cancel));
      if (typeof outcome === 'function') {
        held.runningSince = process.hrtime.bigint();
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

  // The query's cost is known once its answer is ready: charged here, and the headers say what is left.
  app.addHook('onSend', async (request, reply) => {
    const held = (request as unknown as { [HELD]?: Held })[HELD];
    if (held === undefined || held.costKey === null) return;
    if (held.runningSince > 0n) {
      admission.chargeQueryCost(held.costKey, queryCostGbMs(process.hrtime.bigint() - held.runningSince));
      held.runningSince = 0n;
    }
    const state = admission.peekQueryCost(held.costKey);
    if (state !== null) queryCostHeaders(reply, state);
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

/** Why a body that arrived whole (an OTLP/gRPC message) was refused, and for how long to back off. */
export interface MessageRefusal {
  reason: RejectReason;
  /** `throttled`: the token's own rate or quota (429 over HTTP); `overloaded`: the node (503). */
  kind: 'throttled' | 'overloaded';
  message: string;
  retryAfterSeconds: number;
  /** The window that refused, for Axiom's limit headers (absent for the in-flight bound). */
  scope?: RateLimitScope;
  state?: WindowState;
}

/** What an admitted message holds: `done` gives it back, charging the quota when the export succeeded. */
export interface MessageTicket {
  done(outcome: { ok: boolean; ingestedBytes?: number }): void;
}

/**
 * Admission for ingest that does not come through Fastify (OTLP/gRPC: grpc-js hands over the whole,
 * decompressed message). The same checks in the same order as the HTTP hooks — the token's request
 * rate, its ingest quota, then the node's in-flight bytes — against the same counters, so a token's
 * limits are shared by both ports. A refused message counts nothing but its request.
 */
export function admitMessage(
  admission: Admission,
  subject: RateLimitSubject,
  bytes: number,
): MessageRefusal | MessageTicket {
  const nowSeconds = Date.now() / 1000;
  const rate = admission.takeRequest(subject.key);
  if (rate !== null && !rate.allowed) {
    admission.onRejected('rate_limit');
    return {
      reason: 'rate_limit',
      kind: 'throttled',
      message: 'rate limit exceeded',
      retryAfterSeconds: Math.max(1, Math.ceil(rate.resetEpochSeconds - nowSeconds)),
      scope: subject.scope,
      state: rate,
    };
  }
  const quota = admission.peekQuota(subject.key);
  if (quota !== null && !quota.allowed) {
    admission.onRejected('ingest_quota');
    return {
      reason: 'ingest_quota',
      kind: 'throttled',
      message: 'ingest limit exceeded',
      retryAfterSeconds: Math.max(1, Math.ceil(quota.resetEpochSeconds - nowSeconds)),
      state: quota,
    };
  }
  if (!admission.reserveIngest(bytes)) {
    admission.onRejected('ingest_inflight_bytes');
    return {
      reason: 'ingest_inflight_bytes',
      kind: 'overloaded',
      message: 'the server is ingesting as much as it can hold; retry shortly',
      retryAfterSeconds: admission.limits.retryAfterSeconds,
    };
  }
  let released = false;
  return {
    done({ ok, ingestedBytes }) {
      if (released) return;
      released = true;
      admission.releaseIngest(bytes);
      if (ok && quota !== null) admission.chargeQuota(subject.key, ingestedBytes ?? bytes);
    },
  };
}
