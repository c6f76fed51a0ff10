/** Decides how long a key waits before its next retry (client-go's `workqueue.RateLimiter`). */
export interface RateLimiter<K> {
  /** The delay for the key's next retry; each call counts one more failure. */
  when(key: K): number;
  /** Clears the key's failure count (after a success). */
  forget(key: K): void;
  numRequeues(key: K): number;
}

export interface ExponentialBackoffOptions {
  /** Delay of the first retry (default 1 s, k8s.md §3.5). */
  baseDelayMs?: number;
  /** Ceiling (default 5 min). */
  maxDelayMs?: number;
  /** Up to this fraction is taken off each delay at random, so keys that failed together spread out (default 0). */
  jitter?: number;
  random?: () => number;
}

/**
 * Per-key exponential backoff: base, 2×base, 4×base … up to the ceiling, as client-go's
 * `ItemExponentialFailureRateLimiter`; Quarry uses 1 s → 5 min instead of client-go's 5 ms → 1000 s.
 */
export class ItemExponentialBackoff<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(options: ExponentialBackoffOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 300_000;
    this.jitter = options.jitter ?? 0;
    this.random = options.random ?? Math.random;
  }

  when(key: K): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    // Math.min before the power would overflow: 2 ** 1100 is Infinity, which Math.min handles fine.
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** failures);
    return this.jitter > 0 ? delay * (1 - this.jitter * this.random()) : delay;
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}

export interface TokenBucketOptions {
  /** Sustained retries per second across all keys (default 10, client-go's). */
  qps?: number;
  /** Retries allowed at once before the rate applies (default 100). */
  burst?: number;
  now?: () => number;
}

/**
 * One token bucket for all keys (client-go's `BucketRateLimiter`): caps the overall retry rate, so a mass
 * failure (the management API down for every Dataset) does not turn into a retry storm once backoffs align.
 */
export class TokenBucketRateLimiter<K> implements RateLimiter<K> {
  private readonly qps: number;
  private readonly burst: number;
  private readonly now: () => number;
  private tokens: number;
  private updatedAt: number;

  constructor(options: TokenBucketOptions = {}) {
    this.qps = options.qps ?? 10;
    this.burst = options.burst ?? 100;
    this.now = options.now ?? Date.now;
    this.tokens = this.burst;
    this.updatedAt = this.now();
  }

  /** Reserves a token; the delay is how long until that token will have been refilled. */
  when(_key: K): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.qps);
    this.updatedAt = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_key: K): void {}

  numRequeues(_key: K): number {
    return 0;
  }
}

/** The longest delay any of the limiters asks for (client-go's `MaxOfRateLimiter`). */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: ReadonlyArray<RateLimiter<K>>;

  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(key: K): number {
    // Every limiter is asked, so each counts the failure or spends its token.
    return Math.max(0, ...this.limiters.map((limiter) => limiter.when(key)));
  }

  forget(key: K): void {
    for (const limiter of this.limiters) limiter.forget(key);
  }

  numRequeues(key: K): number {
    return Math.max(0, ...this.limiters.map((limiter) => limiter.numRequeues(key)));
  }
}

/**
 * client-go's default controller limiter with Quarry's per-key range (k8s.md §3.5): per-key backoff
 * 1 s → 5 min, and at most 10 retries per second overall after a burst of 100.
 */
export function defaultControllerRateLimiter<K>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialBackoff<K>(), new TokenBucketRateLimiter<K>());
}
