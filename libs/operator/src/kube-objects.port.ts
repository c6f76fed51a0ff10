import type {
  AllResources,
  ClaimedKind,
  ClaimedResources,
  ObjectMeta,
  ResourceKind,
  SecretObject,
} from './resources';

/**
 * The port the reconcilers use to read and write Kubernetes objects. Reads of custom resources come from
 * the informer cache (k8s.md §3.5 step 1); writes carry `metadata.resourceVersion` as a precondition, and a
 * stale one fails with `KubeConflictError` (the reconcile is simply retried).
 */
export interface KubeObjects {
  /** A custom resource from the cache; `namespace` is ignored for the cluster-scoped QuarryConnection. */
  get<K extends ResourceKind>(
    kind: K,
    namespace: string | undefined,
    name: string,
  ): Promise<AllResources[K] | undefined>;
  /** Every cached object of a kind, across namespaces (the resync scan, the token sweep). */
  list<K extends ResourceKind>(kind: K): Promise<AllResources[K][]>;
  /**
   * The cached CRs of a kind claiming the same effective name on the same connection as `cr` (`cr` itself
   * may be among them): the name-conflict check, answered from a cache index (k8s.md §3.5 step 5).
   */
  claimants<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): Promise<ClaimedResources[K][]>;

  /** Merge-patches `/status`; returns the object with its new resourceVersion. */
  patchStatus<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    status: AllResources[K]['status'],
  ): Promise<AllResources[K]>;
  /** Adds the finalizer if missing; returns the updated object. */
  addFinalizer<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    finalizer: string,
  ): Promise<AllResources[K]>;
  /** Removes the finalizer if present; returns the updated object (which may then be gone). */
  removeFinalizer<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    finalizer: string,
  ): Promise<AllResources[K]>;
  /** Sets (string) or removes (null) annotations; returns the updated object. */
  setAnnotations<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    annotations: Record<string, string | null>,
  ): Promise<AllResources[K]>;

  getSecret(namespace: string, name: string): Promise<SecretObject | undefined>;
  /** Creates or replaces the operator-owned fields of a Secret (server-side apply, field manager `quarry-operator`). */
  applySecret(secret: SecretObject): Promise<void>;
  /** Deletes a Secret; an absent one is fine. */
  deleteSecret(namespace: string, name: string): Promise<void>;

  /** Records a Kubernetes Event on the object (best effort: failures are swallowed by adapters). */
  recordEvent(
    kind: ResourceKind,
    object: { metadata: ObjectMeta },
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void>;
}

/** A write lost a race on `resourceVersion` (HTTP 409): the cache was stale; reconcile again. */
export class KubeConflictError extends Error {
  override readonly name = 'KubeConflictError';
}
