import { KubeConflictError, type KubeObjects } from '../kube-objects.port';
import { claimedNameOf, connectionOf } from '../name-claims';
import type {
  AllResources,
  ClaimedKind,
  ClaimedResources,
  ObjectMeta,
  ResourceKind,
  SecretObject,
} from '../resources';

type AnyResource = AllResources[ResourceKind];
export type KubeMethod = keyof KubeObjects;

export interface RecordedEvent {
  kind: ResourceKind;
  name: string;
  namespace?: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * Kubernetes objects in memory, with the API-server rules a reconciler relies on: resourceVersion
 * preconditions (409 → `KubeConflictError`), `generation` bumped by spec changes only, status written
 * only through `patchStatus`, deletion that waits for finalizers. Counts status writes, so tests can
 * assert that a resync of an unchanged object writes nothing.
 */
export class InMemoryKubeObjects implements KubeObjects {
  private readonly objects = new Map<string, AnyResource>();
  readonly secrets = new Map<string, SecretObject>();
  readonly events: RecordedEvent[] = [];
  readonly writes: { method: KubeMethod; kind?: string; name: string }[] = [];
  private readonly faults: { method: KubeMethod; error: Error; skip: number }[] = [];
  /** While set, what the informer cache still shows (`freezeCache`); reads answer from it. */
  private cacheView: Map<string, AnyResource> | undefined;
  private version = 1;
  private created = 0;

  // --- what users and other controllers do -------------------------------------------------------

  /** Creates an object as `kubectl apply` would; creation times increase with each call. */
  create<K extends ResourceKind>(kind: K, object: AllResources[K]): AllResources[K] {
    const meta = object.metadata;
    const stored = structuredClone(object) as AllResources[K];
    stored.kind = kind;
    stored.metadata = {
      ...meta,
      uid: meta.uid ?? `uid-${kind}-${meta.namespace ?? ''}-${meta.name}`,
      generation: 1,
      resourceVersion: this.nextVersion(),
      creationTimestamp:
        meta.creationTimestamp ?? new Date(Date.UTC(2026, 0, 1, 0, 0, this.created++)).toISOString(),
    };
    this.objects.set(keyOf(kind, meta.namespace, meta.name), stored);
    return structuredClone(stored);
  }

  /** Edits the spec (bumping `generation`) and/or metadata as a user would. */
  edit<K extends ResourceKind>(
    kind: K,
    namespace: string | undefined,
    name: string,
    change: (object: AllResources[K]) => void,
  ): AllResources[K] {
    const stored = this.stored(kind, namespace, name);
    const before = JSON.stringify(stored.spec);
    change(stored as AllResources[K]);
    if (JSON.stringify(stored.spec) !== before)
      stored.metadata.generation = (stored.metadata.generation ?? 1) + 1;
    stored.metadata.resourceVersion = this.nextVersion();
    return structuredClone(stored) as AllResources[K];
  }

  /** `kubectl delete`: sets `deletionTimestamp` while finalizers remain, else removes the object. */
  delete(kind: ResourceKind, namespace: string | undefined, name: string, at = new Date()): void {
    const stored = this.stored(kind, namespace, name);
    if (stored.metadata.finalizers?.length) {
      stored.metadata.deletionTimestamp ??= at.toISOString();
      stored.metadata.resourceVersion = this.nextVersion();
    } else {
      this.objects.delete(keyOf(kind, namespace, name));
    }
  }

  /** A Secret written by someone else (no operator labels unless given). */
  putSecret(secret: SecretObject): void {
    this.secrets.set(
      keyOf('Secret', secret.metadata.namespace, secret.metadata.name),
      structuredClone(secret),
    );
  }

  /**
   * A call of `method` fails with `error` (a crash or an API-server error at that point): the next one, or
   * the one after `skip` successful calls.
   */
  failNext(method: KubeMethod, error: Error, skip = 0): void {
    this.faults.push({ method, error, skip });
  }

  /**
   * The informer cache falls behind: from now on `get`, `list` and `claimants` answer the objects as they
   * are at this moment, while writes go on to the store (checking resourceVersion against it, so a write
   * based on the stale copy fails with a conflict) — until `catchUpCache`. Users' edits are not seen either.
   */
  freezeCache(): void {
    this.cacheView = new Map([...this.objects].map(([key, object]) => [key, structuredClone(object)]));
  }

  /** The watch events arrived: reads show the store again. */
  catchUpCache(): void {
    this.cacheView = undefined;
  }

  /** The object as stored, or undefined (a synchronous read for assertions). */
  peek<K extends ResourceKind>(
    kind: K,
    namespace: string | undefined,
    name: string,
  ): AllResources[K] | undefined {
    const stored = this.objects.get(keyOf(kind, namespace, name));
    return stored ? (structuredClone(stored) as AllResources[K]) : undefined;
  }

  peekSecret(namespace: string, name: string): SecretObject | undefined {
    const stored = this.secrets.get(keyOf('Secret', namespace, name));
    return stored ? structuredClone(stored) : undefined;
  }

  statusWrites(): number {
    return this.writes.filter((w) => w.method === 'patchStatus').length;
  }

  // --- KubeObjects -------------------------------------------------------------------------------

  async get<K extends ResourceKind>(kind: K, namespace: string | undefined, name: string) {
    this.fault('get');
    const cached = this.cached().get(keyOf(kind, kind === 'QuarryConnection' ? undefined : namespace, name));
    return cached ? (structuredClone(cached) as AllResources[K]) : undefined;
  }

  async list<K extends ResourceKind>(kind: K): Promise<AllResources[K][]> {
    this.fault('list');
    return [...this.cached().values()]
      .filter((o) => o.kind === kind)
      .map((o) => structuredClone(o) as AllResources[K]);
  }

  /** A scan of every object (the app answers from `NameIndex`; this fake has few objects). */
  async claimants<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): Promise<ClaimedResources[K][]> {
    this.fault('claimants');
    const name = claimedNameOf(kind, cr);
    return [...this.cached().values()]
      .filter((o) => o.kind === kind)
      .map((o) => o as ClaimedResources[K])
      .filter((o) => connectionOf(o) === connectionOf(cr) && claimedNameOf(kind, o) === name)
      .map((o) => structuredClone(o));
  }

  async patchStatus<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    status: AllResources[K]['status'],
  ) {
    const stored = this.writable(kind, object, 'patchStatus');
    stored.status = structuredClone(status) as never;
    return this.bump<K>(stored);
  }

  async addFinalizer<K extends ResourceKind>(kind: K, object: AllResources[K], finalizer: string) {
    const stored = this.writable(kind, object, 'addFinalizer');
    const finalizers = stored.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) stored.metadata.finalizers = [...finalizers, finalizer];
    return this.bump<K>(stored);
  }

  async removeFinalizer<K extends ResourceKind>(kind: K, object: AllResources[K], finalizer: string) {
    const stored = this.writable(kind, object, 'removeFinalizer');
    stored.metadata.finalizers = (stored.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    const result = this.bump<K>(stored);
    if (stored.metadata.deletionTimestamp && stored.metadata.finalizers.length === 0)
      this.objects.delete(keyOf(kind, stored.metadata.namespace, stored.metadata.name));
    return result;
  }

  async setAnnotations<K extends ResourceKind>(
    kind: K,
    object: AllResources[K],
    annotations: Record<string, string | null>,
  ) {
    const stored = this.writable(kind, object, 'setAnnotations');
    const next = { ...(stored.metadata.annotations ?? {}) };
    for (const [key, value] of Object.entries(annotations)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    stored.metadata.annotations = next;
    return this.bump<K>(stored);
  }

  async getSecret(namespace: string, name: string): Promise<SecretObject | undefined> {
    this.fault('getSecret');
    return this.peekSecret(namespace, name);
  }

  async applySecret(secret: SecretObject): Promise<void> {
    this.fault('applySecret');
    this.writes.push({ method: 'applySecret', name: secret.metadata.name });
    this.secrets.set(
      keyOf('Secret', secret.metadata.namespace, secret.metadata.name),
      structuredClone(secret),
    );
  }

  async deleteSecret(namespace: string, name: string): Promise<void> {
    this.fault('deleteSecret');
    this.writes.push({ method: 'deleteSecret', name });
    this.secrets.delete(keyOf('Secret', namespace, name));
  }

  async recordEvent(
    kind: ResourceKind,
    object: { metadata: ObjectMeta },
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    this.events.push({
      kind,
      name: object.metadata.name,
      namespace: object.metadata.namespace,
      type,
      reason,
      message,
    });
  }

  // --- internals ---------------------------------------------------------------------------------

  private cached(): Map<string, AnyResource> {
    return this.cacheView ?? this.objects;
  }

  private stored(kind: ResourceKind, namespace: string | undefined, name: string): AnyResource {
    const stored = this.objects.get(keyOf(kind, namespace, name));
    if (!stored) throw new Error(`${kind} ${namespace ?? ''}/${name} does not exist`);
    return stored;
  }

  private writable(kind: ResourceKind, object: AnyResource, method: KubeMethod): AnyResource {
    this.fault(method);
    const { namespace, name, resourceVersion } = object.metadata;
    this.writes.push({ method, kind, name });
    const stored = this.objects.get(keyOf(kind, namespace, name));
    if (!stored) throw new KubeConflictError(`${kind} ${namespace ?? ''}/${name} is gone`);
    if (resourceVersion !== undefined && resourceVersion !== stored.metadata.resourceVersion)
      throw new KubeConflictError(
        `${kind} ${namespace ?? ''}/${name}: resourceVersion ${resourceVersion} is stale`,
      );
    return stored;
  }

  private bump<K extends ResourceKind>(stored: AnyResource): AllResources[K] {
    stored.metadata.resourceVersion = this.nextVersion();
    return structuredClone(stored) as AllResources[K];
  }

  private fault(method: KubeMethod): void {
    const fault = this.faults.find((f) => f.method === method);
    if (!fault) return;
    if (fault.skip > 0) {
      fault.skip -= 1;
      return;
    }
    this.faults.splice(this.faults.indexOf(fault), 1);
    throw fault.error;
  }

  private nextVersion(): string {
    return String(this.version++);
  }
}

function keyOf(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}
