import { systemClock, type Clock } from '../clock';
import {
  ManagementError,
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
} from '../management-api.port';

const DATASET_KINDS = ['axiom:events:v1', 'otel:logs:v1', 'otel:traces:v1', 'otel:metrics:v1'];
const DATASET_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,78}[A-Za-z0-9])?$/;

interface StoredToken extends ApiToken {
  secret: string;
  viewCapabilities: TokenBody['viewCapabilities'];
}

export interface InMemoryManagementApiOptions {
  clock?: Clock;
  /** Regions datasets may be created in; the first is the home region. */
  regions?: string[];
  /** When set, role members must be among these user ids (as the real server checks). */
  users?: string[];
}

/**
 * The management API in memory, with the real server's rules where reconcilers depend on them: dataset
 * names unique (409), role names unique ignoring case (409), tokens shown once, regenerate expiring the old
 * token, expired tokens hidden from the list, 400 for invalid bodies. The contract suite
 * (`management-api.contract.ts`) runs against this and against the real server, so the two cannot drift.
 */
export class InMemoryManagementApi implements ManagementApi {
  readonly datasets = new Map<string, ApiDataset>();
  readonly roles = new Map<string, ApiRole>();
  readonly tokens = new Map<string, StoredToken>();
  private readonly clock: Clock;
  private readonly regions: string[];
  private readonly users?: Set<string>;
  private nextId = 1;

  constructor(options: InMemoryManagementApiOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.regions = options.regions ?? ['home'];
    this.users = options.users ? new Set(options.users) : undefined;
  }

  async listDatasets(): Promise<ApiDataset[]> {
    return [...this.datasets.values()].map(clone);
  }

  async getDataset(name: string): Promise<ApiDataset> {
    return clone(this.dataset(name));
  }

  async createDataset(body: CreateDatasetBody): Promise<ApiDataset> {
    const problems: string[] = [];
    if (!DATASET_NAME.test(body.name) || body.name.startsWith('axiom-'))
      problems.push(`dataset name "${body.name}" is invalid`);
    if (!DATASET_KINDS.includes(body.kind))
      problems.push(`"kind" must be one of ${DATASET_KINDS.join(', ')}`);
    if (body.description.length > 1024) problems.push('"description" must be at most 1024 characters');
    const region = body.edgeDeployment || this.regions[0];
    if (!this.regions.includes(region))
      problems.push(`edgeDeployment "${region}" is not a region of this installation`);
    if (problems.length) throw invalid(`invalid dataset: ${problems.join('; ')}`);
    if (this.datasets.has(body.name))
      throw new ManagementError('Conflict', `dataset "${body.name}" already exists`, 409);
    const now = this.clock.now().toISOString();
    const dataset: ApiDataset = {
      id: body.name,
      name: body.name,
      description: body.description,
      kind: body.kind,
      created: now,
      edgeDeployment: region,
      mapFields: [],
      retentionDays: body.retentionDays,
      useRetentionPeriod: body.useRetentionPeriod,
    };
    this.datasets.set(body.name, dataset);
    return clone(dataset);
  }

  async updateDataset(name: string, body: UpdateDatasetBody): Promise<ApiDataset> {
    const dataset = this.dataset(name);
    if (body.description.length > 1024)
      throw invalid('invalid dataset: "description" must be at most 1024 characters');
    Object.assign(dataset, {
      description: body.description,
      retentionDays: body.retentionDays,
      useRetentionPeriod: body.useRetentionPeriod,
    });
    return clone(dataset);
  }

  async replaceMapFields(name: string, fields: string[]): Promise<string[]> {
    const dataset = this.dataset(name);
    const bad = fields.find((f) => /^__.*__$/.test(f) || f === '');
    if (bad !== undefined) throw invalid(`map field name "${bad}" is invalid`);
    if (new Set(fields).size !== fields.length) throw invalid('a map field is listed twice');
    dataset.mapFields = [...fields];
    return [...fields];
  }

  async deleteDataset(name: string): Promise<void> {
    this.dataset(name);
    this.datasets.delete(name);
  }

  async listRoles(): Promise<ApiRole[]> {
    return [...this.roles.values()].map(clone);
  }

  async getRole(id: string): Promise<ApiRole> {
    return clone(this.role(id));
  }

  async createRole(body: RoleBody): Promise<ApiRole> {
    this.validateRole(body, undefined);
    const role: ApiRole = { id: `role_${this.nextId++}`, ...clone(body) };
    this.roles.set(role.id, role);
    return clone(role);
  }

  async replaceRole(id: string, body: RoleBody): Promise<ApiRole> {
    this.role(id);
    this.validateRole(body, id);
    const role: ApiRole = { id, ...clone(body) };
    this.roles.set(id, role);
    return clone(role);
  }

  async deleteRole(id: string): Promise<void> {
    this.role(id);
    this.roles.delete(id);
  }

  async listTokens(): Promise<ApiToken[]> {
    const now = this.clock.now().getTime();
    return [...this.tokens.values()].filter((t) => !expired(t, now)).map(view);
  }

  async getToken(id: string): Promise<ApiToken> {
    return view(this.token(id));
  }

  async createToken(body: TokenBody): Promise<MintedToken> {
    this.validateToken(body, '');
    return this.mint(body);
  }

  async regenerateToken(id: string, body: RegenerateBody): Promise<MintedToken> {
    const existing = this.token(id);
    const existingExpiry = Date.parse(body.existingTokenExpiresAt);
    if (Number.isNaN(existingExpiry)) throw invalid('"existingTokenExpiresAt" must be an RFC 3339 date-time');
    this.validateToken(body.newToken, 'newToken.');
    const minted = this.mint(body.newToken);
    existing.expiresAt = new Date(Math.max(this.clock.now().getTime(), existingExpiry)).toISOString();
    return minted;
  }

  async deleteToken(id: string): Promise<void> {
    this.token(id);
    this.tokens.delete(id);
  }

  /** Whether a secret would authenticate now (what a client holding it would experience). */
  isSecretValid(secret: string): boolean {
    const now = this.clock.now().getTime();
    return [...this.tokens.values()].some((t) => t.secret === secret && !expired(t, now));
  }

  private mint(body: TokenBody): MintedToken {
    const secret = `xaat-fake-${this.nextId}`;
    const stored: StoredToken = { id: `tok_${this.nextId++}`, ...clone(body), secret };
    this.tokens.set(stored.id, stored);
    return { token: view(stored), secret };
  }

  private validateRole(body: RoleBody, id: string | undefined): void {
    if (!body.name || body.name.length > 128)
      throw invalid('invalid role: "name" must be 1 to 128 characters');
    const unknown = this.users ? body.members.filter((m) => !this.users!.has(m)) : [];
    if (unknown.length) throw invalid(`invalid role: unknown members ${unknown.join(', ')}`);
    const taken = [...this.roles.values()].some(
      (r) => r.id !== id && r.name.toLowerCase() === body.name.toLowerCase(),
    );
    if (taken) throw new ManagementError('Conflict', `role "${body.name}" already exists`, 409);
  }

  private validateToken(body: TokenBody, where: string): void {
    if (!body.name?.trim()) throw invalid(`invalid token: "${where}name" is required`);
    if (body.expiresAt !== null && Date.parse(body.expiresAt) <= this.clock.now().getTime())
      throw invalid(`invalid token: "${where}expiresAt" must be in the future`);
  }

  private dataset(name: string): ApiDataset {
    const dataset = this.datasets.get(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`);
    return dataset;
  }

  private role(id: string): ApiRole {
    const role = this.roles.get(id);
    if (!role) throw notFound(`role "${id}" not found`);
    return role;
  }

  private token(id: string): StoredToken {
    const token = this.tokens.get(id);
    if (!token) throw notFound(`token "${id}" not found`);
    return token;
  }
}

const invalid = (message: string) => new ManagementError('Invalid', message, 400);
const notFound = (message: string) => new ManagementError('NotFound', message, 404);
const clone = <T>(value: T): T => structuredClone(value);

function expired(token: ApiToken, nowMs: number): boolean {
  return token.expiresAt != null && Date.parse(token.expiresAt) <= nowMs;
}

/** As the server renders a token: no secret, no view capabilities. */
function view(token: StoredToken): ApiToken {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    expiresAt: token.expiresAt ?? null,
    datasetCapabilities: clone(token.datasetCapabilities),
    orgCapabilities: clone(token.orgCapabilities),
  };
}
