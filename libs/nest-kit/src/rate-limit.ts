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
 * One subject's window. `used` = `shared + inFlight + pending`: the region's total as this node last read
 * it (cluster shape; 0 on a standalone), what this node is adding to it right now, and what it consumed
 * since. A standalone server never syncs, so everything stays `pending` and the counter is purely local.
 */
interface Window {
  start: number;
  shared: number;
  inFlight: number;
  pending: number;
  /** Last time this node counted or checked it: while recent, its region total is read at every sync. */
  seenMs: number;
}

/** One subject's consumption to publish, as `FixedWindowCounter.collect` hands it out. */
export interface CounterDelta {
  subject: string;
  windowStartMs: number;
  windowEndMs: number;
  delta: number;
}

const used = (w: Window) => w.shared + w.inFlight + w.pending;

/**
 * Fixed windows aligned to the epoch, one counter per subject (Axiom reports a per-minute request limit
 * and a monthly ingest volume this way: limit, remaining, reset). The map is bounded: an insertion-ordered
 * Map used as an LRU, so memory stays at most MAX_SUBJECTS entries whatever clients send.
 *
 * In the cluster shape the counts are shared by a region's nodes (`ClusterCounterSync`): every sync
 * `collect`s what this node consumed, adds it to the metastore's row and `settle`s with the region's
 * total; between syncs the node judges by that total plus its own consumption since.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxSubjects = MAX_SUBJECTS,
  ) {}

  /** The subject's window now, created (and moved to most recently seen) on first use. */
  private current(key: string, nowMs: number): Window {
    const start = nowMs - (nowMs % this.windowMs);
    let window = this.windows.get(key);
    if (window === undefined || window.start !== start)
      window = { start, shared: 0, inFlight: 0, pending: 0, seenMs: nowMs };
    // Re-insert so the Map's order is least recently seen first.
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > this.maxSubjects) {
      const oldest = this.windows.keys().next().value as string;
      this.windows.delete(oldest);
    }
    window.seenMs = nowMs;
    return window;
  }

  private state(window: Window | undefined, start: number): WindowState {
    const spent = window !== undefined && window.start === start ? used(window) : 0;
    return {
      allowed: spent < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - spent),
      resetEpochSeconds: Math.ceil((start + this.windowMs) / 1000),
    };
  }

  /** Counts `amount` against `key` unless that would go past the limit (a refused request costs nothing). */
  take(key: string, amount: number, nowMs = Date.now()): WindowState {
    const window = this.current(key, nowMs);
    // A request is refused only once the budget is spent; the one that spends it (even past it) passes.
    const allowed = used(window) < this.limit;
    if (allowed) window.pending += amount;
    return { ...this.state(window, window.start), allowed };
  }

  /** Adds `amount` to the current window whatever the limit (bytes learnt only once a body was read). */
  add(key: string, amount: number, nowMs = Date.now()): void {
    this.current(key, nowMs).pending += amount;
  }

  /** The state without counting anything. */
  peek(key: string, nowMs = Date.now()): WindowState {
    const start = nowMs - (nowMs % this.windowMs);
    const window = this.windows.get(key);
    if (window !== undefined && window.start === start) window.seenMs = nowMs;
    return this.state(window, start);
  }

  get size(): number {
    return this.windows.size;
  }

  /**
   * The windows to sync now: those of the current window with something consumed here since the last
   * sync, or seen within `recentMs` (their region total is read again, with a delta of 0, so a node
   * that saw a token lately knows what the other nodes let it do). What is handed out moves from
   * `pending` to `inFlight` until `settle` says how the sync went.
   */
  collect(nowMs = Date.now(), recentMs = 60_000): CounterDelta[] {
    const start = nowMs - (nowMs % this.windowMs);
    const out: CounterDelta[] = [];
    for (const [subject, window] of this.windows) {
      if (window.start !== start || window.inFlight > 0) continue;
      if (window.pending === 0 && nowMs - window.seenMs > recentMs) continue;
      window.inFlight = window.pending;
      window.pending = 0;
      out.push({ subject, windowStartMs: start, windowEndMs: start + this.windowMs, delta: window.inFlight });
    }
    return out;
  }

  /**
   * Ends a sync of `collected`: with the region's totals after the deltas were added (`totals`, by
   * subject), or `null` when the sync failed, which puts the deltas back to be sent again next time.
   */
  settle(collected: readonly CounterDelta[], totals: Map<string, number> | null): void {
    for (const sent of collected) {
      const window = this.windows.get(sent.subject);
      // Forgotten (LRU) or a new window began meanwhile: the old window no longer limits anything.
      if (window === undefined || window.start !== sent.windowStartMs) continue;
      const total = totals?.get(sent.subject);
      if (total === undefined) {
        window.pending += window.inFlight;
      } else {
        // The total includes this node's delta; never below what this node alone knows it used.
        window.shared = Math.max(total, window.shared + window.inFlight);
      }
      window.inFlight = 0;
    }
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
