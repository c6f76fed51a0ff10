import {
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Api,
  type CustomObjectsApi,
  type KubernetesObject,
  type V1Secret,
} from '@kubernetes/client-node';
import {
  API_GROUP,
  API_VERSION as CRD_VERSION,
  DATASET_NAMES,
  QUARRY_CONNECTION_NAMES,
  ROLE_NAMES,
  TOKEN_NAMES,
} from '@quarry/k8s-api';
import {
  ensureFinalizer,
  isConflict,
  isNotFound,
  mergePatchObject,
  mergePatchStatus,
  removeFinalizer,
  type CustomObjectRef,
} from '@quarry/k8s-kit';
import type { Clock } from './clock';
import { FIELD_MANAGER } from './constants';
import { KubeConflictError, type KubeObjects } from './kube-objects.port';
import { mergePatchFor } from './merge-patch';
import { claimedNameOf, connectionOf } from './name-claims';
import type { NameIndex } from './name-index';
import type {
  AllResources,
  ClaimedKind,
  ClaimedResources,
  ObjectMeta,
  ResourceKind,
  SecretObject,
} from './resources';

/** What the adapter reads custom resources from: the informer caches (k8s-kit `ResilientInformer`). */
export interface ObjectCache<T> {
  get(name: string, namespace?: string): T | undefined;
  list(): readonly T[];
}

export type ObjectCaches = { [K in ResourceKind]: ObjectCache<AllResources[K]> };

export interface KubeObjectsAdapterOptions {
  customObjects: CustomObjectsApi;
  core: CoreV1Api;
  caches: ObjectCaches;
  /**
   * The index on effective names, kept by the app from the same informers as `caches`. Without it,
   * `claimants` scans the cache (fine for tests with a handful of objects).
   */
  names?: NameIndex;
  clock: Clock;
  /** `source.component` / `reportingComponent` of recorded Events. */
  component?: string;
  /** Events about cluster-scoped objects (QuarryConnection) go to this namespace. */
  eventNamespace: string;
  onEventError?: (error: unknown) => void;
}

const PLURALS: Record<ResourceKind, { plural: string; namespaced: boolean }> = {
  Dataset: { plural: DATASET_NAMES.plural, namespaced: true },
  Role: { plural: ROLE_NAMES.plural, namespaced: true },
  Token: { plural: TOKEN_NAMES.plural, namespaced: true },
  QuarryConnection: { plural: QUARRY_CONNECTION_NAMES.plural, namespaced: false },
};

/**
 * `KubeObjects` over @kubernetes/client-node 1.4: custom resources read from informer caches and written
 * with merge patches carrying `metadata.resourceVersion` (409 → `KubeConflictError`); Secrets read directly
 * (the operator must also see Secrets it does not own, to refuse them) and written by server-side apply.
 */
export class KubeObjectsAdapter implements KubeObjects {
  constructor(private readonly options: KubeObjectsAdapterOptions) {}

  async get<K extends ResourceKind>(kind: K, namespace: string | undefined, name: string) {
    const cache = this.options.caches[kind] as ObjectCache<AllResources[K]>;
    const found = cache.get(name, PLURALS[kind].namespaced ? namespace : undefined);
    // Copies: reconcilers must never mutate the informer's cache.
    return found ? structuredClone(found) : undefined;
  }

  async list<K extends ResourceKind>(kind: K): Promise<AllResources[K][]> {
    const cache = this.options.caches[kind] as ObjectCache<AllResources[K]>;
    return cache.list().map((o) => structuredClone(o));
  }

  async claimants<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): Promise<ClaimedResources[K][]> {
    const cache = this.options.caches[kind] as ObjectCache<ClaimedResources[K]>;
    const { names } = this.options;
    if (names) {
      // An object the index still names may have left the cache a moment ago: skip it.
      const found = names.sharing(kind, cr).map((key) => cache.get(key.name, key.namespace));
      return found.filter((o): o is ClaimedResources[K] => o !== undefined).map((o) => structuredClone(o));
    }
    const name = claimedNameOf(kind, cr);
    return cache
      .list()
      .filter((o) => connectionOf(o) === connectionOf(cr) && claimedNameOf(kind, o) === name)
      .map((o) => structuredClone(o));
  }

  async patchStatus<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    status: AllResources[K]['status'],
  ) {
    const patch = mergePatchFor(object.status ?? {}, status);
    return this.write(kind, object, () =>
      mergePatchStatus(
        this.options.customObjects,
        refOf(kind, object.metadata),
        patch,
        object.metadata.resourceVersion,
      ),
    );
  }

  async addFinalizer<K extends ResourceKind>(kind: K, object: AllResources[K], finalizer: string) {
    return this.write(kind, object, () =>
      ensureFinalizer(this.options.customObjects, refOf(kind, object.metadata), asKube(object), finalizer),
    );
  }

  async removeFinalizer<K extends ResourceKind>(kind: K, object: AllResources[K], finalizer: string) {
    return this.write(kind, object, () =>
      removeFinalizer(this.options.customObjects, refOf(kind, object.metadata), asKube(object), finalizer),
    );
  }

  async setAnnotations<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    annotations: Record<string, string | null>,
  ) {
    const body = { metadata: { resourceVersion: object.metadata.resourceVersion, annotations } };
    return this.write(kind, object, () =>
      mergePatchObject(this.options.customObjects, refOf(kind, object.metadata), body),
    );
  }

  async getSecret(namespace: string, name: string): Promise<SecretObject | undefined> {
    try {
      return fromV1Secret(await this.options.core.readNamespacedSecret({ namespace, name }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async applySecret(secret: SecretObject): Promise<void> {
    const { name, namespace, labels, annotations, ownerReferences } = secret.metadata;
    const body: V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace, labels, annotations, ownerReferences },
      type: secret.type ?? 'Opaque',
      data: Object.fromEntries(
        Object.entries(secret.data).map(([key, value]) => [
          key,
          Buffer.from(value, 'utf8').toString('base64'),
        ]),
      ),
    };
    await this.options.core.patchNamespacedSecret(
      { name, namespace, body, fieldManager: FIELD_MANAGER, force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
  }

  async deleteSecret(namespace: string, name: string): Promise<void> {
    try {
      await this.options.core.deleteNamespacedSecret({ namespace, name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async recordEvent(
    kind: ResourceKind,
    object: { metadata: ObjectMeta },
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const { metadata } = object;
    const namespace = metadata.namespace ?? this.options.eventNamespace;
    const now = this.options.clock.now();
    const component = this.options.component ?? FIELD_MANAGER;
    try {
      await this.options.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: { generateName: `${metadata.name}.`, namespace },
          involvedObject: {
            apiVersion: `${API_GROUP}/${CRD_VERSION}`,
            kind,
            name: metadata.name,
            namespace: metadata.namespace,
            uid: metadata.uid,
            resourceVersion: metadata.resourceVersion,
          },
          type,
          reason,
          message: message.slice(0, 1024),
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
          source: { component },
          reportingComponent: component,
        },
      });
    } catch (err) {
      // Events are a courtesy to people running kubectl describe; a failure must not fail the reconcile.
      this.options.onEventError?.(err);
    }
  }

  private async write<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    call: () => Promise<KubernetesObject>,
  ): Promise<AllResources[K]> {
    try {
      return (await call()) as unknown as AllResources[K];
    } catch (err) {
      // A stale resourceVersion, or the object vanished since the cache saw it: read afresh and retry.
      if (isConflict(err) || isNotFound(err)) {
        const { namespace, name } = object.metadata;
        throw new KubeConflictError(
          `${kind} ${namespace ? `${namespace}/` : ''}${name} changed since it was read`,
        );
      }
      throw err;
    }
  }
}

function refOf(kind: ResourceKind, metadata: ObjectMeta): CustomObjectRef {
  const { plural, namespaced } = PLURALS[kind];
  return {
    group: API_GROUP,
    version: CRD_VERSION,
    plural,
    name: metadata.name,
    ...(namespaced ? { namespace: metadata.namespace } : {}),
  };
}

function asKube(object: { metadata: ObjectMeta }): KubernetesObject {
  return object as unknown as KubernetesObject;
}

function fromV1Secret(secret: V1Secret): SecretObject {
  const metadata = secret.metadata ?? {};
  return {
    metadata: {
      name: metadata.name ?? '',
      namespace: metadata.namespace ?? '',
      uid: metadata.uid,
      resourceVersion: metadata.resourceVersion,
      labels: metadata.labels,
      annotations: metadata.annotations,
      ownerReferences: metadata.ownerReferences?.map((o) => ({
        apiVersion: o.apiVersion,
        kind: o.kind,
        name: o.name,
        uid: o.uid,
        controller: o.controller,
        blockOwnerDeletion: o.blockOwnerDeletion,
      })),
    },
    type: secret.type,
    data: Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([key, value]) => [
        key,
        Buffer.from(String(value), 'base64').toString('utf8'),
      ]),
    ),
  };
}
