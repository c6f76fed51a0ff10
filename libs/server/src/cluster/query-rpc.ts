import { timingSafeEqual } from 'node:crypto';
import * as v8 from 'node:v8';
import { forbidden, invalid, QuarryError, unavailable, type ErrorKind } from '@quarry/common';
import type { BlockRecord, ColumnBatch, ScanStats } from '@quarry/contracts';
import type { MplFramePart, MplLimits } from '@quarry/mpl';
import { rowsShareMode, type QueryLimits, type RemotePartial, type RowsFragment } from '@quarry/query-exec';
import type { AggregateNode } from '@quarry/query-plan';
import { CLUSTER_RPC_VERSION } from './membership';

/**
 * The internal RPC between query nodes (issue 14): a coordinator sends another query node a share of a
 * summarize — the plan fragment and the blocks to read — and gets back the partial states its worker
 * threads computed, the same states the threads of one node already merge. Bodies are V8's structured
 * serialization (what crosses worker threads, so every partial state already survives it), versioned by
 * `X-Quarry-Rpc-Version`, authenticated by the cluster secret, and refused without it: the route is
 * never reachable with a user token, and the gateway does not forward `/internal/`.
 */
export const RPC_CONTENT_TYPE = 'application/vnd.quarry.rpc';
export const RPC_SECRET_HEADER = 'x-quarry-cluster-secret';
export const RPC_VERSION_HEADER = 'x-quarry-rpc-version';
export const AGGREGATE_PATH = '/internal/v1/aggregate';
export const ROWS_PATH = '/internal/v1/rows';
export const MPL_PATH = '/internal/v1/mpl';

/** One node's share of a summarize. */
export interface AggregateShareRequest {
  node: AggregateNode;
  dataset: string;
  blocks: BlockRecord[];
  limits: Partial<QueryLimits>;
  /** Epoch ms after which the coordinator no longer waits: the share's work may stop. */
  deadlineMs: number;
}

export interface AggregateShareResponse {
  /** The node that answered (stats per node). */
  node: string;
  partials: RemotePartial[];
  elapsedMs: number;
}

/** One node's share of a take or top (libs/query-exec/src/row-fragments.ts). */
export interface RowsShareRequest {
  node: RowsFragment;
  dataset: string;
  /** In the scan's order: the answer keeps it. */
  blocks: BlockRecord[];
  limits: Partial<QueryLimits>;
  deadlineMs: number;
}

/** The rows a share's take or top keeps. */
export interface RowsShare {
  /**
   * One entry per block of the request, in its order: the block's kept rows, or null — or one entry for
   * all of them (`rowsShareMode` 'whole': a top by `_time`).
   */
  segments: (ColumnBatch | null)[];
  stats: ScanStats;
  rowsMatched: number;
}

export interface RowsShareResponse extends RowsShare {
  node: string;
  elapsedMs: number;
}

/**
 * One node's share of an MPL query split over series (libs/mpl/src/exec/series-split.ts): the query as
 * the coordinator received it, which simple query (`part`), and whose series (`owner` among `members`,
 * by rendezvous hashing) — a retry on another node still reads the failed owner's series.
 */
export interface MplShareRequest {
  mpl: string;
  params: Record<string, string>;
  startSec: number;
  endSec: number;
  nowSec: number;
  limits: Partial<MplLimits>;
  /** Dataset name → id, as the coordinator resolved and authorized them. */
  datasetIds: Record<string, string>;
  part: number;
  members: string[];
  owner: string;
  deadlineMs: number;
}

export interface MplShareResponse {
  node: string;
  part: MplFramePart;
  elapsedMs: number;
}

export function encodeRpc(value: unknown): Buffer {
  return v8.serialize(value);
}

/** Decodes a body; anything that is not a V8-serialized value is refused (a node answering garbage). */
export function decodeRpc<T>(body: Uint8Array, what: string): T {
  try {
    return v8.deserialize(body) as T;
  } catch (err) {
    throw invalid(`${what} is not a Quarry RPC body (${(err as Error).message})`, { code: 'rpc_garbage' });
  }
}

/** Checks the caller of an internal route: the cluster secret, and the RPC version it speaks. */
export function assertClusterCaller(
  secret: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): void {
  const given = headerOf(headers, RPC_SECRET_HEADER);
  if (secret === undefined || given === undefined || !sameSecret(secret, given)) {
    throw forbidden('internal cluster route: the cluster secret is missing or wrong', {
      code: 'cluster_secret_invalid',
    });
  }
  const version = headerOf(headers, RPC_VERSION_HEADER);
  if (version !== String(CLUSTER_RPC_VERSION)) {
    throw new QuarryError(
      'conflict',
      `this node speaks cluster RPC version ${CLUSTER_RPC_VERSION}, the caller ${version ?? 'none'}`,
      { code: 'cluster_rpc_version' },
    );
  }
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Why a share failed. `retryable`: the node is gone, slow, on another version or answered garbage — run
 * the share elsewhere. Not retryable: the query itself is at fault (a limit, a bad expression) and would
 * fail anywhere — the coordinator answers with the same error.
 */
export class ShareFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly error: QuarryError,
  ) {
    super(message);
  }
}

/** The coordinator's side: sends shares to other query nodes. */
export class QueryRpcClient {
  constructor(
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {}

  aggregate(
    url: string,
    request: AggregateShareRequest,
    signal?: AbortSignal,
  ): Promise<AggregateShareResponse> {
    return this.call(url, AGGREGATE_PATH, request, isShareResponse, "a share's partial states", signal);
  }

  rows(url: string, request: RowsShareRequest, signal?: AbortSignal): Promise<RowsShareResponse> {
    return this.call(
      url,
      ROWS_PATH,
      request,
      (v): v is RowsShareResponse =>
        isRowsResponse(v, rowsShareMode(request.node) === 'whole' ? 1 : request.blocks.length),
      "a share's rows",
      signal,
    );
  }

  mpl(url: string, request: MplShareRequest, signal?: AbortSignal): Promise<MplShareResponse> {
    return this.call(url, MPL_PATH, request, isMplResponse, "a share's series", signal);
  }

  private async call<T>(
    url: string,
    path: string,
    request: { deadlineMs: number },
    valid: (answer: unknown) => answer is T,
    what: string,
    signal?: AbortSignal,
  ): Promise<T> {
    const budget = Math.max(1, Math.min(this.timeoutMs, request.deadlineMs - Date.now()));
    const signals = [AbortSignal.timeout(budget), ...(signal ? [signal] : [])];
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': RPC_CONTENT_TYPE,
          [RPC_SECRET_HEADER]: this.secret,
          [RPC_VERSION_HEADER]: String(CLUSTER_RPC_VERSION),
        },
        body: encodeRpc(request),
        signal: AbortSignal.any(signals),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw failure(
        `${url} ${timedOut ? `did not answer within ${budget} ms` : `is unreachable: ${(err as Error).message}`}`,
      );
    }
    const body = new Uint8Array(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
    if (res.status === 200) {
      const answer = decodeRpcSafely(body, url);
      if (!valid(answer)) throw failure(`${url} answered something that is not ${what}`);
      return answer;
    }
    const message = errorMessageOf(body) ?? `HTTP ${res.status}`;
    // The query's own fault (a limit, a bad expression) fails the same anywhere: no retry.
    if (res.status >= 400 && res.status < 500 && ![401, 403, 404, 409].includes(res.status)) {
      const kind: ErrorKind =
        res.status === 413 ? 'too_large' : res.status === 429 ? 'rate_limited' : 'invalid';
      const error = new QuarryError(kind, message, { code: errorCodeOf(body) ?? 'query_failed_remotely' });
      throw new ShareFailure(`${url}: ${message}`, false, error);
    }
    throw failure(`${url} answered ${res.status}: ${message}`);
  }
}

function failure(message: string): ShareFailure {
  return new ShareFailure(
    message,
    true,
    unavailable(message, { code: 'cluster_share_failed', retryAfterSeconds: 1 }),
  );
}

function decodeRpcSafely(body: Uint8Array, url: string): unknown {
  try {
    return decodeRpc(body, `the answer of ${url}`);
  } catch (err) {
    throw failure((err as Error).message);
  }
}

function isShareResponse(value: unknown): value is AggregateShareResponse {
  const v = value as AggregateShareResponse | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.node === 'string' &&
    Array.isArray(v.partials) &&
    v.partials.every((p) => typeof p === 'object' && p !== null && 'state' in p && 'stats' in p)
  );
}

function isRowsResponse(value: unknown, blocks: number): boolean {
  const v = value as RowsShareResponse | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.node === 'string' &&
    typeof v.rowsMatched === 'number' &&
    typeof v.stats === 'object' &&
    Array.isArray(v.segments) &&
    v.segments.length === blocks &&
    v.segments.every(
      (s) =>
        s === null || (typeof s === 'object' && typeof s.length === 'number' && s.columns instanceof Map),
    )
  );
}

function isMplResponse(value: unknown): value is MplShareResponse {
  const v = value as MplShareResponse | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.node === 'string' &&
    typeof v.part === 'object' &&
    v.part !== null &&
    Array.isArray(v.part.scalars) &&
    typeof v.part.selected === 'number' &&
    typeof v.part.pointsRead === 'number' &&
    Array.isArray(v.part.units) &&
    Array.isArray(v.part.warnings) &&
    v.part.scalars.every(
      (s) =>
        typeof s === 'object' &&
        s !== null &&
        s.values instanceof Float64Array &&
        s.times instanceof Float64Array,
    )
  );
}

function errorMessageOf(body: Uint8Array): string | undefined {
  try {
    const json = JSON.parse(Buffer.from(body).toString('utf8')) as { message?: unknown };
    return typeof json.message === 'string' ? json.message : undefined;
  } catch {
    return undefined;
  }
}

/** The QuarryError code of an error body (`error` in the JSON error shape; `code` is the HTTP status). */
function errorCodeOf(body: Uint8Array): string | undefined {
  try {
    const json = JSON.parse(Buffer.from(body).toString('utf8')) as { error?: unknown };
    return typeof json.error === 'string' ? json.error : undefined;
  } catch {
    return undefined;
  }
}
