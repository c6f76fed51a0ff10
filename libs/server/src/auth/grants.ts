import { forbidden } from '@quarry/common';
import {
  hasDatasetCapability,
  hasOrgCapability,
  type Action,
  type DatasetCapability,
  type OrgArea,
} from './capabilities';
import type { Principal } from './principal';
import type { CapabilitySet } from './role-capabilities';

/**
 * A caller can only hand out capabilities it holds itself: through a role it defines, a group it fills
 * or a built-in role it assigns. Otherwise `rbac|create` alone would let anyone make themselves admin.
 */
export function assertGrantable(principal: Principal, granted: CapabilitySet, what: string): void {
  for (const [area, actions] of Object.entries(granted.orgCapabilities)) {
    for (const action of actions ?? []) {
      if (!hasOrgCapability(principal.orgCapabilities, area as OrgArea, action as Action)) {
        throw forbidden(
          `cannot grant ${area}|${action} through ${what}: the calling token does not hold it`,
          {
            code: 'grant_escalation',
          },
        );
      }
    }
  }
  for (const [dataset, caps] of Object.entries(granted.datasetCapabilities)) {
    for (const [cap, actions] of Object.entries(caps ?? {})) {
      for (const action of actions ?? []) {
        const held = hasDatasetCapability(
          principal.datasetCapabilities,
          dataset,
          cap as DatasetCapability,
          action as Action,
        );
        if (!held) {
          throw forbidden(
            `cannot grant ${cap}|${action} on dataset "${dataset}" through ${what}: the calling token does not hold it`,
            { code: 'grant_escalation' },
          );
        }
      }
    }
  }
}
