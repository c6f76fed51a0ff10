/** The work-queue key of an object: `namespace/name`, or `name` for a cluster-scoped one (client-go's). */
export function objectKey(object: { metadata?: { name?: string; namespace?: string } }): string {
  const { name = '', namespace } = object.metadata ?? {};
  return namespace ? `${namespace}/${name}` : name;
}

export function parseObjectKey(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
