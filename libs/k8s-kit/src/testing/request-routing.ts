import { statusErrors } from './api-status';
import type { Subresource } from './resource-writes';
import type { ResourceType } from './resource-types';

/** What a resource URL names: the type, and the namespace, name and subresource when present. */
export interface ResourcePath {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource: Subresource;
}

/** Maps `/api/v1/...` and `/apis/{group}/{version}/...` to a resource, namespace, name and subresource. */
export function resolveResourcePath(path: string, types: readonly ResourceType[]): ResourcePath {
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 2) {
    [group, version, rest] = ['', segments[1], segments.slice(2)];
  } else if (segments[0] === 'apis' && segments.length >= 3) {
    [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
  } else {
    throw statusErrors.pageNotFound(path);
  }
  const find = (plural: string) =>
    types.find((t) => t.group === group && t.version === version && t.plural === plural);
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && find(rest[2])?.namespaced) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  const type = find(plural);
  if (!type || extra.length > 0) throw statusErrors.pageNotFound(path);
  if (subresource !== undefined && !(subresource === 'status' && type.statusSubresource))
    throw statusErrors.pageNotFound(path);
  if (type.namespaced && namespace === undefined && name !== undefined) throw statusErrors.pageNotFound(path);
  return { type, namespace, name, subresource: subresource as Subresource };
}
