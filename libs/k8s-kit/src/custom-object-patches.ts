import {
  PatchStrategy,
  setHeaderOptions,
  type CustomObjectsApi,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { CustomObjectRef } from './custom-resource-ref';

/** The part of `CustomObjectsApi` the patch helpers use (a port a test can fake). */
export type CustomObjectPatchApi = Pick<
  CustomObjectsApi,
  | 'patchNamespacedCustomObject'
  | 'patchClusterCustomObject'
  | 'patchNamespacedCustomObjectStatus'
  | 'patchClusterCustomObjectStatus'
>;

/** One RFC 6902 operation. `test` makes a JSON patch conditional on the current value. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Where a patch goes: the object itself, or its status subresource. */
type Endpoint = 'object' | 'status';

/**
 * Merge-patches the status subresource with `{metadata: {resourceVersion}, status}` (k8s.md §0 "writes"):
 * the resourceVersion turns the patch into a precondition, so a status computed from a stale read fails
 * with 409 instead of overwriting a newer one. Pass `resourceVersion: undefined` for a last-writer-wins patch.
 */
export function mergePatchStatus(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  status: unknown,
  resourceVersion: string | undefined,
): Promise<KubernetesObject> {
  const body = resourceVersion === undefined ? { status } : { metadata: { resourceVersion }, status };
  return patch(api, ref, 'status', body, PatchStrategy.MergePatch);
}

/** Applies RFC 6902 operations to the status subresource (paths start at the object root: `/status/...`). */
export function jsonPatchStatus(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  operations: readonly JsonPatchOperation[],
): Promise<KubernetesObject> {
  return patch(api, ref, 'status', operations, PatchStrategy.JsonPatch);
}

/** Merge-patches the object itself (metadata, spec); include `metadata.resourceVersion` for a precondition. */
export function mergePatchObject(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  body: object,
): Promise<KubernetesObject> {
  return patch(api, ref, 'object', body, PatchStrategy.MergePatch);
}

async function patch(
  api: CustomObjectPatchApi,
  ref: CustomObjectRef,
  endpoint: Endpoint,
  body: unknown,
  contentType: string,
): Promise<KubernetesObject> {
  // The generated patch methods pick JSON Patch as the content type unless told (client-node issues #529, #862).
  const options = setHeaderOptions('Content-Type', contentType);
  const { group, version, plural, name, namespace } = ref;
  if (namespace !== undefined) {
    const params = { group, version, plural, name, namespace, body };
    return endpoint === 'status'
      ? api.patchNamespacedCustomObjectStatus(params, options)
      : api.patchNamespacedCustomObject(params, options);
  }
  const params = { group, version, plural, name, body };
  return endpoint === 'status'
    ? api.patchClusterCustomObjectStatus(params, options)
    : api.patchClusterCustomObject(params, options);
}
