import { conflict, invalid, newId, notFound, systemClock, type Clock } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, isoOrNull, isoParam, jsonOf } from './sql-values';

export type TokenKind = 'api' | 'personal';

/** Allowed actions of one capability. Stored as given: Go clients send `null` for an unset list. */
export type CapabilityActions = string[] | null;
/** `{ area: actions[] }`, e.g. `{ datasets: ['create', 'read'], apiTokens: ['read'] }`. */
export type OrgCapabilities = Record<string, CapabilityActions>;
/** `{ datasetName | "*": { capability: actions[] } }`, e.g. `{ '*': { ingest: ['create'] } }`. */
export type DatasetCapabilities = Record<string, Record<string, CapabilityActions>>;
/** `{ viewId: { capability: actions[] } }`. */
export type ViewCapabilities = Record<string, Record<string, CapabilityActions>>;

export interface TokenRecord {
  id: string;
  kind: TokenKind;
  name: string;
  description: string;
  /** SHA-256 hex of the secret (`sha256Hex` from @quarry/common). The plaintext is never stored. */
  secretHash: string;
  /** The owner of a personal token; the creator of an API token. */
  userId: string;
  orgCapabilities: OrgCapabilities;
  datasetCapabilities: DatasetCapabilities;
  viewCapabilities: ViewCapabilities;
  /** ISO time after which the token is no longer accepted; null = never expires. */
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewToken {
  /** Generated (UUID) when omitted. */
  id?: string;
  kind: TokenKind;
  name: string;
  description?: string;
  secretHash: string;
  userId: string;
  orgCapabilities?: OrgCapabilities;
  datasetCapabilities?: DatasetCapabilities;
  viewCapabilities?: ViewCapabilities;
  expiresAt?: string | null;
}

/** Fields `update` may change; `undefined` keeps the value, `expiresAt: null` removes the expiry. */
export interface TokenPatch {
  name?: string;
  description?: string;
  orgCapabilities?: OrgCapabilities;
  datasetCapabilities?: DatasetCapabilities;
  viewCapabilities?: ViewCapabilities;
  expiresAt?: string | null;
}

interface TokenRow {
  id: string;
  kind: TokenKind;
  name: string;
  description: string;
  secret_hash: string;
  user_id: string;
  org_capabilities: unknown;
  dataset_capabilities: unknown;
  view_capabilities: unknown;
  expires_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS =
  'id, kind, name, description, secret_hash, user_id, org_capabilities, dataset_capabilities, view_capabilities, expires_at, created_at, updated_at';

const SHA256_HEX = /^[0-9a-f]{64}$/;

const toToken = (row: TokenRow): TokenRecord => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  description: row.description,
  secretHash: row.secret_hash,
  userId: row.user_id,
  orgCapabilities: jsonOf<OrgCapabilities>(row.org_capabilities),
  datasetCapabilities: jsonOf<DatasetCapabilities>(row.dataset_capabilities),
  viewCapabilities: jsonOf<ViewCapabilities>(row.view_capabilities),
  expiresAt: isoOrNull(row.expires_at),
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** API tokens and personal access tokens. Lookup by secret goes through the unique hash index. */
export class TokenRepository {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Stores a token; `invalid` when `secretHash` is not SHA-256 hex, `conflict` for a taken id or hash. */
  async create(token: NewToken): Promise<TokenRecord> {
    // Guards against a caller passing the plaintext secret by mistake: it would be stored in the clear.
    if (!SHA256_HEX.test(token.secretHash)) {
      throw invalid('token secretHash must be a lower-case SHA-256 hex digest', {
        code: 'token_hash_invalid',
      });
    }
    const now = new Date(this.clock.nowMs()).toISOString();
    const rows = await this.db.query<TokenRow>(
      `INSERT INTO tokens (id, kind, name, description, secret_hash, user_id, org_capabilities,
         dataset_capabilities, view_capabilities, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11, $11)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        token.id ?? newId(),
        token.kind,
        token.name,
        token.description ?? '',
        token.secretHash,
        token.userId,
        JSON.stringify(token.orgCapabilities ?? {}),
        JSON.stringify(token.datasetCapabilities ?? {}),
        JSON.stringify(token.viewCapabilities ?? {}),
        token.expiresAt == null ? null : isoParam(token.expiresAt, 'expiresAt'),
        now,
      ],
    );
    if (rows.length === 0) throw conflict(`token "${token.name}" already exists`, { code: 'token_exists' });
    return toToken(rows[0]);
  }

  /** The token with this secret hash, expired or not (the caller checks `expiresAt`); null if none. */
  async findByHash(secretHash: string): Promise<TokenRecord | null> {
    const rows = await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM tokens WHERE secret_hash = $1`, [
      secretHash,
    ]);
    return rows.length > 0 ? toToken(rows[0]) : null;
  }

  async get(id: string): Promise<TokenRecord | null> {
    const rows = await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM tokens WHERE id = $1`, [id]);
    return rows.length > 0 ? toToken(rows[0]) : null;
  }

  /** Tokens of one kind (all when omitted), oldest first, expired ones included. */
  async list(kind?: TokenKind, options: { userId?: string } = {}): Promise<TokenRecord[]> {
    const rows = await this.db.query<TokenRow>(
      `SELECT ${COLUMNS} FROM tokens
       WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR user_id = $2)
       ORDER BY created_at, id`,
      [kind ?? null, options.userId ?? null],
    );
    return rows.map(toToken);
  }

  /** Changes the given fields and bumps `updatedAt`; `not_found` for an unknown id. */
  async update(id: string, patch: TokenPatch): Promise<TokenRecord> {
    const json = (v: object | undefined) => (v === undefined ? null : JSON.stringify(v));
    const rows = await this.db.query<TokenRow>(
      `UPDATE tokens SET
         name = COALESCE($2, name),
         description = COALESCE($3, description),
         org_capabilities = COALESCE($4::jsonb, org_capabilities),
         dataset_capabilities = COALESCE($5::jsonb, dataset_capabilities),
         view_capabilities = COALESCE($6::jsonb, view_capabilities),
         expires_at = CASE WHEN $7::boolean THEN $8::timestamptz ELSE expires_at END,
         updated_at = $9
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [
        id,
        patch.name ?? null,
        patch.description ?? null,
        json(patch.orgCapabilities),
        json(patch.datasetCapabilities),
        json(patch.viewCapabilities),
        patch.expiresAt !== undefined,
        patch.expiresAt == null ? null : isoParam(patch.expiresAt, 'expiresAt'),
        new Date(this.clock.nowMs()).toISOString(),
      ],
    );
    if (rows.length === 0) throw notFound(`token "${id}" not found`, { code: 'token_not_found' });
    return toToken(rows[0]);
  }

  /** Deletes a token and returns it; `not_found` for an unknown id. */
  async delete(id: string): Promise<TokenRecord> {
    const rows = await this.db.query<TokenRow>(`DELETE FROM tokens WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    if (rows.length === 0) throw notFound(`token "${id}" not found`, { code: 'token_not_found' });
    return toToken(rows[0]);
  }
}
