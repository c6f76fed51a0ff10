import type { IncomingHttpHeaders } from 'node:http';
import { ApiStatusError } from './api-status';

/** What a fault's `match` sees of a request. */
export interface RequestInfo {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  isWatch: boolean;
}

export interface FailNextOptions {
  /** HTTP status to answer with (default 500); the `Status` reason follows from it (409 → Conflict). */
  code?: number;
  message?: string;
  /** Only requests this returns true for count and fail (default: every request). */
  match?: (request: RequestInfo) => boolean;
}

export type GoneDelivery =
  /** 200, then an ERROR event carrying a 410 Status, then the end of the stream (what an apiserver does). */
  | 'event'
  /** A plain HTTP 410 answer to the watch request. */
  | 'http';

interface PendingFailure {
  remaining: number;
  error: ApiStatusError;
  match: (request: RequestInfo) => boolean;
}

/**
 * Faults a test arms before acting: the next N matching calls fail, or the next watch is told its
 * resourceVersion is gone. Each armed fault is consumed by the requests it hits, so tests stay explicit.
 */
export class FaultSwitches {
  private failures: PendingFailure[] = [];
  private goneWatches: GoneDelivery[] = [];

  failNext(count: number, options: FailNextOptions = {}): void {
    const code = options.code ?? 500;
    const message = options.message ?? `injected failure (${code})`;
    this.failures.push({
      remaining: count,
      error: ApiStatusError.forCode(code, message),
      match: options.match ?? (() => true),
    });
  }

  goneOnNextWatch(delivery: GoneDelivery): void {
    this.goneWatches.push(delivery);
  }

  /** The failure this request must get, if one is armed for it (and counts it). */
  takeFailure(request: RequestInfo): ApiStatusError | undefined {
    const pending = this.failures.find((failure) => failure.remaining > 0 && failure.match(request));
    if (!pending) return undefined;
    pending.remaining -= 1;
    this.failures = this.failures.filter((failure) => failure.remaining > 0);
    return pending.error;
  }

  takeGoneWatch(): GoneDelivery | undefined {
    return this.goneWatches.shift();
  }

  clear(): void {
    this.failures = [];
    this.goneWatches = [];
  }
}
