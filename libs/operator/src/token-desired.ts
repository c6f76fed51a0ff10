import { createHash } from 'node:crypto';
import { capabilitiesToApi } from './capabilities';
import { parseDuration } from './duration';
import type { TokenBody } from './management-api.port';
import type { TokenResource } from './resources';

export const DEFAULT_GRACE_MS = 10 * 60_000;

export function tokenNameOf(cr: TokenResource): string {
  return cr.spec.name || cr.metadata.name;
}

export function secretNameOf(cr: TokenResource): string {
  return cr.spec.secretName || cr.metadata.name;
}

export interface TokenTiming {
  /** Each minted token lives this long (`spec.ttl`); undefined: no automatic rotation. */
  ttlMs?: number;
  /** Rotate this long before expiry (`spec.renewBefore`, default ttl/3). */
  renewBeforeMs?: number;
  /** The previous token stays valid this long after a rotation. */
  graceMs: number;
}

/** Parses the duration fields; problems are user mistakes CEL cannot catch (→ `InvalidSpec`). */
export function tokenTiming(cr: TokenResource): { timing: TokenTiming; problems: string[] } {
  const problems: string[] = [];
  const parse = (field: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const ms = parseDuration(text);
    if (ms === undefined) problems.push(`spec.${field} "${text}" is not a duration (use e.g. 720h or 15m)`);
    return ms;
  };
  const ttlMs = parse('ttl', cr.spec.ttl);
  const renewBeforeMs =
    parse('renewBefore', cr.spec.renewBefore) ?? (ttlMs !== undefined ? ttlMs / 3 : undefined);
  const graceMs = parse('rotationGracePeriod', cr.spec.rotationGracePeriod) ?? DEFAULT_GRACE_MS;
  if (ttlMs !== undefined && ttlMs <= 0) problems.push('spec.ttl must be positive');
  if (ttlMs !== undefined && renewBeforeMs !== undefined && renewBeforeMs >= ttlMs)
    problems.push(`spec.renewBefore (${cr.spec.renewBefore}) must be shorter than spec.ttl (${cr.spec.ttl})`);
  return { timing: { ttlMs, renewBeforeMs, graceMs }, problems };
}

/** What a minted token carries besides its expiry; its hash tells whether the current token is stale. */
function mintedFields(cr: TokenResource) {
  return {
    name: tokenNameOf(cr),
    description: cr.spec.description ?? '',
    ...capabilitiesToApi(cr.spec),
    expiresAt: cr.spec.expiresAt ?? null,
  };
}

/**
 * Hash of name, description, capabilities and fixed expiry: what the current token was minted with.
 * `ttl` is left out on purpose: a new ttl applies from the next rotation instead of minting right away.
 */
export function tokenSpecHash(cr: TokenResource): string {
  return createHash('sha256')
    .update(JSON.stringify(mintedFields(cr)))
    .digest('hex')
    .slice(0, 32);
}

/** The create (or regenerate `newToken`) body; a ttl gives each minted token `now + ttl`. */
export function desiredTokenBody(cr: TokenResource, timing: TokenTiming, now: Date): TokenBody {
  const { expiresAt, ...fields } = mintedFields(cr);
  const fromTtl = timing.ttlMs !== undefined ? new Date(now.getTime() + timing.ttlMs).toISOString() : null;
  return { ...fields, expiresAt: expiresAt ?? fromTtl };
}
