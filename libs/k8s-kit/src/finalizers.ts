import type { KubernetesObject } from '@kubernetes/client-node';
import { mergePatchObject, type CustomObjectPatchApi } from './custom-object-patches';
import type { CustomObjectRef } from './custom-resource-ref';

/** A merge patch that sets the whole finalizer list, guarded by the resourceVersion it was computed from. */
export interface FinalizerPatch {
  metadata: { resourceVersion: string; finalizers: string[] | null };
}

export function hasFinalizer(object: KubernetesObject, finalizer: string): boolean {
  return (object.metadata?.finalizers ?? []).includes(finalizer);
}

/**
 * The patch that adds `finalizer`, or `undefined` when it is already there. A merge patch replaces lists
 * whole, so the resourceVersion precondition is what keeps another writer's finalizer from being lost.
 */
export function addFinalizerPatch(object: KubernetesObject, finalizer: string): FinalizerPatch | undefined {
  if (hasFinalizer(object, finalizer)) return undefined;
  return finalizerPatch(object, [...(object.metadata?.finalizers ?? []), finalizer]);
}

/** The patch that removes `finalizer`, or `undefined` when it is not there. */
export function removeFinalizerPatch(
  object: KubernetesObject,
  finalizer: string,
): FinalizerPatch | undefined {
  if (!hasFinalizer(object, finalizer)) return undefined;
  const rest = (object.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
  return finalizerPatch(object, rest);
}

/**
 * Adds the finalizer to a custom object (k8s.md §3.5 step 4). Returns the object as stored afterwards,
 * or the given one when nothing had to change. A 409 (stale object) propagates: requeue and re-read.
 */
export async function ensureFinalizer(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  object: KubernetesObject,
  finalizer: string,
): Promise<KubernetesObject> {
  const patch = addFinalizerPatch(object, finalizer);
  return patch ? mergePatchObject(api, ref, patch) : object;
}

/**
 * Removes the finalizer; when it was the last one on a deleting object, the apiserver deletes the object
 * and answers with its final state.
 */
export async function removeFinalizer(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  object: KubernetesObject,
  finalizer: string,
): Promise<KubernetesObject> {
  const patch = removeFinalizerPatch(object, finalizer);
  return patch ? mergePatchObject(api, ref, patch) : object;
}

function finalizerPatch(object: KubernetesObject, finalizers: string[]): FinalizerPatch {
  const resourceVersion = object.metadata?.resourceVersion;
  if (!resourceVersion)
    throw new TypeError('a finalizer patch needs the object as read, with metadata.resourceVersion');
  return { metadata: { resourceVersion, finalizers: finalizers.length > 0 ? finalizers : null } };
}
