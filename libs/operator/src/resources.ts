/**
 * The custom resources as the reconcilers read them. Spec and status types come from `@quarry/k8s-api`
 * (generated once from the TypeBox schemas); the only narrowing here is `metadata.name`, which every
 * object read from the apiserver has.
 */
import type * as api from '@quarry/k8s-api';

export type { Condition, DeletionPolicy, DatasetKind, RotationReason } from '@quarry/k8s-api';
export type ConditionStatus = api.Condition['status'];

/** metav1.ObjectMeta of a stored object: `name` is always set. */
export type ObjectMeta = api.ObjectMeta & { name: string };
export type OwnerReference = NonNullable<api.ObjectMeta['ownerReferences']>[number];

type Stored<R extends { metadata: api.ObjectMeta }> = Omit<R, 'metadata'> & { metadata: ObjectMeta };

export type DatasetSpec = api.DatasetSpec;
export type DatasetStatus = api.DatasetStatus;
export type DatasetResource = Stored<api.DatasetResource>;

export type RoleSpec = api.RoleSpec;
export type RoleStatus = api.RoleStatus;
export type RoleResource = Stored<api.RoleResource>;

export type TokenSpec = api.TokenSpec;
export type TokenStatus = api.TokenStatus;
export type TokenRotationStatus = api.TokenRotation;
export type TokenResource = Stored<api.TokenResource>;

export type QuarryConnectionSpec = api.QuarryConnectionSpec;
export type QuarryConnectionStatus = api.QuarryConnectionStatus;
export type QuarryConnectionResource = Stored<api.QuarryConnectionResource>;

export type Action = 'create' | 'read' | 'update' | 'delete';
export type OrgCapabilities = api.OrgCapabilities;
export type DatasetCapabilityEntry = api.DatasetCapability;
export type ViewCapabilityEntry = api.ViewCapability;

/** The capability fields Role and Token share. */
export interface CapabilitySpec {
  orgCapabilities?: OrgCapabilities;
  datasetCapabilities?: DatasetCapabilityEntry[];
  viewCapabilities?: ViewCapabilityEntry[];
}

/** Fields every managed kind has in its status. */
export type CommonStatus = Pick<DatasetStatus, 'observedGeneration' | 'conditions' | 'lastSyncTime'>;

/** The kinds whose external objects the operator manages, with their resource types. */
export interface ManagedResources {
  Dataset: DatasetResource;
  Role: RoleResource;
  Token: TokenResource;
}
export type ManagedKind = keyof ManagedResources;

/** The kinds whose external name must be unique per connection (Tokens may share a display name). */
export interface ClaimedResources {
  Dataset: DatasetResource;
  Role: RoleResource;
}
export type ClaimedKind = keyof ClaimedResources;

export interface AllResources extends ManagedResources {
  QuarryConnection: QuarryConnectionResource;
}
export type ResourceKind = keyof AllResources;

/** A Secret as the operator sees it: values decoded (the adapter base64-encodes `data`). */
export interface SecretObject {
  metadata: ObjectMeta & { namespace: string };
  type?: string;
  data: Record<string, string>;
}
