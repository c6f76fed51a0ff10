import * as os from 'node:os';

/**
 * Limits that keep one node healthy under overload (issue 17): admission of ingest bytes and queries,
 * per-token request rates and ingest quotas, and deadlines for slow clients. Read from the environment
 * once at start, next to their defaults and help text; every bad variable is reported at once.
 *
 * The defaults bound memory without changing how a well-behaved client sees the server: rate limits and
 * quotas are off, the admission bounds are generous, and slow-client deadlines are far above any real
 * request's pace.
 */
export interface AdmissionLimits {
  /** Request body bytes ingest may hold at once on this node (0 = unbounded). */
  ingestMaxInflightBytes: number;
  /** Queries running at once on this node (0 = unbounded). */
  queryMaxConcurrent: number;
  /** Queries waiting for a slot; more are answered 503 at once. */
  queryMaxQueued: number;
  /** How long a query may wait for a slot before it is answered 503. */
  queryQueueTimeoutMs: number;
  /** Seconds a refused client is told to wait (`Retry-After`). */
  retryAfterSeconds: number;
  /** Requests per minute per token (per client address without one); 0 = off. Per region in a cluster. */
  rateLimitPerMinute: number;
  /** Ingest bytes (after decompression) per token per quota window; 0 = off. */
  ingestQuotaBytes: number;
  /** The ingest quota's window, aligned to the epoch. */
  ingestQuotaWindowSeconds: number;
  /** Query cost (GB·ms) per token per query-cost window; 0 = off. */
  queryCostBudgetGbMs: number;
  /** The query-cost budget's window, aligned to the epoch. */
  queryCostWindowSeconds: number;
  /** Cluster shape: how often a node publishes its counts to the region's shared counters and reads them back. */
  limitsSyncIntervalMs: number;
  /** Time a client has to send the request headers (Node's `server.headersTimeout`). */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request (Node's `server.requestTimeout`); 0 = none. */
  requestTimeoutMs: number;
  /** Longest pause between two chunks of a request body before the request is dropped; 0 = none. */
  bodyIdleTimeoutMs: number;
  /** Idle time before a keep-alive connection is closed. */
  keepAliveTimeoutMs: number;
}

const MiB = 1024 * 1024;

interface Variable {
  key: keyof AdmissionLimits;
  default: number;
  min: number;
  max: number;
  help: string;
}

export const ADMISSION_VARIABLES: Record<string, Variable> = {
  QUARRY_INGEST_MAX_INFLIGHT_BYTES: {
    key: 'ingestMaxInflightBytes',
    default: 256 * MiB,
    min: 0,
    max: 64 * 1024 * MiB,
    help: 'Request body bytes all ingest requests of this node may hold at once; past it ingest answers 503 with Retry-After (0 = unbounded).',
  },
  QUARRY_QUERY_MAX_CONCURRENT: {
    key: 'queryMaxConcurrent',
    default: Math.max(4, 2 * os.availableParallelism()),
    min: 0,
    max: 100_000,
    help: 'Queries (APL, MPL, legacy, batch) running at once on this node (default twice the CPU count, at least 4; 0 = unbounded).',
  },
  QUARRY_QUERY_MAX_QUEUED: {
    key: 'queryMaxQueued',
    default: 256,
    min: 0,
    max: 1_000_000,
    help: 'Queries waiting for a slot; one more is answered 503 with Retry-After at once.',
  },
  QUARRY_QUERY_QUEUE_TIMEOUT_MS: {
    key: 'queryQueueTimeoutMs',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    help: 'How long a query waits for a slot before it is answered 503 with Retry-After, in milliseconds.',
  },
  QUARRY_RETRY_AFTER_SECONDS: {
    key: 'retryAfterSeconds',
    default: 1,
    min: 1,
    max: 3600,
    help: 'Retry-After of an overload answer (503), in seconds.',
  },
  QUARRY_RATE_LIMIT_PER_MINUTE: {
    key: 'rateLimitPerMinute',
    default: 0,
    min: 0,
    max: 1_000_000_000,
    help: 'Requests per minute per token (per client address without a token), per region in the cluster shape (shared through the metastore), per server standalone; past it 429 with X-RateLimit-* headers (0 = off, and no headers).',
  },
  QUARRY_INGEST_QUOTA_BYTES: {
    key: 'ingestQuotaBytes',
    default: 0,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    help: 'Ingest bytes (after decompression, as processedBytes counts them) per token per quota window, per region in the cluster shape, per server standalone; past it 429 with X-IngestLimit-* headers (0 = off, and no headers).',
  },
  QUARRY_INGEST_QUOTA_WINDOW_SECONDS: {
    key: 'ingestQuotaWindowSeconds',
    default: 30 * 86_400,
    min: 1,
    max: 366 * 86_400,
    help: 'Window of the ingest quota, aligned to the epoch, in seconds (default 30 days).',
  },
  QUARRY_QUERY_COST_BUDGET_GBMS: {
    key: 'queryCostBudgetGbMs',
    default: 0,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    help: 'Query cost in GB·ms (a query counts 1 GB for each millisecond it runs) per token per window, per region in the cluster shape, per server standalone; query responses carry X-QueryLimit-* and past it 429 (0 = off, and no headers).',
  },
  QUARRY_QUERY_COST_WINDOW_SECONDS: {
    key: 'queryCostWindowSeconds',
    default: 30 * 86_400,
    min: 1,
    max: 366 * 86_400,
    help: 'Window of the query-cost budget, aligned to the epoch, in seconds (default 30 days).',
  },
  QUARRY_LIMITS_SYNC_MS: {
    key: 'limitsSyncIntervalMs',
    default: 1000,
    min: 50,
    max: 60_000,
    help: "Cluster shape: every this many milliseconds (S) a node adds its rate-limit, quota and query-cost counts to the region's shared counters in the metastore and reads back the totals; a region may pass a limit by at most nodes × per-node rate × 2·S.",
  },
  QUARRY_HEADERS_TIMEOUT_MS: {
    key: 'headersTimeoutMs',
    default: 30_000,
    min: 100,
    max: 3_600_000,
    help: 'Time a client has to send its request headers (slowloris defence), in milliseconds; then 408 and the connection is closed.',
  },
  QUARRY_REQUEST_TIMEOUT_MS: {
    key: 'requestTimeoutMs',
    default: 300_000,
    min: 0,
    max: 86_400_000,
    help: 'Time a client has to send a whole request, body included, in milliseconds (0 = none); then 408 and the connection is closed.',
  },
  QUARRY_BODY_IDLE_TIMEOUT_MS: {
    key: 'bodyIdleTimeoutMs',
    default: 30_000,
    min: 0,
    max: 3_600_000,
    help: 'Longest pause between two chunks of a request body, in milliseconds (0 = none); then the request is dropped with 408.',
  },
  QUARRY_KEEP_ALIVE_TIMEOUT_MS: {
    key: 'keepAliveTimeoutMs',
    default: 72_000,
    min: 1,
    max: 3_600_000,
    help: 'Idle time before a keep-alive connection is closed, in milliseconds.',
  },
};

/** Parses the admission variables; throws one error listing every bad one. */
export function loadAdmissionLimits(env: NodeJS.ProcessEnv = process.env): AdmissionLimits {
  const limits = {} as AdmissionLimits;
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(ADMISSION_VARIABLES)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      limits[spec.key] = spec.default;
      continue;
    }
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
      problems.push(`${name}=${JSON.stringify(raw)}: must be a non-negative integer`);
    } else if (value < spec.min || value > spec.max) {
      problems.push(`${name}=${JSON.stringify(raw)}: must be between ${spec.min} and ${spec.max}`);
    } else {
      limits[spec.key] = value;
    }
  }
  if (
    problems.length === 0 &&
    limits.requestTimeoutMs > 0 &&
    limits.headersTimeoutMs > limits.requestTimeoutMs
  ) {
    problems.push('QUARRY_HEADERS_TIMEOUT_MS must not exceed QUARRY_REQUEST_TIMEOUT_MS');
  }
  if (problems.length > 0) {
    throw new Error(`invalid admission configuration:\n  ${problems.join('\n  ')}`);
  }
  return limits;
}

/** The admission variables as `--help` lines. */
export function admissionConfigHelp(): string {
  return Object.entries(ADMISSION_VARIABLES)
    .map(([name, spec]) => `  ${name} (default ${spec.default})\n      ${spec.help}`)
    .join('\n');
}
