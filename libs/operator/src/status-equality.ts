import { conditionsEqual } from './conditions';
import type { CommonStatus } from './resources';

/**
 * Whether two statuses say the same thing, ignoring `lastSyncTime` and condition times: a resync that
 * finds nothing new must not write (k8s.md §1, "no write storms").
 */
export function sameStatus(
  a: CommonStatus | undefined,
  b: CommonStatus | undefined,
  /** Further fields that only say when something was last looked at (QuarryConnection's `lastProbeTime`). */
  ignored: readonly string[] = [],
): boolean {
  if (!conditionsEqual(a?.conditions, b?.conditions)) return false;
  return canonical(withoutTimes(a, ignored)) === canonical(withoutTimes(b, ignored));
}

function withoutTimes(status: CommonStatus | undefined, ignored: readonly string[]): Record<string, unknown> {
  const { conditions: _c, lastSyncTime: _t, ...rest } = (status ?? {}) as Record<string, unknown>;
  for (const key of ignored) delete rest[key];
  return rest;
}

/** JSON with sorted keys and `undefined` members dropped. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}
