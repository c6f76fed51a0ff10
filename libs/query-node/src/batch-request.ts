import { invalid } from '@quarry/common';

/** One query of a batch (v1-edge-query.json `batchQuery`): its id and its APL or MPL request, unread. */
export interface BatchItem {
  queryId: string;
  kind: 'apl' | 'mpl';
  /** The `aplRequest` or `mplRequest` member as sent; checked when the item runs (its own error event). */
  request: unknown;
  /** Why the item cannot run at all (neither or both requests), reported as its error event. */
  problem?: string;
}

export interface BatchRequest {
  items: BatchItem[];
  maxConcurrency: number;
}

export const DEFAULT_BATCH_CONCURRENCY = 10;
export const MAX_BATCH_CONCURRENCY = 20;
/** Queries one batch may hold: each holds its result until written, so the batch is bounded. */
export const MAX_BATCH_QUERIES = 100;

const bad = (message: string, path?: string): never => {
  throw invalid(`batch query: ${message}`, { code: 'batch_invalid', ...(path ? { details: { path } } : {}) });
};

/**
 * Validates what makes the whole batch unreadable (400 before any query runs): the body is not an array
 * of `{queryId}` objects with distinct ids, or a query param is out of range. What is wrong inside one
 * item's query is that item's error event instead.
 */
export function parseBatchRequest(body: unknown, query: Record<string, unknown>): BatchRequest {
  if (!Array.isArray(body)) bad('the body must be a JSON array of {queryId, aplRequest | mplRequest}');
  const list = body as unknown[];
  if (list.length > MAX_BATCH_QUERIES)
    bad(`a batch holds at most ${MAX_BATCH_QUERIES} queries, not ${list.length}`);
  const seen = new Set<string>();
  const items = list.map((raw, i): BatchItem => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      bad(`[${i}] must be an object`, `[${i}]`);
    const item = raw as Record<string, unknown>;
    const id = item.queryId;
    if (typeof id !== 'string' || id === '')
      bad(`[${i}].queryId is required and must be a non-empty string`, `[${i}].queryId`);
    if (seen.has(id as string)) bad(`[${i}].queryId "${id as string}" is used twice`, `[${i}].queryId`);
    seen.add(id as string);
    const apl = item.aplRequest ?? undefined;
    const mpl = item.mplRequest ?? undefined;
    if (apl !== undefined && mpl !== undefined) {
      return {
        queryId: id as string,
        kind: 'apl',
        request: apl,
        problem: 'set exactly one of aplRequest and mplRequest, not both',
      };
    }
    if (apl === undefined && mpl === undefined) {
      return {
        queryId: id as string,
        kind: 'apl',
        request: undefined,
        problem: 'set exactly one of aplRequest and mplRequest',
      };
    }
    return apl !== undefined
      ? { queryId: id as string, kind: 'apl', request: apl }
      : { queryId: id as string, kind: 'mpl', request: mpl };
  });
  return { items, maxConcurrency: parseConcurrency(query.maxConcurrency) };
}

function parseConcurrency(value: unknown): number {
  if (value === undefined || value === '') return DEFAULT_BATCH_CONCURRENCY;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_BATCH_CONCURRENCY)) {
    bad(
      `maxConcurrency must be an integer from 1 to ${MAX_BATCH_CONCURRENCY}, not ${JSON.stringify(value)}`,
      'maxConcurrency',
    );
  }
  return n;
}
