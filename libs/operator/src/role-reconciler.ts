import { ANNOTATIONS } from './constants';
import {
  available,
  ManagedReconciler,
  notReady,
  type KindHandler,
  type ReconcileContext,
  type ReconcileDeps,
  type SyncOutcome,
} from './managed-reconcile';
import { isManagementError, orMissing, type ApiRole, type RoleBody } from './management-api.port';
import { describe, olderClaimant } from './name-claims';
import { desiredRole, diffRole, roleNameOf, sameRoleName } from './role-desired';

type Ctx = ReconcileContext<'Role'>;

/** The role id this CR holds: the annotation (which users may pre-set to adopt) wins over status. */
export function roleIdOf(cr: Ctx['cr']): string | undefined {
  return cr.metadata.annotations?.[ANNOTATIONS.externalId] || cr.status?.roleId || undefined;
}

/**
 * Role ↔ `/v2/rbac/roles/{id}` (k8s.md §3.3). Ids are server-made, so creation is guarded: set
 * `create-pending`, POST, then write the id and clear the mark in one patch. A restart that finds the mark
 * without an id adopts the role with the CR's name (Quarry keeps role names unique ignoring case).
 */
export class RoleHandler implements KindHandler<'Role'> {
  readonly kind = 'Role';
  readonly defaultDeletionPolicy = 'Delete';

  async check(ctx: Ctx) {
    const owner = olderClaimant(ctx.cr, await ctx.kube.claimants('Role', ctx.cr), roleNameOf, sameRoleName);
    if (!owner) return undefined;
    return notReady(
      'ResourceConflict',
      `role "${roleNameOf(ctx.cr)}" is already managed by the older Role ${describe(owner)}`,
    );
  }

  async sync(ctx: Ctx): Promise<SyncOutcome<'Role'>> {
    const desired = desiredRole(ctx.cr);
    const id = roleIdOf(ctx.cr);
    let observed = id ? await orMissing(ctx.api.getRole(id)) : undefined;
    if (!observed) {
      observed = await this.createOrAdopt(ctx, desired, id !== undefined);
    } else {
      const differs = diffRole(desired, observed);
      if (differs.length > 0) {
        observed = await ctx.api.replaceRole(observed.id, desired);
        await ctx.kube.recordEvent(
          'Role',
          ctx.cr,
          'Normal',
          'Updated',
          `Updated ${differs.join(', ')} of role "${desired.name}" in Quarry.`,
        );
      }
      if (ctx.cr.metadata.annotations?.[ANNOTATIONS.externalId] !== observed.id)
        await this.recordId(ctx, observed.id);
    }
    return { ready: available(), status: { roleId: observed.id } };
  }

  async finalize(ctx: Ctx): Promise<'gone' | { retryAfterMs: number }> {
    if (olderClaimant(ctx.cr, await ctx.kube.claimants('Role', ctx.cr), roleNameOf, sameRoleName))
      return 'gone';
    // Without an id, only an interrupted create can have left a role behind; any other role of that
    // name belongs to someone else.
    const pending = ctx.cr.metadata.annotations?.[ANNOTATIONS.createPending];
    const id =
      roleIdOf(ctx.cr) ?? (pending ? (await this.findByName(ctx, roleNameOf(ctx.cr)))?.id : undefined);
    if (!id) return 'gone';
    try {
      await ctx.api.deleteRole(id);
    } catch (err) {
      if (!isManagementError(err, 'NotFound')) throw err;
    }
    return 'gone';
  }

  private async createOrAdopt(ctx: Ctx, desired: RoleBody, hadId: boolean): Promise<ApiRole> {
    const pending = ctx.cr.metadata.annotations?.[ANNOTATIONS.createPending];
    if (pending && !hadId) {
      // A previous attempt may have created the role and died before writing its id.
      const found = await this.findByName(ctx, desired.name);
      if (found) return this.adopt(ctx, found, desired, 'a create interrupted before its id was recorded');
    }
    ctx.cr = await ctx.kube.setAnnotations('Role', ctx.cr, {
      [ANNOTATIONS.createPending]: ctx.now.toISOString(),
      [ANNOTATIONS.externalId]: null,
    });
    try {
      const created = await ctx.api.createRole(desired);
      await this.recordId(ctx, created.id);
      const why = hadId ? 'it was deleted outside Kubernetes' : 'it did not exist';
      await ctx.kube.recordEvent(
        'Role',
        ctx.cr,
        'Normal',
        'Created',
        `Created role "${desired.name}" in Quarry (${why}).`,
      );
      return created;
    } catch (err) {
      if (!isManagementError(err, 'Conflict')) throw err;
      const found = await this.findByName(ctx, desired.name);
      if (!found) throw err;
      return this.adopt(ctx, found, desired, 'a role of that name already existed');
    }
  }

  private async adopt(ctx: Ctx, found: ApiRole, desired: RoleBody, why: string): Promise<ApiRole> {
    await this.recordId(ctx, found.id);
    await ctx.kube.recordEvent(
      'Role',
      ctx.cr,
      'Normal',
      'Adopted',
      `Adopted role "${found.name}" (${found.id}): ${why}.`,
    );
    return diffRole(desired, found).length > 0 ? ctx.api.replaceRole(found.id, desired) : found;
  }

  /** Writes the id and clears the pending mark in one patch, so no state has a mark and an id at once. */
  private async recordId(ctx: Ctx, id: string): Promise<void> {
    ctx.cr = await ctx.kube.setAnnotations('Role', ctx.cr, {
      [ANNOTATIONS.externalId]: id,
      [ANNOTATIONS.createPending]: null,
    });
  }

  private async findByName(ctx: Ctx, name: string): Promise<ApiRole | undefined> {
    return (await ctx.api.listRoles()).find((r) => sameRoleName(r.name, name));
  }
}

export function roleReconciler(deps: ReconcileDeps): ManagedReconciler<'Role'> {
  return new ManagedReconciler(new RoleHandler(), deps);
}
