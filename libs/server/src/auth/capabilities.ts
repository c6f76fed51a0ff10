/**
 * Capabilities as Axiom models them (api.md §2.1): org-wide areas with actions, and per-dataset
 * capabilities keyed by dataset name or `"*"`. Tokens carry them explicitly; personal access tokens act
 * with their user's role.
 */
export type Action = 'create' | 'read' | 'update' | 'delete';

export type OrgCapabilities = Partial<Record<OrgArea, string[] | null>>;
export type DatasetCapabilityMap = Partial<Record<DatasetCapability, string[] | null>>;
export type DatasetCapabilities = Record<string, DatasetCapabilityMap>;

export const ORG_AREAS = {
  annotations: ['create', 'read', 'update', 'delete'],
  apiTokens: ['create', 'read', 'update', 'delete'],
  auditLog: ['read'],
  billing: ['read', 'update'],
  dashboards: ['create', 'read', 'update', 'delete'],
  datasets: ['create', 'read', 'update', 'delete'],
  endpoints: ['create', 'read', 'update', 'delete'],
  flows: ['create', 'read', 'update', 'delete'],
  integrations: ['create', 'read', 'update', 'delete'],
  monitors: ['create', 'read', 'update', 'delete'],
  notifiers: ['create', 'read', 'update', 'delete'],
  rbac: ['create', 'read', 'update', 'delete'],
  sharedAccessKeys: ['read', 'update'],
  users: ['create', 'read', 'update', 'delete'],
  views: ['create', 'read', 'update', 'delete'],
} as const;
export type OrgArea = keyof typeof ORG_AREAS;

export const DATASET_CAPABILITIES = {
  ingest: ['create'],
  query: ['read'],
  starredQueries: ['create', 'read', 'update', 'delete'],
  virtualFields: ['create', 'read', 'update', 'delete'],
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
} as const;
export type DatasetCapability = keyof typeof DATASET_CAPABILITIES;

/** Every org capability: what the bootstrap admin token and owners get. */
export function allOrgCapabilities(): OrgCapabilities {
  const caps: OrgCapabilities = {};
  for (const [area, actions] of Object.entries(ORG_AREAS)) caps[area as OrgArea] = [...actions];
  return caps;
}

/** Every dataset capability on every dataset (`"*"`). */
export function allDatasetCapabilities(): DatasetCapabilities {
  const caps: DatasetCapabilityMap = {};
  for (const [cap, actions] of Object.entries(DATASET_CAPABILITIES))
    caps[cap as DatasetCapability] = [...actions];
  return { '*': caps };
}

export function hasOrgCapability(caps: OrgCapabilities, area: OrgArea, action: Action): boolean {
  return (caps[area] ?? []).includes(action);
}

export function hasDatasetCapability(
  caps: DatasetCapabilities,
  dataset: string,
  capability: DatasetCapability,
  action: Action,
): boolean {
  const granted = (entry: DatasetCapabilityMap | undefined) => (entry?.[capability] ?? []).includes(action);
  return granted(caps[dataset]) || granted(caps['*']);
}

/**
 * Checks capability objects sent by clients: known areas and actions only. Go sends `null` for unset
 * arrays, so null is accepted and means "none". Returns a list of problems (empty when valid).
 */
export function validateCapabilities(org: unknown, datasets: unknown): string[] {
  const problems: string[] = [];
  if (org !== undefined && org !== null) {
    if (typeof org !== 'object' || Array.isArray(org)) problems.push('orgCapabilities must be an object');
    else
      for (const [area, actions] of Object.entries(org)) {
        const allowed = (ORG_AREAS as Record<string, readonly string[]>)[area];
        if (!allowed) problems.push(`orgCapabilities: unknown area "${area}"`);
        else problems.push(...checkActions(`orgCapabilities.${area}`, actions, allowed));
      }
  }
  if (datasets !== undefined && datasets !== null) {
    if (typeof datasets !== 'object' || Array.isArray(datasets))
      problems.push('datasetCapabilities must be an object');
    else
      for (const [dataset, entry] of Object.entries(datasets)) {
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
          problems.push(`datasetCapabilities.${dataset} must be an object`);
          continue;
        }
        for (const [cap, actions] of Object.entries(entry)) {
          const allowed = (DATASET_CAPABILITIES as Record<string, readonly string[]>)[cap];
          if (!allowed) problems.push(`datasetCapabilities.${dataset}: unknown capability "${cap}"`);
          else problems.push(...checkActions(`datasetCapabilities.${dataset}.${cap}`, actions, allowed));
        }
      }
  }
  return problems;
}

function checkActions(where: string, actions: unknown, allowed: readonly string[]): string[] {
  if (actions === null) return [];
  if (!Array.isArray(actions)) return [`${where} must be an array of actions`];
  return actions
    .filter((a) => typeof a !== 'string' || !allowed.includes(a))
    .map((a) => `${where}: unknown action ${JSON.stringify(a)} (allowed: ${allowed.join(', ')})`);
}
