import type { KubeObjects } from './kube-objects.port';
import type { ObjectMeta, ResourceKind } from './resources';

/** The `KubeObjects` calls that write a custom resource with its `resourceVersion` as precondition. */
const CR_WRITES: ReadonlySet<PropertyKey> = new Set<keyof KubeObjects>([
  'patchStatus',
  'addFinalizer',
  'removeFinalizer',
  'setAnnotations',
]);

/**
 * The resourceVersions of custom resources this process has written over. Every write carries the version
 * it was based on as a precondition, so once it succeeded that version is history: an informer cache still
 * showing it has not yet seen the write (its watch event is on the way), and a reconcile acting on that copy
 * would repeat or undo the write — mint a second token, sweep the one just minted, put the old id back in
 * the Secret. resourceVersions are opaque and never compared for order here: only "this exact version was
 * written over" is known, which is enough because a cache never goes back.
 */
export class WrittenVersions {
  private readonly superseded = new Map<string, Set<string>>();

  /** `kube`, remembering the version each successful custom-resource write was based on. */
  track(kube: KubeObjects): KubeObjects {
    return new Proxy(kube, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (!CR_WRITES.has(property)) return value.bind(target);
        return async (kind: ResourceKind, object: { metadata: ObjectMeta }, ...rest: unknown[]) => {
          const written: unknown = await value.call(target, kind, object, ...rest);
          this.wroteOver(kind, object.metadata);
          return written;
        };
      },
    });
  }

  /**
   * Whether this cached copy predates a write this process made to the object. A copy showing any other
   * version is at or past the last write (the cache moved on), so what was remembered is dropped.
   */
  isStale(kind: ResourceKind, metadata: ObjectMeta): boolean {
    const key = keyOf(kind, metadata);
    const versions = this.superseded.get(key);
    if (!versions) return false;
    if (metadata.resourceVersion !== undefined && versions.has(metadata.resourceVersion)) return true;
    this.superseded.delete(key);
    return false;
  }

  /** The object is gone from the cache. */
  forget(kind: ResourceKind, metadata: Pick<ObjectMeta, 'namespace' | 'name'>): void {
    this.superseded.delete(keyOf(kind, metadata));
  }

  private wroteOver(kind: ResourceKind, metadata: ObjectMeta): void {
    if (metadata.resourceVersion === undefined) return;
    const key = keyOf(kind, metadata);
    const versions = this.superseded.get(key) ?? new Set<string>();
    versions.add(metadata.resourceVersion);
    this.superseded.set(key, versions);
  }
}

function keyOf(kind: ResourceKind, metadata: Pick<ObjectMeta, 'namespace' | 'name'>): string {
  return `${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
}
