/**
 * The console's only way to the server: the public HTTP API (`/v1`, `/v2`) on the page's own origin,
 * with the signed-in token as `Authorization: Bearer` (and `X-Axiom-Org-Id` for a personal access token).
 * The token lives in sessionStorage: never in a URL, never logged.
 */
export interface Session {
  token: string;
  orgId?: string;
}

const KEY = 'quarry.session';
const listeners = new Set<() => void>();

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Session;
    return typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An error answer of the API: its status, code and message (with the APL position in `detail`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** `line:column` of an APL error, when the server reported one. */
  get position(): { line: number; column: number } | null {
    const line = Number(this.detail?.line);
    const column = Number(this.detail?.column);
    return Number.isInteger(line) && Number.isInteger(column) && line > 0 ? { line, column } : null;
  }
}

function headersFor(session: Session | null, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (json) headers['content-type'] = 'application/json';
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (session?.orgId) headers['x-axiom-org-id'] = session.orgId;
  return headers;
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { session?: Session | null; signal?: AbortSignal } = {},
): Promise<T> {
  const session = options.session === undefined ? loadSession() : options.session;
  const res = await fetch(path, {
    method,
    headers: headersFor(session, body !== undefined),
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: options.signal,
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    const problem = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
      message?: string;
      code?: string | number;
      error?: string;
      detail?: Record<string, unknown>;
    };
    // A token that stopped working (deleted, expired) sends the person back to sign-in.
    if (res.status === 401 && options.session === undefined && session) saveSession(null);
    const message = problem.message ?? (typeof parsed === 'string' ? parsed : res.statusText);
    throw new ApiError(res.status, message, problem.error ?? String(problem.code ?? ''), problem.detail);
  }
  return parsed as T;
}

/** Sends NDJSON lines (Stream's and tests' ingest use JSON arrays through `api`). */
export const encodePath = (segment: string): string => encodeURIComponent(segment);
