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
import { ignoreMissing, orMissing, type MintedToken } from './management-api.port';
import type { KubeObjects } from './kube-objects.port';
import type {
  RotationReason,
  SecretObject,
  TokenResource,
  TokenRotationStatus,
  TokenStatus,
} from './resources';
import {
  desiredTokenBody,
  secretNameOf,
  tokenNameOf,
  tokenSpecHash,
  tokenTiming,
  type TokenTiming,
} from './token-desired';
import { decideRotation, renewalTime } from './token-rotation';
import { buildTokenSecret, isOwnSecret, secretDiffers } from './token-secret';

type Ctx = ReconcileContext<'Token'>;

export function tokenIdOf(cr: TokenResource): string | undefined {
  return cr.metadata.annotations?.[ANNOTATIONS.externalId] || cr.status?.tokenId || undefined;
}

/**
 * Token ↔ an API token plus a Secret holding its secret (k8s.md §3.4). `/v2/tokens` cannot update a token
 * and shows a secret only once, so every change is a rotation through `regenerate`, which keeps the
 * previous token valid for the grace period. Writes go: pending mark → API → Secret → id (clearing the
 * mark) → status; a restart that finds the mark deletes tokens of this name nobody references (nobody
 * holds their secret) and mints again.
 */
export class TokenHandler implements KindHandler<'Token'> {
  readonly kind = 'Token';
  readonly defaultDeletionPolicy = 'Delete';

  async check(ctx: Ctx) {
    const { problems } = tokenTiming(ctx.cr);
    if (problems.length) return notReady('InvalidSpec', problems.join('; '));
    const fixed = ctx.cr.spec.expiresAt;
    if (fixed !== undefined && Date.parse(fixed) <= ctx.now.getTime())
      return notReady('Expired', `spec.expiresAt ${fixed} has passed; set a later expiresAt or use ttl`);
    const secret = await ctx.kube.getSecret(ctx.cr.metadata.namespace!, secretNameOf(ctx.cr));
    if (secret && !isOwnSecret(secret, ctx.cr)) {
      return notReady(
        'SecretConflict',
        `Secret "${secretNameOf(ctx.cr)}" exists and is not this Token's (no quarry.dev/token label naming it); ` +
          'choose another spec.secretName or delete that Secret',
      );
    }
    return undefined;
  }

  async sync(ctx: Ctx): Promise<SyncOutcome<'Token'>> {
    const { timing } = tokenTiming(ctx.cr);
    const namespace = ctx.cr.metadata.namespace!;
    const secretName = secretNameOf(ctx.cr);
    const id = tokenIdOf(ctx.cr);
    if (ctx.cr.metadata.annotations?.[ANNOTATIONS.createPending]) {
      // The sweep deletes tokens, so the mark and the ids it trusts must be the stored ones, not a cache
      // that has not yet seen the mint which cleared the mark (the token that mint made is referenced only
      // by the newer CR). Renewing the mark is a write with the cached resourceVersion as precondition: it
      // fails with a conflict, and the reconcile is retried, unless the cached CR is the stored one.
      ctx.cr = await ctx.kube.setAnnotations('Token', ctx.cr, {
        [ANNOTATIONS.createPending]: ctx.now.toISOString(),
      });
      await this.sweepUnheldTokens(ctx, id);
    }

    const secret =
      (await ctx.kube.getSecret(namespace, secretName)) ?? (await this.renamedFrom(ctx, secretName));
    const observed = id ? await orMissing(ctx.api.getToken(id)) : undefined;
    const current: TokenStatus = { ...ctx.cr.status, tokenId: id };
    const decision =
      id && !observed
        ? ({ action: 'create', reason: 'ExternalDeleted' } as const)
        : decideRotation(ctx.cr, current, secret, timing, ctx.now);

    let status: TokenStatus;
    if (decision.action === 'keep') {
      await this.refreshSecret(ctx, secret!, id!);
      status = { tokenId: id, secretName };
    } else {
      const rotateFrom = decision.action === 'rotate' ? id : undefined;
      status = await this.mint(ctx, decision.reason, timing, { rotateFrom, replacedId: id });
    }
    status.rotation = await this.revokeAfterGrace(ctx, status.rotation ?? ctx.cr.status?.rotation);
    await this.dropOldSecret(ctx, secretName);
    return {
      ready: available(),
      status,
      requeueAfterMs: this.nextDeadline(ctx, { ...current, ...status }, timing),
    };
  }

  async finalize(ctx: Ctx): Promise<'gone' | { retryAfterMs: number }> {
    const id = tokenIdOf(ctx.cr);
    if (id) await ignoreMissing(ctx.api.deleteToken(id));
    const previous = ctx.cr.status?.rotation;
    if (previous?.previousTokenId && previous.previousExpiresAt)
      await ignoreMissing(ctx.api.deleteToken(previous.previousTokenId));
    const secret = await ctx.kube.getSecret(ctx.cr.metadata.namespace!, secretNameOf(ctx.cr));
    if (secret && isOwnSecret(secret, ctx.cr))
      await ctx.kube.deleteSecret(secret.metadata.namespace, secret.metadata.name);
    return 'gone';
  }

  /** Orphan: the token stays in Quarry and the Secret stays in the namespace, without our owner reference. */
  async orphan(cr: TokenResource, kube: KubeObjects): Promise<void> {
    const secret = await kube.getSecret(cr.metadata.namespace!, secretNameOf(cr));
    if (!secret || !isOwnSecret(secret, cr) || !secret.metadata.ownerReferences?.length) return;
    await kube.applySecret({ ...secret, metadata: { ...secret.metadata, ownerReferences: [] } });
  }

  /** Creates (no `rotateFrom`) or regenerates the token, then stores its secret before recording its id. */
  private async mint(
    ctx: Ctx,
    reason: RotationReason,
    timing: TokenTiming,
    ids: { rotateFrom?: string; replacedId?: string },
  ) {
    const { rotateFrom } = ids;
    const body = desiredTokenBody(ctx.cr, timing, ctx.now);
    ctx.cr = await ctx.kube.setAnnotations('Token', ctx.cr, {
      [ANNOTATIONS.createPending]: ctx.now.toISOString(),
    });
    const previousExpiresAt = new Date(ctx.now.getTime() + timing.graceMs).toISOString();
    const minted: MintedToken = rotateFrom
      ? await ctx.api.regenerateToken(rotateFrom, {
          existingTokenExpiresAt: previousExpiresAt,
          newToken: body,
        })
      : await ctx.api.createToken(body);
    const expiresAt = minted.token.expiresAt ?? undefined;
    await ctx.kube.applySecret(
      buildTokenSecret(ctx.cr, {
        secret: minted.secret,
        tokenId: minted.token.id,
        expiresAt,
        url: ctx.connection.url,
      }),
    );
    ctx.cr = await ctx.kube.setAnnotations('Token', ctx.cr, {
      [ANNOTATIONS.externalId]: minted.token.id,
      [ANNOTATIONS.createPending]: null,
    });
    const old = ctx.cr.status?.rotation;
    const rotation: TokenRotationStatus = {
      lastHandledRequest: ctx.cr.metadata.annotations?.[ANNOTATIONS.rotate] ?? old?.lastHandledRequest,
      lastRotationTime: ctx.now.toISOString(),
      reason,
      // After an external delete the old id is kept for the audit trail, with nothing left to revoke.
      previousTokenId: ids.replacedId ?? old?.previousTokenId,
      previousExpiresAt: rotateFrom ? previousExpiresAt : undefined,
    };
    const verb = rotateFrom ? 'Rotated' : 'Created';
    await ctx.kube.recordEvent(
      'Token',
      ctx.cr,
      'Normal',
      verb,
      `${verb} API token "${minted.token.name}" (${minted.token.id}), reason ${reason}; Secret "${secretNameOf(ctx.cr)}" updated.`,
    );
    return {
      tokenId: minted.token.id,
      expiresAt,
      secretName: secretNameOf(ctx.cr),
      specHash: tokenSpecHash(ctx.cr),
      rotation,
    } satisfies TokenStatus;
  }

  /**
   * Keeps the Secret's non-secret parts current (URL, template labels, owner) without minting; after a
   * `spec.secretName` change it writes the token under the new name.
   */
  private async refreshSecret(ctx: Ctx, secret: SecretObject, id: string): Promise<void> {
    const desired = buildTokenSecret(ctx.cr, {
      secret: secret.data.token,
      tokenId: id,
      expiresAt: ctx.cr.status?.expiresAt,
      url: ctx.connection.url,
    });
    const moved = secret.metadata.name !== desired.metadata.name;
    if (moved || secretDiffers(secret, desired)) await ctx.kube.applySecret(desired);
  }

  /**
   * After `spec.secretName` changed, the Secret under the old name (if it is ours) still holds a working
   * token: it moves to the new name instead of being rotated.
   */
  private async renamedFrom(ctx: Ctx, secretName: string): Promise<SecretObject | undefined> {
    const old = ctx.cr.status?.secretName;
    if (!old || old === secretName) return undefined;
    const secret = await ctx.kube.getSecret(ctx.cr.metadata.namespace!, old);
    return secret && isOwnSecret(secret, ctx.cr) ? secret : undefined;
  }

  /** Once the grace period is over, deletes the previous token (already expired by Quarry) and says so. */
  private async revokeAfterGrace(ctx: Ctx, rotation: TokenRotationStatus | undefined) {
    if (!rotation?.previousTokenId || !rotation.previousExpiresAt) return rotation;
    if (ctx.now.getTime() < Date.parse(rotation.previousExpiresAt)) return rotation;
    await ignoreMissing(ctx.api.deleteToken(rotation.previousTokenId));
    return { ...rotation, previousExpiresAt: undefined };
  }

  /** After `spec.secretName` changed, the old Secret (if ours) goes. */
  private async dropOldSecret(ctx: Ctx, secretName: string): Promise<void> {
    const old = ctx.cr.status?.secretName;
    if (!old || old === secretName) return;
    const secret = await ctx.kube.getSecret(ctx.cr.metadata.namespace!, old);
    if (secret && isOwnSecret(secret, ctx.cr)) await ctx.kube.deleteSecret(secret.metadata.namespace, old);
  }

  /**
   * After an interrupted mint: API tokens with this CR's name that no Token CR references were minted by
   * the crashed attempt, and their secret was never stored, so they are deleted. (`/v2` does not report a
   * token's creation time, so "created after the mark" is approximated by "referenced by nobody".)
   */
  private async sweepUnheldTokens(ctx: Ctx, currentId: string | undefined): Promise<void> {
    const name = tokenNameOf(ctx.cr);
    const referenced = new Set<string>();
    if (currentId) referenced.add(currentId);
    for (const cr of await ctx.kube.list('Token')) {
      for (const ref of [tokenIdOf(cr), cr.status?.tokenId, cr.status?.rotation?.previousTokenId])
        if (ref) referenced.add(ref);
    }
    const unheld = (await ctx.api.listTokens()).filter((t) => t.name === name && !referenced.has(t.id));
    for (const token of unheld) await ignoreMissing(ctx.api.deleteToken(token.id));
  }

  private nextDeadline(ctx: Ctx, status: TokenStatus, timing: TokenTiming): number | undefined {
    const now = ctx.now.getTime();
    const deadlines = [
      renewalTime(status, timing),
      status.rotation?.previousExpiresAt ? Date.parse(status.rotation.previousExpiresAt) : undefined,
      ctx.cr.spec.expiresAt ? Date.parse(ctx.cr.spec.expiresAt) : undefined,
    ].filter((t): t is number => t !== undefined);
    return deadlines.length ? Math.max(0, Math.min(...deadlines) - now) : undefined;
  }
}

export function tokenReconciler(deps: ReconcileDeps): ManagedReconciler<'Token'> {
  return new ManagedReconciler(new TokenHandler(), deps);
}
