import { ANNOTATIONS, SECRET_KEYS } from './constants';
import type { RotationReason, SecretObject, TokenResource, TokenStatus } from './resources';
import { tokenSpecHash, type TokenTiming } from './token-desired';

export type RotationDecision =
  | { action: 'keep' }
  | { action: 'create'; reason: 'Created' }
  | { action: 'rotate'; reason: Exclude<RotationReason, 'Created' | 'ExternalDeleted'> };

/**
 * Whether the token a CR holds must be replaced, with the triggers checked in the order of k8s.md §3.4.
 * The one trigger that needs the API (the token was deleted there) is the reconciler's: it calls this only
 * for a token the API still has. `/v2` cannot update a token, so every change is a rotation.
 */
export function decideRotation(
  cr: TokenResource,
  status: TokenStatus | undefined,
  secret: SecretObject | undefined,
  timing: TokenTiming,
  now: Date,
): RotationDecision {
  if (!status?.tokenId) return { action: 'create', reason: 'Created' };
  // The secret is shown only once: without it nobody can use the token, so mint a new one.
  if (!secret || !secret.data[SECRET_KEYS.token]) return { action: 'rotate', reason: 'SecretLost' };
  if (status.specHash !== tokenSpecHash(cr)) return { action: 'rotate', reason: 'SpecChanged' };
  const request = cr.metadata.annotations?.[ANNOTATIONS.rotate];
  if (request && request !== status.rotation?.lastHandledRequest)
    return { action: 'rotate', reason: 'Requested' };
  const renewAt = renewalTime(status, timing);
  if (renewAt !== undefined && now.getTime() >= renewAt) return { action: 'rotate', reason: 'Expiring' };
  return { action: 'keep' };
}

/** When a ttl token is due for rotation: `expiresAt − renewBefore`; undefined without a ttl. */
export function renewalTime(status: TokenStatus | undefined, timing: TokenTiming): number | undefined {
  if (timing.ttlMs === undefined || !status?.expiresAt) return undefined;
  return Date.parse(status.expiresAt) - (timing.renewBeforeMs ?? 0);
}
