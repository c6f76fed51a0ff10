import { setCondition } from '@quarry/k8s-kit';
import type { Condition, ConditionStatus } from './resources';

/** Condition types every managed kind reports (k8s.md §3). */
export const READY = 'Ready';
export const SYNCED = 'Synced';

export type { ReadyReason, SyncedReason } from '@quarry/k8s-api';

/** A condition before the merge fills in times and generation. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * Sets `update` in `conditions` (a list keyed by `type`) and returns a new list. `lastTransitionTime` moves
 * only when the status flips, so repeated reconciles of an unchanged object produce an identical list.
 */
export function mergeCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  generation: number | undefined,
  now: Date,
): Condition[] {
  return setCondition(
    conditions,
    { ...update, message: truncate(update.message, 32_768), observedGeneration: generation },
    now,
  );
}

export { findCondition, sameConditions as conditionsEqual } from '@quarry/k8s-kit';

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
