import { apiVersionOf, type ResourceType } from './resource-types';

/**
 * Discovery documents (`/api`, `/api/v1`, `/apis`, `/apis/{group}`, `/apis/{group}/{version}`) built from
 * the registered types; client-node's `KubernetesObjectApi` resolves plurals and scope through them.
 */
export function discoveryDocument(path: string, types: readonly ResourceType[]): unknown | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  if (path === '/version')
    return { major: '1', minor: '31', gitVersion: 'v1.31.0-quarry-fake', platform: 'linux/amd64' };
  if (segments[0] === 'api' && segments.length === 1) {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
  }
  if (segments[0] === 'api' && segments.length === 2) return resourceList('', segments[1], types);
  if (segments[0] === 'apis' && segments.length === 1) {
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: groupNames(types).map((g) => apiGroup(g, types)),
    };
  }
  if (segments[0] === 'apis' && segments.length === 2) {
    return groupNames(types).includes(segments[1])
      ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(segments[1], types) }
      : undefined;
  }
  if (segments[0] === 'apis' && segments.length === 3) return resourceList(segments[1], segments[2], types);
  return undefined;
}

function groupNames(types: readonly ResourceType[]): string[] {
  return [...new Set(types.filter((t) => t.group !== '').map((t) => t.group))].sort();
}

function apiGroup(group: string, types: readonly ResourceType[]) {
  const versions = [...new Set(types.filter((t) => t.group === group).map((t) => t.version))].map(
    (version) => ({
      groupVersion: `${group}/${version}`,
      version,
    }),
  );
  return { name: group, versions, preferredVersion: versions[0] };
}

function resourceList(group: string, version: string, types: readonly ResourceType[]) {
  const inVersion = types.filter((t) => t.group === group && t.version === version);
  if (inVersion.length === 0) return undefined;
  const resources = inVersion.flatMap((type) => {
    const main = {
      name: type.plural,
      singularName: type.singular ?? type.kind.toLowerCase(),
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      ...(type.shortNames ? { shortNames: type.shortNames } : {}),
      ...(type.categories ? { categories: type.categories } : {}),
    };
    if (!type.statusSubresource) return [main];
    const status = {
      name: `${type.plural}/status`,
      singularName: '',
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: ['get', 'patch', 'update'],
    };
    return [main, status];
  });
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(inVersion[0]), resources };
}
