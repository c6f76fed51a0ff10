/**
 * The JSON merge patch (RFC 7386) that turns `previous` into `next`: changed members are set, members
 * `next` lacks are `null` (a merge patch deletes with null), nested objects are diffed, arrays replaced
 * whole. Status writes need it so a field the operator dropped (e.g. `rotation.previousExpiresAt` after
 * revocation) is really removed on the server.
 */
export function mergePatchFor(previous: unknown, next: unknown): unknown {
  if (!isPlainObject(previous) || !isPlainObject(next)) return next === undefined ? null : next;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(previous)) {
    if (previous[key] !== undefined && next[key] === undefined) patch[key] = null;
  }
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    const before = previous[key];
    if (isPlainObject(before) && isPlainObject(value)) {
      const inner = mergePatchFor(before, value) as Record<string, unknown>;
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(value)) {
      patch[key] = value;
    }
  }
  return patch;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
