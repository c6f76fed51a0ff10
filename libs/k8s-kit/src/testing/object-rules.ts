import { statusErrors } from './api-status';
import { isPlainObject } from './json-merge-patch';
import {
  apiVersionOf,
  BUILT_IN_RESOURCES,
  typeKeyOf,
  type KubeObject,
  type ResourceType,
} from './resource-types';

/**
 * Pure rules the apiserver applies to every write: what a body must look like, which metadata the server
 * owns, when `generation` moves, when a write is a no-op, and what it does to a few built-ins.
 */

export function requireObject(body: unknown): KubeObject {
  if (!isPlainObject(body)) throw statusErrors.badRequest('the request body must be a JSON object');
  const object = body as KubeObject;
  if (object.metadata !== undefined && !isPlainObject(object.metadata)) {
    throw statusErrors.badRequest('metadata must be an object');
  }
  return object;
}

export function checkTypeMeta(type: ResourceType, object: KubeObject): void {
  const apiVersion = apiVersionOf(type);
  if ((object.apiVersion && object.apiVersion !== apiVersion) || (object.kind && object.kind !== type.kind)) {
    throw statusErrors.badRequest(
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersion}) or kind ${object.kind} is not ${type.kind}`,
    );
  }
}

export function isBuiltIn(type: ResourceType): boolean {
  return BUILT_IN_RESOURCES.some((builtIn) => typeKeyOf(builtIn) === typeKeyOf(type));
}

/** Fields a client cannot change: identity, timestamps, generation (the server computes it). */
export function keepServerOwnedMeta(
  requested: NonNullable<KubeObject['metadata']>,
  old: NonNullable<KubeObject['metadata']>,
) {
  const meta = { ...requested };
  for (const key of [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'resourceVersion',
  ] as const) {
    if (old[key] === undefined) delete meta[key];
    else meta[key] = old[key] as never;
  }
  return meta;
}

/**
 * Whether a write bumps `generation`: any change outside metadata (and outside status when status has its
 * own subresource), as for custom resources.
 */
export function specChanged(type: ResourceType, old: KubeObject, next: KubeObject): boolean {
  const ignored = new Set(['metadata', 'apiVersion', 'kind', ...(type.statusSubresource ? ['status'] : [])]);
  const keys = new Set([...Object.keys(old), ...Object.keys(next)].filter((key) => !ignored.has(key)));
  for (const key of keys) {
    if (JSON.stringify(old[key]) !== JSON.stringify(next[key])) return true;
  }
  return false;
}

export function sameIgnoringResourceVersion(a: KubeObject, b: KubeObject): boolean {
  return (
    canonical({ ...a, metadata: { ...a.metadata, resourceVersion: '' } }) ===
    canonical({ ...b, metadata: { ...b.metadata, resourceVersion: '' } })
  );
}

/** JSON with sorted keys, so key order does not make two equal objects differ. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isPlainObject(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

/** What the apiserver does to a few built-ins on every write (Secret `stringData`, Namespace phase). */
export function prepareBuiltIn(type: ResourceType, object: KubeObject): KubeObject {
  if (!type.group && type.kind === 'Secret') {
    const secret = { ...object };
    secret.type ??= 'Opaque';
    if (isPlainObject(secret.stringData)) {
      const data: Record<string, string> = { ...((secret.data as Record<string, string>) ?? {}) };
      for (const [key, value] of Object.entries(secret.stringData))
        data[key] = Buffer.from(String(value)).toString('base64');
      secret.data = data;
      delete secret.stringData;
    }
    return secret;
  }
  if (!type.group && type.kind === 'Namespace' && object.status === undefined) {
    return { ...object, status: { phase: 'Active' } };
  }
  return object;
}

/** RFC 3339 with whole seconds, as metav1.Time serialises. */
export function nowSeconds(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
