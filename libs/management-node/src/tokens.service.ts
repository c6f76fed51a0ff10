import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  forbidden,
  invalid,
  notFound,
  parseRfc3339,
  sha256Hex,
  systemClock,
  type Clock,
} from '@quarry/common';
import type { TokenRecord } from '@quarry/metastore';
import {
  AuthService,
  hasDatasetCapability,
  hasOrgCapability,
  type Action,
  type DatasetCapability,
  type OrgArea,
  type Principal,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { parseExpiry, parseTokenInput, type TokenInput } from './token-input';

/** API tokens under `/v2/tokens`: secrets are shown once (create, regenerate) and stored as SHA-256. */
@Injectable()
export class TokensService {
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
  ) {}

  /** API tokens that are still valid (an expired or regenerated token no longer lists). */
  async list(): Promise<TokenRecord[]> {
    const now = this.clock.nowMs();
    return (await this.storage.metastore.tokens.list('api')).filter((t) => !isExpired(t, now));
  }

  async get(id: string): Promise<TokenRecord> {
    const token = await this.storage.metastore.tokens.get(id);
    if (!token || token.kind !== 'api')
      throw notFound(`token "${id}" not found`, { code: 'token_not_found' });
    return token;
  }

  async create(
    body: Record<string, unknown>,
    principal: Principal,
  ): Promise<{ record: TokenRecord; secret: string }> {
    const input = parseTokenInput(body, this.clock.nowMs());
    return this.mint(input, principal);
  }

  async delete(id: string): Promise<void> {
    const token = await this.get(id);
    await this.storage.metastore.tokens.delete(token.id);
    this.auth.invalidate();
  }

  /**
   * Expires the existing token at `existingTokenExpiresAt` and mints a new one (new id and secret) with the
   * old settings, or with `newToken`'s when given, expiring at `newTokenExpiresAt`.
   */
  async regenerate(id: string, body: Record<string, unknown>, principal: Principal) {
    const existing = await this.get(id);
    const now = this.clock.nowMs();
    const { existingTokenExpiresAt, newTokenExpiresAt, newToken } = body;
    if (typeof existingTokenExpiresAt !== 'string' || parseRfc3339(existingTokenExpiresAt) === null) {
      throw invalid('"existingTokenExpiresAt" is required and must be an RFC 3339 date-time', {
        code: 'token_invalid',
      });
    }
    let input: TokenInput;
    if (newToken !== undefined && newToken !== null) {
      if (typeof newToken !== 'object' || Array.isArray(newToken))
        throw invalid('"newToken" must be an object', { code: 'token_invalid' });
      input = parseTokenInput(newToken as Record<string, unknown>, now, 'newToken.');
    } else {
      input = {
        name: existing.name,
        description: existing.description,
        expiresAt: null,
        orgCapabilities: existing.orgCapabilities,
        datasetCapabilities: existing.datasetCapabilities,
        viewCapabilities: existing.viewCapabilities,
      };
    }
    if (newTokenExpiresAt !== undefined)
      input.expiresAt = parseExpiry(newTokenExpiresAt, now, 'newTokenExpiresAt');
    const minted = await this.mint(input, principal);
    const oldExpiry = new Date(Math.max(now, parseRfc3339(existingTokenExpiresAt)!)).toISOString();
    await this.storage.metastore.tokens.update(existing.id, { expiresAt: oldExpiry });
    this.auth.invalidate();
    return minted;
  }

  private async mint(input: TokenInput, principal: Principal) {
    assertNoEscalation(input, principal);
    const secret = `xaat-${randomUUID()}`;
    const record = await this.storage.metastore.tokens.create({
      kind: 'api',
      name: input.name,
      description: input.description,
      secretHash: sha256Hex(secret),
      userId: principal.userId,
      orgCapabilities: input.orgCapabilities,
      datasetCapabilities: input.datasetCapabilities,
      viewCapabilities: input.viewCapabilities,
      expiresAt: input.expiresAt,
    });
    return { record, secret };
  }
}

function isExpired(token: TokenRecord, nowMs: number): boolean {
  return token.expiresAt !== null && Date.parse(token.expiresAt) <= nowMs;
}

/** A caller can only hand out capabilities it holds itself. */
function assertNoEscalation(input: TokenInput, principal: Principal): void {
  for (const [area, actions] of Object.entries(input.orgCapabilities)) {
    for (const action of actions ?? []) {
      if (!hasOrgCapability(principal.orgCapabilities, area as OrgArea, action as Action)) {
        throw forbidden(`cannot grant ${area}|${action}: the calling token does not hold it`, {
          code: 'token_escalation',
        });
      }
    }
  }
  for (const [dataset, caps] of Object.entries(input.datasetCapabilities)) {
    for (const [cap, actions] of Object.entries(caps)) {
      for (const action of actions ?? []) {
        if (
          !hasDatasetCapability(
            principal.datasetCapabilities,
            dataset,
            cap as DatasetCapability,
            action as Action,
          )
        ) {
          throw forbidden(
            `cannot grant ${cap}|${action} on dataset "${dataset}": the calling token does not hold it`,
            {
              code: 'token_escalation',
            },
          );
        }
      }
    }
  }
}
