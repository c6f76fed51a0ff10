import type { RoleRecord, UserRole } from '@quarry/metastore';
import {
  allDatasetCapabilities,
  allOrgCapabilities,
  type DatasetCapabilities,
  type DatasetCapabilityMap,
  type OrgCapabilities,
} from './capabilities';

/** What a personal access token may do: the union of its user's built-in role and custom roles. */
export interface CapabilitySet {
  orgCapabilities: OrgCapabilities;
  datasetCapabilities: DatasetCapabilities;
}

const READ_ONLY: CapabilitySet = {
  orgCapabilities: {
    annotations: ['read'],
    dashboards: ['read'],
    datasets: ['read'],
    monitors: ['read'],
    notifiers: ['read'],
    views: ['read'],
  },
  datasetCapabilities: { '*': { query: ['read'], starredQueries: ['read'], virtualFields: ['read'] } },
};

/**
 * Capabilities of Axiom's built-in user roles. Owners and admins hold everything; `user` can read and
 * query everything and ingest; `read-only` can read and query; `none` holds nothing (custom roles and
 * groups then decide).
 */
export function builtInRoleCapabilities(role: UserRole): CapabilitySet {
  switch (role) {
    case 'owner':
    case 'admin':
      return { orgCapabilities: allOrgCapabilities(), datasetCapabilities: allDatasetCapabilities() };
    case 'user':
      return unionCapabilities([
        READ_ONLY,
        { orgCapabilities: {}, datasetCapabilities: { '*': { ingest: ['create'] } } },
      ]);
    case 'read-only':
      return unionCapabilities([READ_ONLY]);
    case 'none':
      return { orgCapabilities: {}, datasetCapabilities: {} };
  }
}

/** The capabilities a role grants, typed for the union. */
export function roleCapabilities(
  role: Pick<RoleRecord, 'orgCapabilities' | 'datasetCapabilities'>,
): CapabilitySet {
  return {
    orgCapabilities: role.orgCapabilities as OrgCapabilities,
    datasetCapabilities: role.datasetCapabilities as DatasetCapabilities,
  };
}

/** Union of capability sets: an action is granted when any set grants it. `null` action lists add nothing. */
export function unionCapabilities(sets: readonly CapabilitySet[]): CapabilitySet {
  const org: Record<string, Set<string>> = {};
  const datasets: Record<string, Record<string, Set<string>>> = {};
  for (const set of sets) {
    for (const [area, actions] of Object.entries(set.orgCapabilities)) {
      for (const action of actions ?? []) (org[area] ??= new Set()).add(action);
    }
    for (const [dataset, caps] of Object.entries(set.datasetCapabilities)) {
      for (const [cap, actions] of Object.entries(caps ?? {})) {
        for (const action of actions ?? []) ((datasets[dataset] ??= {})[cap] ??= new Set()).add(action);
      }
    }
  }
  const orgCapabilities: OrgCapabilities = {};
  for (const [area, actions] of Object.entries(org))
    (orgCapabilities as Record<string, string[]>)[area] = [...actions].sort();
  const datasetCapabilities: DatasetCapabilities = {};
  for (const [dataset, caps] of Object.entries(datasets)) {
    const entry: DatasetCapabilityMap = {};
    for (const [cap, actions] of Object.entries(caps))
      (entry as Record<string, string[]>)[cap] = [...actions].sort();
    datasetCapabilities[dataset] = entry;
  }
  return { orgCapabilities, datasetCapabilities };
}
