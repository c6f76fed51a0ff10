import { Inject, Injectable } from '@nestjs/common';
import { forbidden, sha256Hex, unauthenticated } from '@quarry/common';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';
import type { AccessRule } from './access.decorator';
import type { Principal } from './principal';
import { builtInRoleCapabilities, roleCapabilities, unionCapabilities } from './role-capabilities';

const CACHE_MAX = 10_000;

/**
 * Resolves bearer tokens to principals. Secrets are looked up by their SHA-256 (never stored in clear);
 * resolved principals are cached for QUARRY_AUTH_CACHE_MS so ingest does not hit the metastore per
 * request. This process clears its cache whenever it changes a token; other processes of a cluster see
 * the change when their cached entry expires, so a deleted token stops working everywhere within that
 * bound (3 s by default).
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<
    string,
    { principal: Principal | null; expiresAtMs: number; tokenExpiresAtMs: number }
  >();

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  private get metastore() {
    return this.storage.metastore;
  }

  async authenticate(
    authorization: string | undefined,
    orgIdHeader: string | undefined,
    rule: AccessRule,
  ): Promise<Principal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match)
      throw unauthenticated('missing bearer token: send "Authorization: Bearer <token>"', {
        code: 'auth_missing',
      });
    const secret = match[1];
    if (!secret.startsWith('xaat-') && !secret.startsWith('xapt-')) {
      throw unauthenticated('invalid token: API tokens start with xaat-, personal access tokens with xapt-', {
        code: 'auth_invalid',
      });
    }
    const principal = await this.lookup(secret);
    if (!principal) throw unauthenticated('invalid token', { code: 'auth_invalid' });

    if (principal.tokenKind === 'personal') {
      if (rule.tokens === 'api') {
        throw forbidden(
          'personal access tokens are not accepted by this endpoint; use an API token (xaat-...)',
          {
            code: 'auth_pat_refused',
          },
        );
      }
      if (!rule.noOrgRequired && !orgIdHeader) {
        throw forbidden('personal access tokens need the X-Axiom-Org-Id header naming the organization', {
          code: 'auth_org_missing',
        });
      }
    }
    if (orgIdHeader && orgIdHeader !== principal.orgId) {
      throw forbidden(`this token does not belong to organization "${orgIdHeader}"`, {
        code: 'auth_wrong_org',
      });
    }
    return principal;
  }

  /**
   * Forget cached principals. Called after every change that can alter what a token may do: tokens,
   * users (role, deletion), roles and groups.
   */
  invalidate(): void {
    this.cache.clear();
  }

  private async lookup(secret: string): Promise<Principal | null> {
    const hash = sha256Hex(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAtMs > now && cached.tokenExpiresAtMs > now) return cached.principal;

    const token = await this.metastore.tokens.findByHash(hash);
    let principal: Principal | null = null;
    let tokenExpiresAtMs = Number.POSITIVE_INFINITY;
    if (token) {
      // An expired token resolves to no principal: 401, exactly like an unknown one.
      tokenExpiresAtMs = token.expiresAt ? Date.parse(token.expiresAt) : Number.POSITIVE_INFINITY;
      if (tokenExpiresAtMs > now) principal = await this.principalOf(token);
    }
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { principal, expiresAtMs: now + this.storage.config.authCacheMs, tokenExpiresAtMs });
    return principal;
  }

  private async principalOf(token: {
    id: string;
    kind: 'api' | 'personal';
    userId: string;
    orgCapabilities: Record<string, unknown>;
    datasetCapabilities: Record<string, unknown>;
  }): Promise<Principal> {
    const org = await this.metastore.orgs.get();
    const base = { tokenId: token.id, tokenKind: token.kind, userId: token.userId, orgId: org?.id ?? '' };
    if (token.kind === 'api') {
      return {
        ...base,
        orgCapabilities: token.orgCapabilities as Principal['orgCapabilities'],
        datasetCapabilities: token.datasetCapabilities as Principal['datasetCapabilities'],
      };
    }
    // A PAT acts with its user's rights: the built-in role plus every custom role held directly or
    // through a group. A user deleted meanwhile holds nothing.
    const user = await this.metastore.users.get(token.userId);
    if (!user) return { ...base, orgCapabilities: {}, datasetCapabilities: {} };
    const roles = await this.metastore.roles.rolesOfUser(user.id);
    return {
      ...base,
      ...unionCapabilities([builtInRoleCapabilities(user.role), ...roles.map(roleCapabilities)]),
    };
  }
}
