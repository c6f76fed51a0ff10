/** The API group every Quarry custom resource lives in, and the names kubectl knows them by. */

export const API_GROUP = 'quarry.dev';
export const API_VERSION = 'v1alpha1';
export const API_GROUP_VERSION = `${API_GROUP}/${API_VERSION}` as const;

/** `kubectl get quarry` lists every Quarry resource in a namespace. */
export const CATEGORY = 'quarry';

/** How one kind is named and scoped; the CRD's `spec.names` and `spec.scope` come from this. */
export interface KindNames {
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
}

/** `<plural>.quarry.dev`: the CRD's own name, and the file name under `crds/`. */
export function crdName(names: KindNames): string {
  return `${names.plural}.${API_GROUP}`;
}
