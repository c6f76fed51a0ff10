import { invalid, parseTimeBound } from '@quarry/common';

/** The APL request body (service-spec §2.3); unknown members are ignored like Axiom does. */
export interface AplRequest {
  apl: string;
  startMs: number;
  endMs: number;
  /** Echo of the bounds as sent (or defaulted), for `request`/`range` in responses. */
  startTime: string;
  endTime: string;
}

/**
 * Validates the body and resolves the time window. Without bounds a query covers everything ingested so
 * far ([epoch, now]), which is what the official clients' tests expect (api.md §4.1).
 */
export function parseAplRequest(body: unknown, nowMs: number): AplRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('request body must be a JSON object with an "apl" string', { code: 'query_body_invalid' });
  }
  const { apl, startTime, endTime } = body as Record<string, unknown>;
  if (typeof apl !== 'string' || apl.trim() === '') {
    throw invalid('"apl" is required and must be a non-empty string', { code: 'query_apl_missing' });
  }
  return { apl, ...parseTimeWindow(startTime, endTime, nowMs) };
}

/** The query window of `startTime`/`endTime` members (both optional; see parseAplRequest). */
export function parseTimeWindow(
  startTime: unknown,
  endTime: unknown,
  nowMs: number,
): Omit<AplRequest, 'apl'> {
  const startMs = bound('startTime', startTime, 0, nowMs);
  // The end bound is exclusive; default to just after now so events stamped "now" are included.
  const endMs = bound('endTime', endTime, nowMs + 1, nowMs);
  if (endMs <= startMs) {
    throw invalid(`endTime must be after startTime`, { code: 'query_time_range_invalid' });
  }
  return {
    startMs,
    endMs,
    startTime: new Date(startMs).toISOString(),
    endTime: new Date(endMs).toISOString(),
  };
}

function bound(name: string, value: unknown, fallback: number, nowMs: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`, { code: 'query_time_invalid' });
  const ms = parseTimeBound(value, nowMs);
  if (ms === null) {
    throw invalid(`${name} "${value}" is not an RFC 3339 timestamp or a relative time like now-1h`, {
      code: 'query_time_invalid',
    });
  }
  // Go clients send the zero time for "unset".
  if (value.startsWith('0001-01-01')) return fallback;
  return ms;
}
