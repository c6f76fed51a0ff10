import { invalid, parseTimeBound } from '@quarry/common';
import type { MplFormat } from '@quarry/mpl';

/** The `/v1/query/_mpl` request (mpl.md §3.1) after validation. */
export interface MplRequest {
  mpl: string;
  /** Unix seconds; the end is exclusive. */
  startSec: number;
  endSec: number;
  /** Param values as MPL literals, by name (the `param__` prefix is kept; the engine strips it). */
  params: Record<string, string>;
}

/** Without bounds an MPL query covers the last hour (a window grid over all time would be unbounded). */
export const DEFAULT_MPL_RANGE_SECONDS = 3600;

/**
 * Validates the body: `mpl` (or `apl`, as some clients send), `startTime`/`endTime` (RFC 3339 or
 * now-relative), params from the query string (`param__x=...`) and the body (`params` or `queryParams`;
 * the body wins on a clash).
 */
export function parseMplRequest(body: unknown, query: Record<string, unknown>, nowMs: number): MplRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('request body must be a JSON object with an "mpl" string', { code: 'mpl_body_invalid' });
  }
  const fields = body as Record<string, unknown>;
  const text = fields.mpl ?? fields.apl;
  if (typeof text !== 'string' || text.trim() === '') {
    throw invalid('"mpl" is required and must be a non-empty string', { code: 'mpl_missing' });
  }
  const nowSec = Math.floor(nowMs / 1000);
  const endSec = bound('endTime', fields.endTime, nowMs) ?? nowSec + 1;
  const startSec = bound('startTime', fields.startTime, nowMs) ?? endSec - DEFAULT_MPL_RANGE_SECONDS;
  if (endSec <= startSec)
    throw invalid('endTime must be after startTime', { code: 'mpl_time_range_invalid' });

  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith('param__') && typeof value === 'string') params[key] = value;
  }
  for (const member of ['queryParams', 'params'] as const) {
    const given = fields[member];
    if (given === undefined || given === null) continue;
    if (typeof given !== 'object' || Array.isArray(given)) {
      throw invalid(`"${member}" must be an object of param literals`, { code: 'mpl_params_invalid' });
    }
    for (const [key, value] of Object.entries(given)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw invalid(`param "${key}" must be an MPL literal (a string)`, { code: 'mpl_params_invalid' });
      }
      params[key.startsWith('param__') ? key : `param__${key}`] = String(value);
    }
  }
  return { mpl: text, startSec, endSec, params };
}

/**
 * The output format: `?format=` first, then the Accept header (v3, then v2 media types), else
 * metrics-v2 (mpl.md §3.2).
 */
export function mplFormatOf(format: unknown, accept: string | undefined): MplFormat {
  if (format !== undefined && format !== '') {
    if (format === 'metrics-v1' || format === 'metrics-v2' || format === 'metrics-v3') return format;
    throw invalid(`format must be metrics-v1, metrics-v2 or metrics-v3, not ${JSON.stringify(format)}`, {
      code: 'mpl_format_invalid',
    });
  }
  const types = (accept ?? '').toLowerCase();
  if (types.includes('metrics.v3')) return 'metrics-v3';
  return 'metrics-v2';
}

export const MPL_CONTENT_TYPES: Record<MplFormat, string> = {
  'metrics-v1': 'application/json',
  'metrics-v2': 'application/vnd.metrics.v2+json',
  'metrics-v3': 'application/vnd.metrics.v3+json',
};

function bound(name: string, value: unknown, nowMs: number): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`, { code: 'mpl_time_invalid' });
  const ms = parseTimeBound(value, nowMs);
  if (ms === null) {
    throw invalid(`${name} "${value}" is not an RFC 3339 timestamp or a relative time like now-1h`, {
      code: 'mpl_time_invalid',
    });
  }
  return Math.floor(ms / 1000);
}
