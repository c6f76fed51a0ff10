import type {
  ApiDatasetCapabilities,
  ApiOrgCapabilities,
  ApiViewCapabilities,
  ActionList,
} from './management-api.port';
import type {
  Action,
  CapabilitySpec,
  DatasetCapabilityEntry,
  OrgCapabilities,
  ViewCapabilityEntry,
} from './resources';

/**
 * CRDs list dataset and view capabilities as lists keyed by `dataset` / `view` (k8s.md §1: lists of named
 * sub-objects, not maps); `/v2` wants maps. These convert both ways and normalise (actions sorted, empty
 * action lists dropped), so a spec and what the API echoes back compare equal when they mean the same.
 */

export interface ApiCapabilities {
  orgCapabilities: ApiOrgCapabilities;
  datasetCapabilities: ApiDatasetCapabilities;
  viewCapabilities: ApiViewCapabilities;
}

export function capabilitiesToApi(spec: CapabilitySpec): ApiCapabilities {
  return {
    orgCapabilities: normaliseActions(spec.orgCapabilities ?? {}),
    datasetCapabilities: entriesToMap(spec.datasetCapabilities ?? [], 'dataset'),
    viewCapabilities: entriesToMap(spec.viewCapabilities ?? [], 'view'),
  };
}

export function datasetCapabilitiesToList(map: ApiDatasetCapabilities): DatasetCapabilityEntry[] {
  return mapToEntries(map, 'dataset') as unknown as DatasetCapabilityEntry[];
}

export function viewCapabilitiesToList(map: ApiViewCapabilities): ViewCapabilityEntry[] {
  return mapToEntries(map, 'view') as unknown as ViewCapabilityEntry[];
}

/** Org capabilities with actions sorted and keys without actions removed. */
export function normaliseActions(
  actions: OrgCapabilities | ApiOrgCapabilities | Record<string, ActionList | undefined>,
): ApiOrgCapabilities {
  const byKey = actions as Record<string, string[] | null | undefined>;
  const out: ApiOrgCapabilities = {};
  for (const key of Object.keys(byKey).sort()) {
    const list = byKey[key];
    if (list && list.length > 0) out[key] = [...new Set(list)].sort();
  }
  return out;
}

/** A capability map as the API echoes it, normalised like `capabilitiesToApi` output. */
export function normaliseMap(map: Record<string, Record<string, ActionList>> | undefined | null) {
  const out: Record<string, Record<string, ActionList>> = {};
  for (const key of Object.keys(map ?? {}).sort()) {
    const inner = normaliseActions(map![key] ?? {});
    if (Object.keys(inner).length > 0) out[key] = inner;
  }
  return out;
}

function entriesToMap(
  entries: readonly (DatasetCapabilityEntry | ViewCapabilityEntry)[],
  keyField: 'dataset' | 'view',
): Record<string, Record<string, ActionList>> {
  const map: Record<string, Record<string, ActionList>> = {};
  for (const entry of entries) {
    const key = (entry as unknown as Record<string, string>)[keyField];
    const actions: Record<string, ActionList> = {};
    for (const [field, value] of Object.entries(entry)) {
      if (field !== keyField) actions[field] = (value as Action[] | undefined) ?? null;
    }
    map[key] = actions;
  }
  return normaliseMap(map);
}

function mapToEntries(map: Record<string, Record<string, ActionList>>, keyField: string) {
  const normalised = normaliseMap(map);
  return Object.keys(normalised).map((key) => ({ [keyField]: key, ...normalised[key] }));
}
