import type { AlertChange } from './alert-state';
import type { MonitorSpec } from './monitor-spec';
import type { Row } from './result-rows';
import type { RunWindow } from './schedule';

/**
 * One message about an alert, independent of the channel. Its members are the variables of a custom
 * webhook body (`{{.Action}}`, `{{.Title}}`, ...) and the `event` of the generic webhook payload.
 */
export interface AlertNotification {
  action: 'Open' | 'Closed';
  monitorId: string;
  checkId: string;
  name: string;
  description: string;
  title: string;
  body: string;
  value: number | null;
  groupKeys: string[];
  groupValues: string[];
  matchedEvent: Row | null;
  queryStartTime: string;
  queryEndTime: string;
  timestamp: string;
}

/** The notifications of one alert change: one per newly matched event for MatchEvent monitors. */
export function notificationsOf(
  spec: MonitorSpec,
  change: AlertChange,
  window: RunWindow,
  nowMs: number,
): AlertNotification[] {
  if (!change.notify) return [];
  const action = change.kind === 'closed' ? 'Closed' : 'Open';
  const base = {
    action,
    monitorId: spec.id,
    checkId: change.checkId,
    name: change.name,
    description: spec.description,
    value: change.value,
    groupKeys: Object.keys(change.groupValues),
    groupValues: Object.values(change.groupValues).map((v) => String(v)),
    queryStartTime: new Date(window.startMs).toISOString(),
    queryEndTime: new Date(window.endMs).toISOString(),
    timestamp: new Date(nowMs).toISOString(),
  } as const;
  const title = `[${action === 'Open' ? 'Triggered' : 'Resolved'}] ${change.name}`;
  if (change.events.length > 0) {
    return change.events.map((e) => ({
      ...base,
      title,
      body: `Matched event: ${JSON.stringify(e.row)}`,
      matchedEvent: e.row,
    }));
  }
  return [{ ...base, title, body: bodyOf(spec, change), matchedEvent: null }];
}

function bodyOf(spec: MonitorSpec, change: AlertChange): string {
  if (change.kind === 'closed') return `${change.name} is back to normal.`;
  if (change.value === null) return `${change.name}: the query returned no data.`;
  if (spec.type === 'AnomalyDetection')
    return `${change.name}: ${change.value} is outside ±${spec.tolerance}% of the last ${spec.compareDays} days' baseline.`;
  return `${change.name}: ${change.value} is ${spec.operator} the threshold ${spec.threshold}.`;
}
