/**
 * Monitors and notifiers as the console edits them: the form state, and the `/v2/monitors` and
 * `/v2/notifiers` bodies it becomes (Axiom's Monitor and Notifier schemas, as the server validates them).
 */
export const MONITOR_TYPES = [
  { type: 'Threshold', label: 'Threshold' },
  { type: 'MatchEvent', label: 'Match event' },
  { type: 'AnomalyDetection', label: 'Anomaly detection' },
] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number]['type'];

export const OPERATORS = ['Above', 'AboveOrEqual', 'Below', 'BelowOrEqual', 'AboveOrBelow'] as const;

export interface MonitorForm {
  name: string;
  type: MonitorType;
  aplQuery: string;
  description: string;
  operator: string;
  threshold: string;
  intervalMinutes: string;
  rangeMinutes: string;
  compareDays: string;
  tolerance: string;
  notifierIds: string[];
  disabled: boolean;
}

/** A stored monitor (MonitorWithId), as much of it as the console reads. */
export interface Monitor {
  id: string;
  name: string;
  type: string;
  description?: string;
  aplQuery?: string;
  mplQuery?: string;
  operator?: string;
  threshold?: number;
  intervalMinutes?: number;
  rangeMinutes?: number;
  compareDays?: number;
  tolerance?: number;
  notifierIds?: string[];
  disabled?: boolean;
  [key: string]: unknown;
}

export function emptyMonitorForm(): MonitorForm {
  return {
    name: '',
    type: 'Threshold',
    aplQuery: '',
    description: '',
    operator: 'Above',
    threshold: '0',
    intervalMinutes: '5',
    rangeMinutes: '5',
    compareDays: '1',
    tolerance: '10',
    notifierIds: [],
    disabled: false,
  };
}

export function monitorFormOf(m: Monitor): MonitorForm {
  const base = emptyMonitorForm();
  const known = MONITOR_TYPES.some((t) => t.type === m.type);
  return {
    name: m.name,
    type: known ? (m.type as MonitorType) : base.type,
    aplQuery: m.aplQuery ?? '',
    description: m.description ?? '',
    operator: m.operator ?? base.operator,
    threshold: m.threshold === undefined ? base.threshold : String(m.threshold),
    intervalMinutes: m.intervalMinutes === undefined ? base.intervalMinutes : String(m.intervalMinutes),
    rangeMinutes: m.rangeMinutes === undefined ? base.rangeMinutes : String(m.rangeMinutes),
    compareDays: m.compareDays === undefined ? base.compareDays : String(m.compareDays),
    tolerance: m.tolerance === undefined ? base.tolerance : String(m.tolerance),
    notifierIds: [...(m.notifierIds ?? [])],
    disabled: m.disabled ?? false,
  };
}

/**
 * The Monitor body for a form. Only the members the type uses are sent: a threshold monitor its
 * operator and threshold, an anomaly detection one its operator, comparison days and tolerance, a
 * match-event monitor neither (it fires on each matching event). Numbers that do not parse are errors.
 */
export function monitorBody(form: MonitorForm): Record<string, unknown> {
  const num = (label: string, text: string, integer = false): number => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
      throw new Error(`${label} must be ${integer ? 'a whole number' : 'a number'}`);
    return n;
  };
  const body: Record<string, unknown> = {
    name: form.name.trim(),
    type: form.type,
    aplQuery: form.aplQuery,
    intervalMinutes: num('Every (minutes)', form.intervalMinutes, true),
    rangeMinutes: num('Over the last (minutes)', form.rangeMinutes, true),
    notifierIds: form.notifierIds,
    disabled: form.disabled,
  };
  if (form.description.trim()) body.description = form.description.trim();
  if (form.type === 'Threshold') {
    body.operator = form.operator;
    body.threshold = num('Threshold', form.threshold);
  } else if (form.type === 'AnomalyDetection') {
    body.operator = form.operator;
    body.compareDays = num('Compare days', form.compareDays, true);
    body.tolerance = num('Tolerance', form.tolerance);
  }
  return body;
}

/** A monitor's condition in words, for the list. */
export function describeCondition(m: Monitor): string {
  if (m.type === 'Threshold') return `${m.operator ?? ''} ${m.threshold ?? ''}`.trim();
  if (m.type === 'MatchEvent') return 'any matching event';
  if (m.type === 'AnomalyDetection')
    return `${m.operator ?? ''} ±${m.tolerance ?? 0}% vs ${m.compareDays ?? 0} d ago`.trim();
  return '';
}

/** The notifier channels the console creates, with the one setting each needs (v2.json's NotifierProperties). */
export const NOTIFIER_KINDS = [
  { kind: 'webhook', label: 'Webhook', field: 'url', target: 'Webhook URL' },
  { kind: 'slack', label: 'Slack', field: 'slackUrl', target: 'Slack webhook URL' },
  { kind: 'email', label: 'Email', field: 'emails', target: 'Email addresses' },
  {
    kind: 'discordWebhook',
    label: 'Discord webhook',
    field: 'discordWebhookUrl',
    target: 'Discord webhook URL',
  },
  {
    kind: 'microsoftTeams',
    label: 'Microsoft Teams',
    field: 'microsoftTeamsUrl',
    target: 'Teams webhook URL',
  },
  { kind: 'pagerduty', label: 'PagerDuty', field: 'routingKey', target: 'PagerDuty routing key' },
  { kind: 'opsgenie', label: 'Opsgenie', field: 'apiKey', target: 'Opsgenie API key' },
] as const;
export type NotifierKind = (typeof NOTIFIER_KINDS)[number]['kind'];

export interface Notifier {
  id: string;
  name: string;
  properties: Record<string, Record<string, unknown> | null | undefined>;
}

/** The Notifier body: one channel in `properties`; email addresses split on commas, spaces or semicolons. */
export function notifierBody(name: string, kind: NotifierKind, target: string): Record<string, unknown> {
  const spec = NOTIFIER_KINDS.find((k) => k.kind === kind);
  if (!spec) throw new Error(`unknown notifier kind ${kind}`);
  const value = target.trim();
  if (!value) throw new Error(`${spec.target} is required`);
  const setting = kind === 'email' ? value.split(/[\s,;]+/).filter(Boolean) : value;
  return { name: name.trim(), properties: { [kind]: { [spec.field]: setting } } };
}

/** `Slack · https://hooks…` — a notifier's channel and target in words (secrets are not shown). */
export function describeNotifier(n: Notifier): string {
  const [kind, settings] = Object.entries(n.properties ?? {}).find(([, v]) => v) ?? [];
  if (!kind || !settings) return '';
  const spec = NOTIFIER_KINDS.find((k) => k.kind === kind);
  if (!spec) return kind;
  if (kind === 'pagerduty' || kind === 'opsgenie') return spec.label;
  const value = settings[spec.field];
  return `${spec.label} · ${Array.isArray(value) ? value.join(', ') : String(value ?? '')}`;
}
