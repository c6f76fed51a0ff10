import { SetMetadata } from '@nestjs/common';
import type { Action, DatasetCapability, OrgArea } from './capabilities';

/**
 * What a route needs from its caller. Every route declares one (the guard denies routes without it), so
 * the route → capability table is data that tests can enumerate.
 */
export interface AccessRule {
  /** `api`: API tokens only (edge ingest and query); `any`: API tokens and PATs. */
  tokens: 'api' | 'any';
  /** An org-wide capability, e.g. `['datasets', 'create']`. */
  org?: [OrgArea, Action];
  /** A capability on the dataset named by a route parameter. */
  dataset?: { param: string; capability: DatasetCapability; action: Action };
  /** Routes a PAT may call without `X-Axiom-Org-Id` (`GET /v2/user`, `GET /v2/orgs`). */
  noOrgRequired?: boolean;
  /** Health and readiness probes. */
  public?: boolean;
  /** Operators only: the caller must hold every org capability (an admin token such as the bootstrap one). */
  admin?: boolean;
}

export const ACCESS_RULE = 'quarry:access';

export const Access = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);
