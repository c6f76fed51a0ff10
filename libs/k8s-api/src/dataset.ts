/**
 * `Dataset`: one dataset of the management API (`/v2/datasets`), k8s.md §3.2. The dataset name is the
 * external id, so it can be neither added, removed nor changed once the object exists; kind and region are
 * fixed at creation because changing them would mean deleting data.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { KindNames } from './group';
import { ConnectionRef, deletionPolicy, statusWith } from './fragments';
import { CONDITION_COLUMNS, type CustomResource, type KindDefinition } from './kind';
import { LIMITS, PATTERNS, dateTime, int32, setOf, stringEnum, validations } from './openapi';

export const DATASET_NAMES = {
  kind: 'Dataset',
  listKind: 'DatasetList',
  plural: 'datasets',
  singular: 'dataset',
  shortNames: ['qds'],
  scope: 'Namespaced',
} as const satisfies KindNames;

/** CR kind → `/v2` kind. */
export const DATASET_KINDS = {
  Events: 'axiom:events:v1',
  OTelLogs: 'otel:logs:v1',
  OTelTraces: 'otel:traces:v1',
  OTelMetrics: 'otel:metrics:v1',
} as const;
export type DatasetKind = keyof typeof DATASET_KINDS;

/** Rule on `spec` (not on the field) so that adding or removing the field is caught too (k8s.md §1). */
function fixedOnceCreated(field: string) {
  return {
    rule: `has(self.${field}) == has(oldSelf.${field}) && (!has(self.${field}) || self.${field} == oldSelf.${field})`,
    message: `${field} cannot be added, removed or changed`,
    fieldPath: `.${field}`,
  };
}

export const DatasetSpec = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        description:
          'Dataset name in the management API; defaults to metadata.name. Cannot be added, removed or changed.',
        minLength: 1,
        maxLength: 80,
        pattern: '^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,78}[a-zA-Z0-9])?$',
        ...validations({ rule: "!self.startsWith('axiom-')", message: 'name must not start with axiom-' }),
      }),
    ),
    description: Type.Optional(
      Type.String({ description: 'Dataset description.', default: '', maxLength: LIMITS.description }),
    ),
    kind: Type.Optional(
      stringEnum(Object.keys(DATASET_KINDS) as DatasetKind[], {
        description: 'Events (axiom:events:v1), OTelLogs, OTelTraces or OTelMetrics (otel:*:v1). Immutable.',
        default: 'Events',
        ...validations({ rule: 'self == oldSelf', message: 'kind is immutable' }),
      }),
    ),
    region: Type.Optional(
      Type.String({
        description:
          "Region (edgeDeployment) that stores the dataset; defaults to the connection's defaultRegion. Cannot be added, removed or changed.",
        maxLength: LIMITS.region,
        pattern: PATTERNS.region,
      }),
    ),
    retentionDays: Type.Optional(
      int32({ description: 'Days to keep events; absent keeps them forever.', minimum: 1, maximum: 36500 }),
    ),
    mapFields: Type.Optional(
      setOf(
        Type.String({
          maxLength: 256,
          // The management API's map field rule: no leading `_` (system fields) or punctuation.
          pattern: '^[A-Za-z0-9][A-Za-z0-9_.\\-/@:]*$',
        }),
        {
          description:
            'Fields stored as maps. Absent: not managed by this object; [] removes every map field.',
          maxItems: 256,
        },
      ),
    ),
    deletionPolicy: Type.Optional(
      deletionPolicy(
        'Orphan',
        'Orphan (default) keeps the dataset and its data when this object is deleted; Delete deletes them.',
      ),
    ),
    connectionRef: Type.Optional(ConnectionRef),
  },
  {
    description: 'Desired state of the dataset.',
    ...validations(fixedOnceCreated('name'), fixedOnceCreated('region')),
  },
);
export type DatasetSpec = Static<typeof DatasetSpec>;

export const DatasetStatus = statusWith(
  {
    datasetName: Type.Optional(Type.String({ description: 'Name of the dataset in the management API.' })),
    region: Type.Optional(Type.String({ description: 'Region that stores the dataset.' })),
    created: Type.Optional(dateTime({ description: 'When the management API created the dataset.' })),
  },
  'Observed state of the dataset.',
);
export type DatasetStatus = Static<typeof DatasetStatus>;

export type DatasetResource = CustomResource<'Dataset', DatasetSpec, DatasetStatus>;

export const DATASET: KindDefinition = {
  names: DATASET_NAMES,
  description:
    'A dataset of the Quarry management API. Deleting this object keeps the dataset and its data unless spec.deletionPolicy is Delete.',
  spec: DatasetSpec,
  status: DatasetStatus,
  specRequired: false,
  printerColumns: [
    { name: 'Dataset', type: 'string', jsonPath: '.status.datasetName' },
    { name: 'Kind', type: 'string', jsonPath: '.spec.kind' },
    { name: 'Region', type: 'string', jsonPath: '.status.region' },
    {
      name: 'Retention',
      type: 'integer',
      description: 'Days; empty is forever.',
      jsonPath: '.spec.retentionDays',
    },
    CONDITION_COLUMNS.ready,
    CONDITION_COLUMNS.synced,
    CONDITION_COLUMNS.reason,
    CONDITION_COLUMNS.deletion,
    CONDITION_COLUMNS.age,
  ],
};
