/** Which custom resource type: the coordinates `CustomObjectsApi` calls take. */
export interface CustomResourceType {
  group: string;
  version: string;
  plural: string;
}

/** One custom object: its type plus name, and namespace unless the type is cluster-scoped. */
export interface CustomObjectRef extends CustomResourceType {
  name: string;
  namespace?: string;
}

/**
 * The collection path an informer lists and watches: `/apis/{group}/{version}[/namespaces/{ns}]/{plural}`,
 * or `/api/v1/...` for the core group (`group: ''`). Without a namespace it spans all namespaces.
 */
export function collectionPath(type: CustomResourceType, namespace?: string): string {
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  const scope = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${type.plural}`;
}
