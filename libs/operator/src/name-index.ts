import type { ObjectKey } from './managed-reconcile';
import { claimedNameOf, connectionOf } from './name-claims';
import type { ClaimedKind, ClaimedResources } from './resources';

/**
 * The cache index on the effective name (k8s.md §3.5 step 5): per kind and connection, which CRs claim a
 * name. The app keeps it from informer events (add/update → `upsert`, delete → `remove`), so a
 * name-conflict check reads the few CRs sharing one name instead of every CR of the kind.
 */
export class NameIndex {
  /** claim (kind, connection, name) → keys (`namespace/name`) of the CRs claiming it. */
  private readonly holders = new Map<string, Set<string>>();
  /** kind + key → the claim that CR holds now (a Role's `spec.name` can change). */
  private readonly claimOf = new Map<string, string>();

  /**
   * Records an added or changed CR. Returns the other CRs that shared its previous or its new name: which
   * of them owns the name may have changed, so the app requeues them.
   */
  upsert<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): ObjectKey[] {
    const key = keyOf(cr);
    const claim = claimOf(kind, connectionOf(cr), claimedNameOf(kind, cr));
    const previous = this.claimOf.get(`${kind}\0${key}`);
    if (previous === claim) return [];
    const affected = previous === undefined ? [] : this.release(previous, key);
    this.claimOf.set(`${kind}\0${key}`, claim);
    const holders = this.holders.get(claim) ?? new Set<string>();
    affected.push(...holders);
    holders.add(key);
    this.holders.set(claim, holders);
    return affected.map(parseKey);
  }

  /** Forgets a deleted CR; returns the CRs that shared its name (the next oldest now owns it). */
  remove<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): ObjectKey[] {
    const key = keyOf(cr);
    const previous = this.claimOf.get(`${kind}\0${key}`);
    if (previous === undefined) return [];
    this.claimOf.delete(`${kind}\0${key}`);
    return this.release(previous, key).map(parseKey);
  }

  /** Keys of the CRs (`cr` itself included, once indexed) claiming the same name on the same connection. */
  sharing<K extends ClaimedKind>(kind: K, cr: ClaimedResources[K]): ObjectKey[] {
    const claim = claimOf(kind, connectionOf(cr), claimedNameOf(kind, cr));
    return [...(this.holders.get(claim) ?? [])].map(parseKey);
  }

  /** Drops `key` from a claim; returns the keys left on it. */
  private release(claim: string, key: string): string[] {
    const holders = this.holders.get(claim);
    if (!holders) return [];
    holders.delete(key);
    if (holders.size === 0) this.holders.delete(claim);
    return [...holders];
  }
}

const claimOf = (kind: string, connection: string, name: string) => `${kind}\0${connection}\0${name}`;
const keyOf = (cr: { metadata: { namespace?: string; name: string } }) =>
  `${cr.metadata.namespace ?? ''}/${cr.metadata.name}`;

function parseKey(key: string): ObjectKey {
  const slash = key.indexOf('/');
  const namespace = key.slice(0, slash);
  return { ...(namespace ? { namespace } : {}), name: key.slice(slash + 1) };
}
