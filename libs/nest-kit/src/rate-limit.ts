import { createHash } from 'node:crypto';

/** Axiom's `X-RateLimit-Scope` values: a personal token is a user's, an API token its organization's. */
export type RateLimitScope = 'user' | 'organization' | 'anonymous';

/** Who a request is charged to: a hash of its token (never the token itself), or its client address. */
export interface RateLimitSubject {
  key: string;
  scope: RateLimitScope;
}

/** The state of one subject's window after a request was counted (or refused). */
export interface WindowState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** End of the window, in UTC epoch seconds. */
  resetEpochSeconds: number;
}

/** Most subjects remembered; the least recently seen are forgotten first (so a flood of made-up tokens cannot grow memory). */
const MAX_SUBJECTS = 10_000;

/**
 * Fixed windows aligned to the epoch, one counter per subject (Axiom reports a per-minute request limit
 * and a monthly ingest volume this way: limit, remaining, reset). The map is bounded: an insertion-ordered
 * Map used as an LRU, so memory stays at most MAX_SUBJECTS entries whatever clients send.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly maxSubjects = MAX_SUBJECTS,
  ) {}

  /** Counts `amount` against `key` unless that would go past the limit (a refused request costs nothing). */
  take(key: string, amount: number, nowMs = Date.now()): WindowState {
    const start = nowMs - (nowMs % this.windowMs);
    let window = this.windows.get(key);
    if (window === undefined || window.start !== start) window = { start, used: 0 };
    // Re-insert so the Map's order is least recently seen first.
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > this.maxSubjects) {
      const oldest = this.windows.keys().next().value as string;
      this.windows.delete(oldest);
    }
    // A request is refused only once the budget is spent; the one that spends it (even past it) passes.
    const allowed = window.used < this.limit;
    if (allowed) window.used += amount;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.used),
      resetEpochSeconds: Math.ceil((start + this.windowMs) / 1000),
    };
  }

  /** Adds `amount` to the current window whatever the limit (bytes learnt only once a body was read). */
  add(key: string, amount: number, nowMs = Date.now()): void {
    const start = nowMs - (nowMs % this.windowMs);
    const window = this.windows.get(key);
    if (window !== undefined && window.start === start) window.used += amount;
    else this.take(key, amount, nowMs);
  }

  /** The state without counting anything. */
  peek(key: string, nowMs = Date.now()): WindowState {
    const start = nowMs - (nowMs % this.windowMs);
    const window = this.windows.get(key);
    const used = window !== undefined && window.start === start ? window.used : 0;
    return {
      allowed: used < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetEpochSeconds: Math.ceil((start + this.windowMs) / 1000),
    };
  }

  get size(): number {
    return this.windows.size;
  }
}

/** The token of a request, however it was sent (Bearer, Splunk, Basic password, `tk` query parameter). */
export function subjectOf(
  authorization: string | undefined,
  url: string,
  clientAddress: string | undefined,
): RateLimitSubject {
  const token = tokenOf(authorization, url);
  if (token === undefined) return { key: `ip:${clientAddress ?? 'unknown'}`, scope: 'anonymous' };
  const scope: RateLimitScope = token.startsWith('xapt-') ? 'user' : 'organization';
  return { key: createHash('sha256').update(token).digest('base64url').slice(0, 22), scope };
}

function tokenOf(authorization: string | undefined, url: string): string | undefined {
  if (authorization) {
    const space = authorization.indexOf(' ');
    const scheme = space < 0 ? '' : authorization.slice(0, space).toLowerCase();
    const value = authorization.slice(space + 1).trim();
    if (scheme === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon >= 0 ? decoded.slice(colon + 1) : decoded;
    }
    if (value) return value;
  }
  const query = url.indexOf('?');
  if (query >= 0) {
    const tk = new URLSearchParams(url.slice(query + 1)).get('tk');
    if (tk) return tk;
  }
  return undefined;
}
