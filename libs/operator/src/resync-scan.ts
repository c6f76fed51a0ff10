import { findCondition, READY, SYNCED } from './conditions';
import type { Connection } from './connection-resolver';
import { ANNOTATIONS, FINALIZER } from './constants';
import { datasetNameOf, desiredDataset, diffDataset, isInSync } from './dataset-desired';
import type { KubeObjects } from './kube-objects.port';
import type { ObjectKey } from './managed-reconcile';
import type { ApiDataset, ApiRole, ApiToken, ManagementApi } from './management-api.port';
import { connectionOf } from './name-claims';
import type { AllResources, DatasetResource, ManagedKind, RoleResource, TokenResource } from './resources';
import { desiredRole, diffRole } from './role-desired';
import { roleIdOf } from './role-reconciler';
import { tokenIdOf } from './token-reconciler';

/** A key the resync hands to a work queue, and why (for logs and tests). */
export interface ResyncTarget {
  kind: ManagedKind;
  key: ObjectKey;
  why: string;
}

/** What one connection's resync did: the lists it made and the keys it found worth a reconcile. */
export interface ResyncReport {
  listed: ManagedKind[];
  targets: ResyncTarget[];
  /** Lists that failed: every CR of that kind on the connection is a target instead. */
  failures: { kind: ManagedKind; error: string }[];
}

type Listed = {
  Dataset: Map<string, ApiDataset>;
  Role: Map<string, ApiRole>;
  Token: Map<string, ApiToken>;
};

/**
 * The full resync of one connection (k8s.md §3.5): one LIST per kind (`GET /v2/datasets`, `/v2/rbac/roles`,
 * `/v2/tokens`) compared with the CRs of that connection, instead of one GET per CR. A CR is a target when
 * its own status says it is not settled (new, changed, failing, not Ready, being deleted) or when Quarry's
 * object is missing or differs from what the CR asks for; every other CR costs no further call.
 *
 * `datasets` is the connection probe's answer (the probe is that very LIST). A kind none of whose CRs
 * is settled is not listed: each of its CRs is a target anyway.
 */
export async function resyncConnection(
  connection: Connection,
  api: ManagementApi,
  kube: KubeObjects,
  datasets: ApiDataset[],
): Promise<ResyncReport> {
  const report: ResyncReport = { listed: ['Dataset'], targets: [], failures: [] };
  const crs = {
    Dataset: await crsOf(kube, 'Dataset', connection.name),
    Role: await crsOf(kube, 'Role', connection.name),
    Token: await crsOf(kube, 'Token', connection.name),
  };
  const settled = {
    Dataset: [] as DatasetResource[],
    Role: [] as RoleResource[],
    Token: [] as TokenResource[],
  };
  const target = (kind: ManagedKind, cr: { metadata: { namespace?: string; name: string } }, why: string) =>
    report.targets.push({ kind, key: { namespace: cr.metadata.namespace, name: cr.metadata.name }, why });

  for (const cr of crs.Dataset) {
    const why = unsettled(cr, ['Available', 'ImmutableFieldChanged']);
    if (why) target('Dataset', cr, why);
    else settled.Dataset.push(cr);
  }
  for (const kind of ['Role', 'Token'] as const) {
    for (const cr of crs[kind]) {
      const why = unsettled(cr, ['Available']);
      if (why) target(kind, cr, why);
      else (settled[kind] as AllResources[typeof kind][]).push(cr);
    }
  }

  const listed: Partial<Listed> = { Dataset: new Map(datasets.map((d) => [d.name, d])) };
  const lists = {
    Role: async () => new Map((await api.listRoles()).map((r) => [r.id, r])),
    Token: async () => new Map((await api.listTokens()).map((t) => [t.id, t])),
  };
  for (const kind of ['Role', 'Token'] as const) {
    if (settled[kind].length === 0) continue;
    try {
      (listed as Record<string, unknown>)[kind] = await lists[kind]();
      report.listed.push(kind);
    } catch (err) {
      // Cannot compare: let each CR find out on its own (the old N GETs), and say why in its status.
      const error = err instanceof Error ? err.message : String(err);
      report.failures.push({ kind, error });
      for (const cr of settled[kind]) target(kind, cr, `listing failed: ${error}`);
      settled[kind] = [];
    }
  }

  for (const cr of settled.Dataset) {
    const why = datasetDrift(cr, listed.Dataset!, connection);
    if (why) target('Dataset', cr, why);
  }
  for (const cr of settled.Role) {
    const why = roleDrift(cr, listed.Role!);
    if (why) target('Role', cr, why);
  }
  for (const cr of settled.Token) {
    const why = tokenDrift(cr, listed.Token!);
    if (why) target('Token', cr, why);
  }
  return report;
}

/** Every CR of `kind` that uses the connection, except paused ones (they make no calls at all). */
async function crsOf<K extends ManagedKind>(kube: KubeObjects, kind: K, connection: string) {
  return (await kube.list(kind)).filter(
    (cr) => connectionOf(cr) === connection && cr.metadata.annotations?.[ANNOTATIONS.paused] !== 'true',
  );
}

/**
 * Why a CR needs a reconcile whatever Quarry says, read from its own metadata and status; `undefined` when
 * its last reconcile finished this generation with `Synced=True` and a Ready reason in `settledReasons`.
 */
export function unsettled(
  cr: AllResources[ManagedKind],
  settledReasons: readonly string[],
): string | undefined {
  const meta = cr.metadata;
  if (meta.deletionTimestamp) return 'being deleted';
  if (!meta.finalizers?.includes(FINALIZER)) return 'not reconciled yet';
  if (meta.annotations?.[ANNOTATIONS.createPending]) return 'a create is pending';
  const status = cr.status;
  if (status?.observedGeneration !== meta.generation) return 'the spec changed since the last sync';
  const synced = findCondition(status?.conditions, SYNCED);
  if (synced?.status !== 'True') return `Synced is ${synced?.reason ?? 'missing'}`;
  const ready = findCondition(status?.conditions, READY);
  if (!ready || !settledReasons.includes(ready.reason)) return `Ready is ${ready?.reason ?? 'missing'}`;
  return undefined;
}

const readyReason = (cr: AllResources[ManagedKind]) => findCondition(cr.status?.conditions, READY)?.reason;

/** A settled Dataset against the listed datasets. */
export function datasetDrift(
  cr: DatasetResource,
  listed: ReadonlyMap<string, ApiDataset>,
  connection: Pick<Connection, 'defaultRegion'>,
): string | undefined {
  const observed = listed.get(datasetNameOf(cr));
  if (!observed) return 'missing in Quarry';
  const diff = diffDataset(desiredDataset(cr, connection), observed);
  const immutable = diff.immutable.length > 0;
  // A kind or region difference is reported, never repaired: nothing to do while the CR says so.
  if (immutable !== (readyReason(cr) === 'ImmutableFieldChanged'))
    return immutable ? 'kind or region differs in Quarry' : 'kind and region agree again';
  if (!immutable && !isInSync(diff)) return 'drifted in Quarry';
  return undefined;
}

/** A settled Role against the listed roles (by id). */
export function roleDrift(cr: RoleResource, listed: ReadonlyMap<string, ApiRole>): string | undefined {
  const id = roleIdOf(cr);
  if (!id) return 'no role id recorded';
  const observed = listed.get(id);
  if (!observed) return 'missing in Quarry';
  const differs = diffRole(desiredRole(cr), observed);
  return differs.length ? `drifted in Quarry (${differs.join(', ')})` : undefined;
}

/**
 * A settled Token against the listed tokens (by id). Tokens cannot be edited in Quarry, so only a missing
 * one (deleted, or expired: the list hides those) is drift; rotation deadlines are the reconciler's own
 * timed requeues, and a lost Secret arrives as a Secret event.
 */
export function tokenDrift(cr: TokenResource, listed: ReadonlyMap<string, ApiToken>): string | undefined {
  const id = tokenIdOf(cr);
  if (!id) return 'no token id recorded';
  return listed.has(id) ? undefined : 'missing in Quarry';
}
