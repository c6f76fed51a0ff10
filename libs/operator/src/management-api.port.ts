/**
 * The port the reconcilers use to reach Quarry's management API (`/v2`, api.md §2.3). Shapes are the wire
 * shapes; every failure is a `ManagementError` whose `kind` was decided once, where the call was made
 * (k8s.md §3.5), so reconcilers branch on kinds, never on status codes or messages.
 */

export type ActionList = string[] | null;

/** `/v2` capability maps: `{ [dataset or "*"]: { ingest: ["create"], ... } }`. */
export type ApiDatasetCapabilities = Record<string, Record<string, ActionList>>;
export type ApiOrgCapabilities = Record<string, ActionList>;
export type ApiViewCapabilities = Record<string, Record<string, ActionList>>;

export interface ApiDataset {
  id: string;
  name: string;
  description: string;
  kind: string;
  created: string;
  edgeDeployment?: string;
  mapFields?: string[];
  retentionDays?: number;
  useRetentionPeriod?: boolean;
}

export interface CreateDatasetBody {
  name: string;
  description: string;
  kind: string;
  edgeDeployment?: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
}

export interface UpdateDatasetBody {
  description: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
}

export interface RoleBody {
  name: string;
  description: string;
  members: string[];
  orgCapabilities: ApiOrgCapabilities;
  datasetCapabilities: ApiDatasetCapabilities;
  viewCapabilities: ApiViewCapabilities;
}

export interface ApiRole extends Partial<RoleBody> {
  id: string;
  name: string;
}

export interface TokenBody {
  name: string;
  description: string;
  expiresAt: string | null;
  orgCapabilities: ApiOrgCapabilities;
  datasetCapabilities: ApiDatasetCapabilities;
  viewCapabilities: ApiViewCapabilities;
}

/** An API token as listed: never carries the secret. */
export interface ApiToken {
  id: string;
  name: string;
  description?: string;
  expiresAt?: string | null;
  orgCapabilities?: ApiOrgCapabilities;
  datasetCapabilities?: ApiDatasetCapabilities;
}

/** Create and regenerate answer with the token and, this once, its secret. */
export interface MintedToken {
  token: ApiToken;
  secret: string;
}

export interface RegenerateBody {
  existingTokenExpiresAt: string;
  newToken: TokenBody;
}

export interface ManagementApi {
  listDatasets(): Promise<ApiDataset[]>;
  getDataset(name: string): Promise<ApiDataset>;
  createDataset(body: CreateDatasetBody): Promise<ApiDataset>;
  updateDataset(name: string, body: UpdateDatasetBody): Promise<ApiDataset>;
  replaceMapFields(name: string, fields: string[]): Promise<string[]>;
  deleteDataset(name: string): Promise<void>;

  listRoles(): Promise<ApiRole[]>;
  getRole(id: string): Promise<ApiRole>;
  createRole(body: RoleBody): Promise<ApiRole>;
  replaceRole(id: string, body: RoleBody): Promise<ApiRole>;
  deleteRole(id: string): Promise<void>;

  listTokens(): Promise<ApiToken[]>;
  getToken(id: string): Promise<ApiToken>;
  createToken(body: TokenBody): Promise<MintedToken>;
  regenerateToken(id: string, body: RegenerateBody): Promise<MintedToken>;
  deleteToken(id: string): Promise<void>;
}

/**
 * What went wrong, as far as a reconciler cares (k8s.md §3.5):
 * - `NotFound` (404): the object is gone; on delete that counts as done.
 * - `Conflict` (409): it exists already; on create, adopt it.
 * - `Unauthorized` (401/403): the connection's credentials are wrong or too weak; retry slowly.
 * - `Invalid` (400/422): the spec is refused; no retry until the spec changes.
 * - `Unavailable` (network error, timeout, 5xx, 429): retry with backoff, honouring `Retry-After`.
 */
export type ManagementErrorKind = 'NotFound' | 'Conflict' | 'Unauthorized' | 'Invalid' | 'Unavailable';

export class ManagementError extends Error {
  override readonly name = 'ManagementError';

  constructor(
    readonly kind: ManagementErrorKind,
    message: string,
    readonly status?: number,
    /** From `Retry-After`, when the server sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export const isManagementError = (err: unknown, kind?: ManagementErrorKind): err is ManagementError =>
  err instanceof ManagementError && (kind === undefined || err.kind === kind);

/** Maps an HTTP status of a failed call to its kind; `undefined` for statuses that are not failures. */
export function kindOfStatus(status: number): ManagementErrorKind | undefined {
  if (status === 404) return 'NotFound';
  if (status === 409) return 'Conflict';
  if (status === 401 || status === 403) return 'Unauthorized';
  if (status === 429 || status >= 500) return 'Unavailable';
  if (status >= 400) return 'Invalid';
  return undefined;
}

/** The object, or `undefined` when the API says it does not exist. */
export async function orMissing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (isManagementError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** Deletes are done when the object is gone, whoever deleted it. */
export async function ignoreMissing(call: Promise<void>): Promise<void> {
  await orMissing(call);
}
