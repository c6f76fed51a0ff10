import {
  ManagementError,
  kindOfStatus,
  type ApiDataset,
  type ApiRole,
  type ApiToken,
  type CreateDatasetBody,
  type ManagementApi,
  type MintedToken,
  type RegenerateBody,
  type RoleBody,
  type TokenBody,
  type UpdateDatasetBody,
} from './management-api.port';
import { Agent, fetch as undiciFetch } from 'undici';
import type { ConnectionTls } from './connection-resolver';

export interface HttpManagementApiOptions {
  /** Base URL of the management API, without `/v2`. */
  baseUrl: string;
  token: string;
  /** Sent as `X-Axiom-Org-Id` (needed with personal tokens). */
  orgId?: string;
  /** Per call; a call still running then counts as `Unavailable`. */
  timeoutMs?: number;
  /** A private CA to trust, or no verification at all (`QuarryConnection.spec.tls`). */
  tls?: ConnectionTls;
  fetch?: typeof fetch;
}

/** `ManagementApi` over HTTP with the global fetch; every failure leaves as a classified `ManagementError`. */
export class HttpManagementApi implements ManagementApi {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpManagementApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetch = options.fetch ?? (options.tls ? fetchWithTls(options.tls) : globalThis.fetch);
  }

  listDatasets() {
    return this.call<ApiDataset[]>('GET', '/v2/datasets');
  }
  getDataset(name: string) {
    return this.call<ApiDataset>('GET', `/v2/datasets/${enc(name)}`);
  }
  createDataset(body: CreateDatasetBody) {
    return this.call<ApiDataset>('POST', '/v2/datasets', body);
  }
  updateDataset(name: string, body: UpdateDatasetBody) {
    return this.call<ApiDataset>('PUT', `/v2/datasets/${enc(name)}`, body);
  }
  replaceMapFields(name: string, fields: string[]) {
    return this.call<string[]>('PUT', `/v2/datasets/${enc(name)}/mapfields`, fields);
  }
  deleteDataset(name: string) {
    return this.call<void>('DELETE', `/v2/datasets/${enc(name)}`);
  }

  listRoles() {
    return this.call<ApiRole[]>('GET', '/v2/rbac/roles');
  }
  getRole(id: string) {
    return this.call<ApiRole>('GET', `/v2/rbac/roles/${enc(id)}`);
  }
  createRole(body: RoleBody) {
    return this.call<ApiRole>('POST', '/v2/rbac/roles', body);
  }
  replaceRole(id: string, body: RoleBody) {
    return this.call<ApiRole>('PUT', `/v2/rbac/roles/${enc(id)}`, body);
  }
  deleteRole(id: string) {
    return this.call<void>('DELETE', `/v2/rbac/roles/${enc(id)}`);
  }

  listTokens() {
    return this.call<ApiToken[]>('GET', '/v2/tokens');
  }
  getToken(id: string) {
    return this.call<ApiToken>('GET', `/v2/tokens/${enc(id)}`);
  }
  async createToken(body: TokenBody): Promise<MintedToken> {
    return minted(await this.call<ApiToken & { token: string }>('POST', '/v2/tokens', body));
  }
  async regenerateToken(id: string, body: RegenerateBody): Promise<MintedToken> {
    return minted(
      await this.call<ApiToken & { token: string }>('POST', `/v2/tokens/${enc(id)}/regenerate`, body),
    );
  }
  deleteToken(id: string) {
    return this.call<void>('DELETE', `/v2/tokens/${enc(id)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.token}`,
      Accept: 'application/json',
    };
    if (this.options.orgId) headers['X-Axiom-Org-Id'] = this.options.orgId;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const what = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      // Timeouts, refused connections and resets: the server may be fine a moment later.
      const reason =
        (err as Error).name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : String(err);
      throw new ManagementError('Unavailable', `${what}: ${reason}`);
    }
    const kind = kindOfStatus(response.status);
    if (kind !== undefined) {
      throw new ManagementError(
        kind,
        `${what} failed with ${response.status}: ${messageOf(text)}`,
        response.status,
        retryAfterMs(response.headers.get('retry-after')),
      );
    }
    if (response.status === 204 || text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ManagementError(
        'Unavailable',
        `${what}: answered ${response.status} with a body that is not JSON`,
      );
    }
  }
}

const enc = encodeURIComponent;

function minted(answer: ApiToken & { token: string }): MintedToken {
  const { token: secret, ...token } = answer;
  return { token, secret };
}

/** The API's `message`, else the raw body: that is what a user needs to see in a condition. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 1024) || 'no message';
}

/** `Retry-After` as seconds or as an HTTP date. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * fetch over a connection pool that trusts `tls.ca` (in addition to nothing else: a private endpoint's
 * CA is the one that signs it) or skips verification. undici's own fetch, so its Agent is the one it
 * knows (Node's global fetch bundles another copy of undici).
 */
function fetchWithTls(tls: ConnectionTls): typeof fetch {
  const dispatcher = new Agent({
    connect: { ca: tls.ca, rejectUnauthorized: !tls.insecureSkipVerify },
  });
  return ((input: string, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
