import type { KubeObject } from './resource-types';

export type StoredEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, as kept in the history that watches replay from a resourceVersion. */
export interface StoredEvent {
  type: StoredEventType;
  typeKey: string;
  resourceVersion: number;
  object: KubeObject;
  /** The object before a MODIFIED change: a label-selected watch needs it to turn a change into ADDED/DELETED. */
  previous?: KubeObject;
}

/**
 * The fake API server's etcd: objects per resource type, one resourceVersion counter for everything (like an
 * etcd revision), and the history of changes. Objects are copied on the way in and out so no caller can
 * change stored state by accident.
 */
export class ObjectStore {
  private revision = 0;
  /** Events at or below this revision are forgotten: watches that start there get a 410. */
  private compactedRevision = 0;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly history: StoredEvent[] = [];
  private readonly listeners = new Set<(event: StoredEvent) => void>();

  get currentRevision(): number {
    return this.revision;
  }

  get oldestWatchableRevision(): number {
    return this.compactedRevision;
  }

  nextRevision(): number {
    this.revision += 1;
    return this.revision;
  }

  get(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.objects.get(typeKey)?.get(objectPath(namespace, name));
    return found ? structuredClone(found) : undefined;
  }

  /** Objects of a type in key order (namespace, then name), optionally in one namespace. */
  list(typeKey: string, namespace?: string): KubeObject[] {
    const byPath = this.objects.get(typeKey);
    if (!byPath) return [];
    const paths = [...byPath.keys()].sort();
    const items: KubeObject[] = [];
    for (const path of paths) {
      const object = byPath.get(path)!;
      if (namespace === undefined || object.metadata?.namespace === namespace)
        items.push(structuredClone(object));
    }
    return items;
  }

  /** Every stored object with its type key (for owner-reference cascades). */
  *all(): Generator<{ typeKey: string; object: KubeObject }> {
    for (const [typeKey, byPath] of this.objects) {
      for (const object of byPath.values()) yield { typeKey, object: structuredClone(object) };
    }
  }

  /** Stores an object whose `metadata.resourceVersion` was set from `nextRevision()`, and records the change. */
  put(typeKey: string, object: KubeObject, previous: KubeObject | undefined): void {
    let byPath = this.objects.get(typeKey);
    if (!byPath) {
      byPath = new Map();
      this.objects.set(typeKey, byPath);
    }
    byPath.set(objectPath(object.metadata?.namespace, object.metadata!.name!), structuredClone(object));
    this.record({ type: previous ? 'MODIFIED' : 'ADDED', typeKey, object, previous });
  }

  /** Removes an object; `finalState` carries the resourceVersion of the deletion, as a DELETED event does. */
  remove(typeKey: string, finalState: KubeObject): void {
    this.objects.get(typeKey)?.delete(objectPath(finalState.metadata?.namespace, finalState.metadata!.name!));
    this.record({ type: 'DELETED', typeKey, object: finalState });
  }

  /** Changes after `revision`, or `undefined` when some of them were compacted away. */
  eventsAfter(revision: number): StoredEvent[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    return this.history.filter((event) => event.resourceVersion > revision);
  }

  /** Forgets the history, like an etcd compaction: older resourceVersions can no longer be watched from. */
  compact(): void {
    this.history.length = 0;
    this.compactedRevision = this.revision;
  }

  subscribe(listener: (event: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private record(change: Omit<StoredEvent, 'resourceVersion'>): void {
    const event: StoredEvent = {
      ...change,
      resourceVersion: Number(change.object.metadata!.resourceVersion),
      object: structuredClone(change.object),
      previous: change.previous && structuredClone(change.previous),
    };
    this.history.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

function objectPath(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}
