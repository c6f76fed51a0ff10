/** A status condition in the `metav1.Condition` shape (k8s.md §0: `Ready`, `Synced`). */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  /** RFC 3339; moves only when `status` flips, so it tells how long the condition has held. */
  lastTransitionTime: string;
}

export type ConditionUpdate = Omit<Condition, 'lastTransitionTime'>;

/**
 * Returns `conditions` with `update` merged in by `type`. `lastTransitionTime` is kept when the status
 * did not flip (a new reason or message alone is not a transition) and set to `now` otherwise. Other
 * conditions and their order are kept; a new type is appended.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  now: Date,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((condition) => condition.type === update.type);
  const previous = index >= 0 ? list[index] : undefined;
  const transitioned = previous === undefined || previous.status !== update.status;
  const merged: Condition = {
    ...update,
    lastTransitionTime: transitioned ? rfc3339Seconds(now) : previous.lastTransitionTime,
  };
  if (index >= 0) list[index] = merged;
  else list.push(merged);
  return list;
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/**
 * Whether two condition lists say the same thing, ignoring `lastTransitionTime`: a reconcile writes status
 * only when this is false (k8s.md §3.5 step 7), so an unchanged world causes no write and no watch event.
 */
export function sameConditions(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return false;
  return left.every((condition) => {
    const other = findCondition(right, condition.type);
    return (
      other !== undefined &&
      other.status === condition.status &&
      other.reason === condition.reason &&
      other.message === condition.message &&
      other.observedGeneration === condition.observedGeneration
    );
  });
}

/** metav1.Time serialises with whole seconds. */
function rfc3339Seconds(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
