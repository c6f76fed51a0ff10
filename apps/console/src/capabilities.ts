/**
 * The capability structure of `/v2/rbac/roles` and `/v2/tokens` (Axiom's v2.json, as the server checks
 * it): organisation areas and per-dataset capabilities, each a list of allowed actions.
 */
export type CapabilityMap = Record<string, string[]>;

export const ORG_AREAS: Record<string, readonly string[]> = {
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
};

export const DATASET_CAPABILITIES: Record<string, readonly string[]> = {
  ingest: ['create'],
  query: ['read'],
  starredQueries: ['create', 'read', 'update', 'delete'],
  virtualFields: ['create', 'read', 'update', 'delete'],
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
};

export const ALL_ACTIONS = ['create', 'read', 'update', 'delete'] as const;

/**
 * Turns one action of one area on or off. The result keeps the schema's action order and drops areas
 * left without actions (the server stores `{}` and `{area: []}` alike; the former reads better).
 */
export function toggleCapability(
  caps: CapabilityMap,
  area: string,
  action: string,
  on: boolean,
  schema: Record<string, readonly string[]>,
): CapabilityMap {
  const allowed = schema[area];
  if (!allowed || !allowed.includes(action)) throw new Error(`${area} has no action ${action}`);
  const current = new Set(caps[area] ?? []);
  if (on) current.add(action);
  else current.delete(action);
  const next: CapabilityMap = { ...caps };
  const actions = allowed.filter((a) => current.has(a));
  if (actions.length) next[area] = actions;
  else delete next[area];
  return next;
}

export function hasCapability(caps: CapabilityMap | undefined, area: string, action: string): boolean {
  return caps?.[area]?.includes(action) ?? false;
}

/** Replaces the capabilities of one dataset (or `*`) in a dataset map, dropping it when empty. */
export function withDatasetCapabilities(
  map: Record<string, CapabilityMap>,
  dataset: string,
  caps: CapabilityMap,
): Record<string, CapabilityMap> {
  const next = { ...map };
  if (Object.keys(caps).length) next[dataset] = caps;
  else delete next[dataset];
  return next;
}

/** `monitors: read/create; query: read` — a one-line summary for lists. */
export function describeCapabilities(caps: CapabilityMap | undefined): string {
  return Object.entries(caps ?? {})
    .filter(([, actions]) => actions && actions.length)
    .map(([area, actions]) => `${area}: ${actions.join('/')}`)
    .join('; ');
}
