import { createHash } from 'node:crypto';
import type { MatchedEvent, Observation } from './evaluate';
import type { MonitorSpec } from './monitor-spec';

/** What the evaluator remembers of one group between runs. */
export interface GroupState {
  /** The last `runsConsidered` results, oldest first. */
  recent: boolean[];
  open: boolean;
  groupValues: Record<string, unknown>;
}

/** A monitor's memory between runs (stored as JSON in `monitor_states`). */
export interface MonitorState {
  groups: Record<string, GroupState>;
  /** MatchEvent: key of each event already notified → end of the interval that saw it (epoch ms). */
  seen: Record<string, number>;
}

export const EMPTY_STATE: MonitorState = { groups: {}, seen: {} };

/** One alert of a run: opened, still open, or closed, for one group. */
export interface AlertChange {
  kind: 'open' | 'still-open' | 'closed';
  checkId: string;
  name: string;
  groupValues: Record<string, unknown>;
  value: number | null;
  /** MatchEvent: events first seen in this run. */
  events: MatchedEvent[];
  /** Whether this change is notified (notifyEveryRun, skipResolved, new events). */
  notify: boolean;
  /** Whether this change is an open/close written to the alert history. */
  recorded: boolean;
}

export interface StepResult {
  state: MonitorState;
  changes: AlertChange[];
}

/**
 * The state machine of one monitor, pure: the previous state and one run's observation give the next
 * state and the alert changes. Per group, the last `runsConsidered` results are kept; the alert is open
 * while at least `positivesNeeded` of them are positive (so it closes once fewer are, which also damps
 * flapping). A group that has no observation in a run counts as negative. A non-resolvable monitor
 * never writes or notifies a close: its group silently returns to idle and may open again.
 */
export function step(
  spec: MonitorSpec,
  previous: MonitorState,
  observation: Observation,
  intervalEndMs: number,
): StepResult {
  const seen = pruneSeen(previous.seen, intervalEndMs - spec.rangeMs);
  const groups: Record<string, GroupState> = {};
  const changes: AlertChange[] = [];
  const keys = new Set([...Object.keys(previous.groups), ...observation.keys()]);
  for (const key of [...keys].sort()) {
    const before = previous.groups[key] ?? { recent: [], open: false, groupValues: {} };
    const seenNow = observation.get(key);
    const newEvents = (seenNow?.events ?? []).filter((e) => !(e.key in seen));
    for (const e of newEvents) seen[e.key] = intervalEndMs;
    const positive =
      seenNow === undefined
        ? false
        : spec.type === 'MatchEvent' && seenNow.events.length > 0
          ? newEvents.length > 0
          : seenNow.positive;
    const recent = [...before.recent, positive].slice(-spec.runsConsidered);
    const shouldBeOpen = recent.filter(Boolean).length >= spec.positivesNeeded;
    const groupValues = seenNow?.groupValues ?? before.groupValues;
    const identity = { checkId: checkIdOf(spec, key), name: nameOf(spec, groupValues), groupValues };
    const value = seenNow?.value ?? null;

    if (shouldBeOpen && !before.open) {
      changes.push({ kind: 'open', ...identity, value, events: newEvents, notify: true, recorded: true });
    } else if (shouldBeOpen && before.open) {
      // A MatchEvent monitor reports every event it matches, also while its alert stays open.
      const notify = spec.notifyEveryRun || newEvents.length > 0;
      changes.push({ kind: 'still-open', ...identity, value, events: newEvents, notify, recorded: false });
    } else if (!shouldBeOpen && before.open && spec.resolvable) {
      const notify = !spec.skipResolved;
      changes.push({ kind: 'closed', ...identity, value, events: [], notify, recorded: true });
    }
    // Idle groups with nothing positive left to remember are dropped: the state stays small.
    if (shouldBeOpen || recent.some(Boolean)) groups[key] = { recent, open: shouldBeOpen, groupValues };
  }
  return { state: { groups, seen }, changes };
}

/** Events seen at or before `horizonMs` lie before any window still to come: forget them. */
function pruneSeen(seen: Record<string, number>, horizonMs: number): Record<string, number> {
  const kept: Record<string, number> = {};
  for (const [key, at] of Object.entries(seen)) if (at > horizonMs) kept[key] = at;
  return kept;
}

/** The monitor's id for its ungrouped alert; a group's alert adds a short hash of the group. */
export function checkIdOf(spec: MonitorSpec, groupKey: string): string {
  if (groupKey === '') return spec.id;
  return `${spec.id}:${createHash('sha256').update(groupKey).digest('hex').slice(0, 12)}`;
}

function nameOf(spec: MonitorSpec, groupValues: Record<string, unknown>): string {
  const parts = Object.entries(groupValues).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length === 0 ? spec.name : `${spec.name} (${parts.join(', ')})`;
}
