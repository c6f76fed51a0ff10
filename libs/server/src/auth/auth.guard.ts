import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { forbidden, internal } from '@quarry/common';
import { ACCESS_RULE, AccessRule } from './access.decorator';
import { AuthService } from './auth.service';
import {
  allOrgCapabilities,
  hasDatasetCapability,
  hasOrgCapability,
  type Action,
  type OrgArea,
} from './capabilities';
import type { Principal } from './principal';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

const PRINCIPAL = Symbol('quarry.principal');

/** The principal the guard resolved for this request. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = (request as unknown as { [PRINCIPAL]?: Principal })[PRINCIPAL];
  if (!principal) throw internal('no principal on request: route is missing an @Access rule');
  return principal;
}

function holdsEveryOrgCapability(principal: Principal): boolean {
  return Object.entries(allOrgCapabilities()).every(([area, actions]) =>
    (actions ?? []).every((action) =>
      hasOrgCapability(principal.orgCapabilities, area as OrgArea, action as Action),
    ),
  );
}

/** Authenticates every request and checks the route's declared capability. */
@Injectable()
export class AuthGuard implements CanActivate {
  /**
   * Cluster management and query nodes answer from a copy of the catalog; each request refreshes it
   * first (one metastore round trip), so a dataset created, changed or deleted through another node is
   * seen at once. Ingest nodes refresh only when a request names a dataset they do not know.
   */
  private readonly refreshCatalog: boolean;

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {
    this.refreshCatalog =
      storage.shape === 'cluster' && storage.config.roles.some((r) => r === 'management' || r === 'query');
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule)
      throw internal(`route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.public) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const orgHeader = request.headers['x-axiom-org-id'];
    const principal = await this.auth.authenticate(
      request.headers.authorization,
      Array.isArray(orgHeader) ? orgHeader[0] : orgHeader,
      rule,
    );
    if (rule.admin && !holdsEveryOrgCapability(principal)) {
      throw forbidden('this route is for administrators: it needs a token with every org capability', {
        code: 'auth_forbidden',
      });
    }
    if (rule.org && !hasOrgCapability(principal.orgCapabilities, rule.org[0], rule.org[1])) {
      throw forbidden(`this token lacks the ${rule.org[0]}|${rule.org[1]} capability`, {
        code: 'auth_forbidden',
      });
    }
    if (rule.dataset) {
      const params = request.params as Record<string, string>;
      const dataset = params[rule.dataset.param];
      const { capability, action } = rule.dataset;
      if (!hasDatasetCapability(principal.datasetCapabilities, dataset, capability, action)) {
        throw forbidden(`this token lacks the ${capability}|${action} capability on dataset "${dataset}"`, {
          code: 'auth_forbidden',
        });
      }
    }
    (request as unknown as { [PRINCIPAL]?: Principal })[PRINCIPAL] = principal;
    if (this.refreshCatalog) await this.storage.syncCatalog();
    return true;
  }
}
