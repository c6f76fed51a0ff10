import type { Connection } from './connection-resolver';
import type { ApiDataset, CreateDatasetBody, UpdateDatasetBody } from './management-api.port';
import type { DatasetKind, DatasetResource } from './resources';

/** CRD enum → `/v2` kind. */
export const DATASET_KIND_TO_API: Record<DatasetKind, string> = {
  Events: 'axiom:events:v1',
  OTelLogs: 'otel:logs:v1',
  OTelTraces: 'otel:traces:v1',
  OTelMetrics: 'otel:metrics:v1',
};

/** The dataset a CR asks for, in `/v2` terms. Optional fields the CR leaves out are not managed. */
export interface DesiredDataset {
  name: string;
  description: string;
  kind: string;
  /** `undefined`: the CR and its connection name no region; the server's home region is accepted. */
  region?: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
  /** `undefined`: map fields are not managed by this CR. Sorted. */
  mapFields?: string[];
}

/** `spec.name`, else `metadata.name` (Strimzi's name defaulting). */
export function datasetNameOf(cr: DatasetResource): string {
  return cr.spec.name || cr.metadata.name;
}

export function desiredDataset(
  cr: DatasetResource,
  connection: Pick<Connection, 'defaultRegion'>,
): DesiredDataset {
  const { spec } = cr;
  const retention = spec.retentionDays;
  return {
    name: datasetNameOf(cr),
    description: spec.description ?? '',
    kind: DATASET_KIND_TO_API[spec.kind ?? 'Events'],
    region: spec.region || connection.defaultRegion || undefined,
    retentionDays: retention ?? 0,
    useRetentionPeriod: retention !== undefined,
    mapFields: spec.mapFields ? [...new Set(spec.mapFields)].sort() : undefined,
  };
}

export function createBody(desired: DesiredDataset): CreateDatasetBody {
  return {
    name: desired.name,
    description: desired.description,
    kind: desired.kind,
    ...(desired.region ? { edgeDeployment: desired.region } : {}),
    retentionDays: desired.retentionDays,
    useRetentionPeriod: desired.useRetentionPeriod,
  };
}

export interface DatasetDiff {
  /** Differences no update can fix (kind, region): reported, never repaired by delete-and-recreate. */
  immutable: string[];
  /** Set when description or retention differ: the full `PUT /v2/datasets/{id}` body. */
  update?: UpdateDatasetBody;
  /** Set when managed map fields differ: the full list for `PUT …/mapfields`. */
  mapFields?: string[];
}

export function diffDataset(desired: DesiredDataset, observed: ApiDataset): DatasetDiff {
  const immutable: string[] = [];
  if (desired.kind !== observed.kind)
    immutable.push(`kind is "${desired.kind}" in the spec but "${observed.kind}" in Quarry`);
  if (
    desired.region !== undefined &&
    observed.edgeDeployment !== undefined &&
    desired.region !== observed.edgeDeployment
  )
    immutable.push(`region is "${desired.region}" in the spec but "${observed.edgeDeployment}" in Quarry`);

  const diff: DatasetDiff = { immutable };
  const observedRetention = observed.useRetentionPeriod ? (observed.retentionDays ?? 0) : 0;
  if (
    desired.description !== (observed.description ?? '') ||
    desired.useRetentionPeriod !== Boolean(observed.useRetentionPeriod) ||
    desired.retentionDays !== observedRetention
  ) {
    diff.update = {
      description: desired.description,
      retentionDays: desired.retentionDays,
      useRetentionPeriod: desired.useRetentionPeriod,
    };
  }
  if (desired.mapFields !== undefined) {
    const observedFields = [...new Set(observed.mapFields ?? [])].sort();
    if (observedFields.join('\n') !== desired.mapFields.join('\n')) diff.mapFields = desired.mapFields;
  }
  return diff;
}

export const isInSync = (diff: DatasetDiff): boolean =>
  diff.immutable.length === 0 && diff.update === undefined && diff.mapFields === undefined;
