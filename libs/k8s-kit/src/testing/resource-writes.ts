import { randomUUID } from 'node:crypto';
import { ApiStatusError, statusErrors } from './api-status';
import { applyJsonPatch, JsonPatchError } from './json-patch';
import { applyMergePatch, isPlainObject } from './json-merge-patch';
import type { ObjectStore } from './object-store';
import {
  checkTypeMeta,
  isBuiltIn,
  keepServerOwnedMeta,
  nowSeconds,
  prepareBuiltIn,
  requireObject,
  sameIgnoringResourceVersion,
  specChanged,
} from './object-rules';
import {
  apiVersionOf,
  typeKeyOf,
  type AdmissionContext,
  type KubeObject,
  type ResourceType,
} from './resource-types';

export type Subresource = 'status' | undefined;

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  preconditions?: { resourceVersion?: string; uid?: string };
}

export interface PatchRequest {
  contentType: string;
  body: unknown;
  fieldManager?: string;
}

export interface DeleteOutcome {
  object: KubeObject;
  /** False while finalizers hold the object (it only got a deletionTimestamp). */
  removed: boolean;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The apiserver's write rules over the fake's store: create, update, patch and delete with resourceVersion
 * preconditions, `generation`, the status subresource, finalizers, admission and (optionally) the garbage
 * collector's owner-reference cascade. Every method either returns the stored result or throws an
 * `ApiStatusError` the HTTP layer writes as a `Status`.
 */
export class ResourceWrites {
  /** Propagation policies of objects waiting for their finalizers, applied when they finally go. */
  private readonly pendingPolicies = new Map<string, PropagationPolicy>();

  constructor(
    private readonly store: ObjectStore,
    private readonly typeOf: (apiVersion: string, kind: string) => ResourceType | undefined,
    private readonly garbageCollection: boolean,
  ) {}

  create(type: ResourceType, namespace: string | undefined, body: unknown): KubeObject {
    const candidate = requireObject(body);
    checkTypeMeta(type, candidate);
    const meta = { ...(candidate.metadata ?? {}) };
    if (type.namespaced) {
      if (meta.namespace && meta.namespace !== namespace) {
        throw statusErrors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace;
    } else {
      delete meta.namespace;
    }
    if (!meta.name && meta.generateName) meta.name = this.generateName(type, namespace, meta.generateName);
    const name = meta.name;
    if (!name)
      throw statusErrors.invalid(type, '', 'metadata.name: Required value: name or generateName is required');
    if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
      throw statusErrors.invalid(
        type,
        name,
        `metadata.name: Invalid value: "${name}": must be a lowercase RFC 1123 subdomain`,
      );
    }
    if (this.store.get(typeKeyOf(type), namespace, name)) throw statusErrors.alreadyExists(type, name);

    let object: KubeObject = {
      ...candidate,
      apiVersion: apiVersionOf(type),
      kind: type.kind,
      metadata: meta,
    };
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (type.statusSubresource) delete object.status;
    object = prepareBuiltIn(type, object);
    object = this.admit(type, object, undefined, { operation: 'CREATE' });
    object.metadata = {
      ...object.metadata,
      name,
      namespace: type.namespaced ? namespace : undefined,
      uid: randomUUID(),
      generation: 1,
      creationTimestamp: nowSeconds(),
      resourceVersion: String(this.store.nextRevision()),
    };
    if (!type.namespaced) delete object.metadata.namespace;
    this.store.put(typeKeyOf(type), object, undefined);
    return object;
  }

  /** PUT: the body must carry the current resourceVersion (custom resources require one; built-ins may omit it). */
  replace(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    subresource: Subresource,
  ): KubeObject {
    const old = this.existing(type, namespace, name);
    const candidate = requireObject(body);
    checkTypeMeta(type, candidate);
    if (!candidate.metadata?.resourceVersion && !isBuiltIn(type)) {
      throw statusErrors.invalid(
        type,
        name,
        'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      );
    }
    return this.commitUpdate(type, old, candidate, subresource);
  }

  patch(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    request: PatchRequest,
    subresource: Subresource,
  ): KubeObject {
    const old = this.store.get(typeKeyOf(type), namespace, name);
    const strategy = request.contentType.split(';')[0].trim();
    if (strategy === 'application/apply-patch+yaml')
      return this.apply(type, namespace, name, old, request, subresource);
    if (!old) throw statusErrors.notFound(type, name);
    let candidate: unknown;
    switch (strategy) {
      case 'application/merge-patch+json':
        if (!isPlainObject(request.body))
          throw statusErrors.badRequest('a merge patch must be a JSON object');
        candidate = applyMergePatch(old, request.body);
        break;
      case 'application/json-patch+json':
        try {
          candidate = applyJsonPatch(old, request.body);
        } catch (error) {
          if (error instanceof JsonPatchError) throw statusErrors.invalid(type, name, error.message);
          throw error;
        }
        break;
      default:
        // Strategic merge patch needs Go struct tags the fake does not have; refusing it keeps tests honest.
        throw statusErrors.unsupportedMediaType(strategy);
    }
    return this.commitUpdate(type, old, requireObject(candidate), subresource);
  }

  delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions,
  ): DeleteOutcome {
    const old = this.existing(type, namespace, name);
    const meta = old.metadata!;
    const preconditions = options.preconditions ?? {};
    if (preconditions.uid && preconditions.uid !== meta.uid) {
      throw new ApiStatusError(
        409,
        'Conflict',
        `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid}`,
      );
    }
    if (preconditions.resourceVersion && preconditions.resourceVersion !== meta.resourceVersion) {
      throw new ApiStatusError(
        409,
        'Conflict',
        `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
      );
    }
    if (meta.deletionTimestamp) return { object: old, removed: false };
    if ((meta.finalizers ?? []).length > 0) {
      // Graceful deletion: the object stays, marked, until its finalizers are gone. Marking it bumps the
      // generation, as the apiserver does, so controllers that compare observedGeneration notice.
      const marked: KubeObject = structuredClone(old);
      marked.metadata = {
        ...marked.metadata,
        deletionTimestamp: nowSeconds(),
        deletionGracePeriodSeconds: 0,
        generation: (meta.generation ?? 0) + 1,
        resourceVersion: String(this.store.nextRevision()),
      };
      this.store.put(typeKeyOf(type), marked, old);
      if (options.propagationPolicy) this.pendingPolicies.set(meta.uid!, options.propagationPolicy);
      return { object: marked, removed: false };
    }
    return { object: this.removeNow(type, old, options.propagationPolicy), removed: true };
  }

  private apply(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    old: KubeObject | undefined,
    request: PatchRequest,
    subresource: Subresource,
  ): KubeObject {
    if (!request.fieldManager) {
      throw statusErrors.badRequest(
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
    }
    const applied = requireObject(request.body);
    if (!applied.apiVersion || !applied.kind) {
      throw statusErrors.badRequest('apiVersion and kind must be set in an apply patch');
    }
    if (applied.metadata?.name !== name) {
      throw statusErrors.badRequest(
        `the name of the object (${applied.metadata?.name}) does not match the name on the URL (${name})`,
      );
    }
    if (!old) {
      if (subresource === 'status') throw statusErrors.notFound(type, name);
      return this.create(type, namespace, applied);
    }
    // Without managedFields the fake cannot know which fields a manager gave up, so apply merges the
    // applied configuration over the live object (fields omitted now but applied earlier stay).
    // A resourceVersion in the applied configuration stays in the merge and acts as a precondition.
    const candidate = requireObject(applyMergePatch(old, applied));
    return this.commitUpdate(type, old, candidate, subresource);
  }

  private commitUpdate(
    type: ResourceType,
    old: KubeObject,
    candidate: KubeObject,
    subresource: Subresource,
  ): KubeObject {
    const oldMeta = old.metadata!;
    const name = oldMeta.name!;
    const requested = candidate.metadata ?? {};
    if (requested.resourceVersion && requested.resourceVersion !== oldMeta.resourceVersion) {
      throw statusErrors.conflict(type, name);
    }
    if (requested.name !== undefined && requested.name !== name) {
      throw statusErrors.badRequest(
        `the name of the object (${requested.name}) does not match the name on the URL (${name})`,
      );
    }

    let next: KubeObject;
    if (subresource === 'status') {
      // The status endpoint takes nothing but status: spec and metadata stay as stored.
      next = structuredClone(old);
      if (candidate.status === undefined) delete next.status;
      else next.status = candidate.status;
    } else {
      next = structuredClone(candidate);
      if (type.statusSubresource) {
        if (old.status === undefined) delete next.status;
        else next.status = structuredClone(old.status);
      }
    }
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    next.metadata = { ...keepServerOwnedMeta(next.metadata ?? {}, oldMeta) };

    const added = (next.metadata.finalizers ?? []).filter((f) => !(oldMeta.finalizers ?? []).includes(f));
    if (oldMeta.deletionTimestamp && added.length > 0) {
      throw statusErrors.invalid(
        type,
        name,
        `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
      );
    }
    next = prepareBuiltIn(type, next);
    next = this.admit(type, next, old, { operation: 'UPDATE', subresource });
    next.metadata = keepServerOwnedMeta(next.metadata ?? {}, oldMeta);

    if (sameIgnoringResourceVersion(next, old)) return old; // a no-op write changes nothing and tells no watcher
    if (specChanged(type, old, next)) next.metadata.generation = (oldMeta.generation ?? 0) + 1;
    next.metadata.resourceVersion = String(this.store.nextRevision());

    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      const policy = this.pendingPolicies.get(oldMeta.uid!);
      this.pendingPolicies.delete(oldMeta.uid!);
      return this.removeNow(type, next, policy, true);
    }
    this.store.put(typeKeyOf(type), next, old);
    return next;
  }

  /** Removes the object (a DELETED event) and, with garbage collection on, cascades to its dependents. */
  private removeNow(
    type: ResourceType,
    object: KubeObject,
    policy: PropagationPolicy | undefined,
    revisionTaken = false,
  ): KubeObject {
    const finalState: KubeObject = structuredClone(object);
    if (!revisionTaken) {
      finalState.metadata = { ...finalState.metadata, resourceVersion: String(this.store.nextRevision()) };
    }
    this.store.remove(typeKeyOf(type), finalState);
    if (this.garbageCollection) this.collectDependents(finalState.metadata!.uid!, policy ?? 'Background');
    return finalState;
  }

  private collectDependents(ownerUid: string, policy: PropagationPolicy): void {
    for (const { object } of [...this.store.all()]) {
      const references = object.metadata?.ownerReferences ?? [];
      if (!references.some((ref) => ref.uid === ownerUid)) continue;
      const dependentType = this.typeOf(object.apiVersion!, object.kind!);
      if (!dependentType) continue;
      const { namespace, name } = object.metadata!;
      if (policy === 'Orphan') {
        const orphan = structuredClone(object);
        orphan.metadata!.ownerReferences = references.filter((ref) => ref.uid !== ownerUid);
        this.commitUpdate(dependentType, object, orphan, undefined);
      } else {
        // The garbage collector deletes dependents in the background; the fake does it at once.
        this.delete(dependentType, namespace, name!, { propagationPolicy: 'Background' });
      }
    }
  }

  private admit(
    type: ResourceType,
    object: KubeObject,
    old: KubeObject | undefined,
    context: AdmissionContext,
  ): KubeObject {
    if (!type.admit) return object;
    const result = type.admit(structuredClone(object), old && structuredClone(old), context);
    if (result.ok) return structuredClone(result.object) as KubeObject;
    const reason = result.reason ?? ApiStatusError.forCode(result.status, '').reason;
    const details = { ...result.details, ...(result.causes ? { causes: result.causes } : {}) };
    throw new ApiStatusError(
      result.status,
      reason,
      result.message,
      Object.keys(details).length > 0 ? details : undefined,
    );
  }

  private existing(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const found = this.store.get(typeKeyOf(type), namespace, name);
    if (!found) throw statusErrors.notFound(type, name);
    return found;
  }

  private generateName(type: ResourceType, namespace: string | undefined, prefix: string): string {
    for (;;) {
      let suffix = '';
      for (let i = 0; i < 5; i++)
        suffix += GENERATE_NAME_ALPHABET[Math.floor(Math.random() * GENERATE_NAME_ALPHABET.length)];
      const name = `${prefix}${suffix}`;
      if (!this.store.get(typeKeyOf(type), namespace, name)) return name;
    }
  }
}
