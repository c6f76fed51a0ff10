import { datasetNameOf } from './dataset-desired';
import type { ClaimedKind, ClaimedResources, DatasetResource, ObjectMeta, RoleResource } from './resources';

import { roleNameOf } from './role-desired';

interface Claimant {
  metadata: ObjectMeta;
  spec: { connectionRef?: { name: string } };
}

/**
 * Strimzi's conflict rule: when several CRs name the same external object on the same connection, the
 * oldest (creation time, then namespace/name) owns it and the others get `Ready=False ResourceConflict`.
 * Returns the CR that owns the name when it is not `cr`, else `undefined`.
 */
export function olderClaimant<C extends Claimant>(
  cr: C,
  peers: readonly C[],
  nameOf: (c: C) => string,
  sameName: (a: string, b: string) => boolean = (a, b) => a === b,
): C | undefined {
  const name = nameOf(cr);
  const connection = connectionOf(cr);
  const rivals = peers.filter(
    (p) => p.metadata.uid !== cr.metadata.uid && connectionOf(p) === connection && sameName(nameOf(p), name),
  );
  const older = rivals.filter((p) => compareAge(p, cr) < 0);
  return older.sort(compareAge)[0];
}

export const connectionOf = (c: Claimant): string => c.spec.connectionRef?.name || 'default';

function compareAge(a: Claimant, b: Claimant): number {
  const at = a.metadata.creationTimestamp ?? '';
  const bt = b.metadata.creationTimestamp ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  const ak = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
  const bk = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  return ak < bk ? -1 : ak > bk ? 1 : 0;
}

export const describe = (c: Claimant): string =>
  c.metadata.namespace ? `${c.metadata.namespace}/${c.metadata.name}` : c.metadata.name;

/**
 * The effective name a CR claims, as compared (k8s.md §3.5 step 5): dataset names exactly, role names
 * ignoring case (Quarry keeps them unique that way).
 */
export function claimedNameOf<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): string {
  return kind === 'Dataset'
    ? datasetNameOf(cr as DatasetResource)
    : roleNameOf(cr as RoleResource).toLowerCase();
}
