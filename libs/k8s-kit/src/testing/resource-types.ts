/**
 * The resource types the fake API server knows: a few built-ins and the custom resources a test registers.
 * A type carries what the apiserver would learn from its CRD: names, scope, the status subresource, and
 * (for Quarry's CRDs) an admission callback standing in for schema defaulting and validation.
 */

/** Any Kubernetes object as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [field: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/**
 * What an admission callback decides. A rejection's `message` is the whole Status message, as the apiserver
 * words it (`Dataset.quarry.dev "logs" is invalid: spec.kind: …`); `reason` defaults from the code (422 →
 * Invalid) and `details` (with `causes`) are passed through to the Status. The shape matches
 * `CrdAdmission.admit` of `@quarry/k8s-api/testing`, so it can be plugged in as it is.
 */
export type AdmissionResult =
  | { ok: true; object: Record<string, unknown> }
  | {
      ok: false;
      status: number;
      message: string;
      reason?: string;
      details?: Record<string, unknown>;
      causes?: readonly unknown[];
    };

export interface AdmissionContext {
  operation: 'CREATE' | 'UPDATE';
  /** `status` when the write came through the status subresource. */
  subresource?: 'status';
}

/**
 * Called on every create, update and patch of the type, after the fake has merged the request into the
 * stored object and before it stores the result: return the object to store (defaults applied) or a
 * rejection. `oldObject` is undefined on create. Server-owned metadata (uid, resourceVersion, timestamps,
 * generation) is re-imposed on whatever the callback returns.
 */
export type AdmissionHook = (
  object: KubeObject,
  oldObject: KubeObject | undefined,
  context: AdmissionContext,
) => AdmissionResult;

export interface ResourceType {
  /** `''` for the core group. */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
  /** With a status subresource, the main endpoint ignores status and `/status` ignores everything else. */
  statusSubresource?: boolean;
  admit?: AdmissionHook;
}

export const BUILT_IN_RESOURCES: readonly ResourceType[] = [
  {
    group: '',
    version: 'v1',
    plural: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    statusSubresource: true,
  },
  { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
  { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
];

export function apiVersionOf(type: ResourceType): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** `datasets.quarry.dev`, or `secrets` for the core group: how apiserver messages name a resource. */
export function groupResourceOf(type: ResourceType): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

export function typeKeyOf(type: Pick<ResourceType, 'group' | 'version' | 'plural'>): string {
  return `${type.group}/${type.version}/${type.plural}`;
}
