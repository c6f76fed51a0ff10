import { capabilitiesToApi, normaliseActions, normaliseMap } from './capabilities';
import type { ApiRole, RoleBody } from './management-api.port';
import type { RoleResource } from './resources';

export function roleNameOf(cr: RoleResource): string {
  return cr.spec.name || cr.metadata.name;
}

/** The full `/v2/rbac/roles` body a CR asks for (PUT replaces every field, so it is always complete). */
export function desiredRole(cr: RoleResource): RoleBody {
  return {
    name: roleNameOf(cr),
    description: cr.spec.description ?? '',
    members: [...new Set(cr.spec.members ?? [])].sort(),
    ...capabilitiesToApi(cr.spec),
  };
}

/** Names of the fields where the role in Quarry differs from the desired one (empty: in sync). */
export function diffRole(desired: RoleBody, observed: ApiRole): string[] {
  const differs: string[] = [];
  if (desired.name !== observed.name) differs.push('name');
  if (desired.description !== (observed.description ?? '')) differs.push('description');
  if (!sameJson(desired.members, [...new Set(observed.members ?? [])].sort())) differs.push('members');
  if (!sameJson(desired.orgCapabilities, normaliseActions(observed.orgCapabilities ?? {})))
    differs.push('orgCapabilities');
  if (!sameJson(desired.datasetCapabilities, normaliseMap(observed.datasetCapabilities)))
    differs.push('datasetCapabilities');
  if (!sameJson(desired.viewCapabilities, normaliseMap(observed.viewCapabilities)))
    differs.push('viewCapabilities');
  return differs;
}

/** Role names are unique ignoring case in Quarry: that is what makes adopt-by-name safe. */
export const sameRoleName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
