import type { V1OwnerReference } from '@kubernetes/client-node';

/** What an owner reference needs to know about the owner. */
export interface OwnerIdentity {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; uid?: string };
}

/**
 * The controller owner reference to put on an object the operator creates for `owner` (a Token's Secret):
 * `controller: true` so there is exactly one managing owner, `blockOwnerDeletion: true` so a foreground
 * delete of the owner waits for it.
 */
export function controllerReference(owner: OwnerIdentity): V1OwnerReference {
  const { apiVersion, kind } = owner;
  const { name, uid } = owner.metadata ?? {};
  if (!apiVersion || !kind || !name || !uid) {
    throw new TypeError(
      'an owner reference needs the owner apiVersion, kind, metadata.name and metadata.uid',
    );
  }
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/** The reference of the object's managing controller, if it has one. */
export function controllerOf(object: {
  metadata?: { ownerReferences?: V1OwnerReference[] };
}): V1OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((reference) => reference.controller === true);
}

/** Whether `owner` (matched by uid) is the controller of `object`. */
export function isControlledBy(
  object: { metadata?: { ownerReferences?: V1OwnerReference[] } },
  owner: OwnerIdentity,
): boolean {
  const controller = controllerOf(object);
  return controller !== undefined && controller.uid === owner.metadata?.uid;
}

/**
 * The work-queue key of the object's controller when it is of `kind` in `group`, so an event on an owned
 * Secret enqueues its Token (an owner is always in the dependent's namespace, or cluster-scoped).
 */
export function controllerKey(
  object: { metadata?: { namespace?: string; ownerReferences?: V1OwnerReference[] } },
  owner: { group: string; kind: string },
): string | undefined {
  const controller = controllerOf(object);
  if (!controller || controller.kind !== owner.kind) return undefined;
  const group = controller.apiVersion.includes('/') ? controller.apiVersion.split('/')[0] : '';
  if (group !== owner.group) return undefined;
  const namespace = object.metadata?.namespace;
  return namespace ? `${namespace}/${controller.name}` : controller.name;
}
