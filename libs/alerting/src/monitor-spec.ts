/**
 * A monitor as the evaluator reads it: the stored Monitor document (v2.json) with every default filled
 * in and durations in milliseconds, so the evaluation code never looks at optional members.
 */
export type MonitorType = 'Threshold' | 'MatchEvent' | 'AnomalyDetection';
export type MonitorOperator = 'Below' | 'BelowOrEqual' | 'Above' | 'AboveOrEqual' | 'AboveOrBelow';

export interface MonitorSpec {
  id: string;
  name: string;
  description: string;
  type: MonitorType;
  query: { language: 'apl' | 'mpl'; text: string };
  operator: MonitorOperator;
  threshold: number;
  /** The column compared with the threshold; unset = the first numeric column that is not a group. */
  columnName?: string;
  intervalMs: number;
  rangeMs: number;
  /** Each run waits this long after its interval ended, so late events are counted. */
  delayMs: number;
  compareDays: number;
  /** Percent the current value may deviate from the baseline (AnomalyDetection). */
  tolerance: number;
  /** An alert opens when `positivesNeeded` of the last `runsConsidered` runs were positive. */
  runsConsidered: number;
  positivesNeeded: number;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  disabledUntilMs: number | null;
  notifierIds: string[];
}

const MINUTE = 60_000;

/** Fills in the defaults of a stored monitor document (validated by the management API). */
export function monitorSpecOf(id: string, doc: Record<string, unknown>): MonitorSpec {
  const num = (key: string, fallback: number) =>
    typeof doc[key] === 'number' ? (doc[key] as number) : fallback;
  const bool = (key: string, fallback: boolean) =>
    typeof doc[key] === 'boolean' ? (doc[key] as boolean) : fallback;
  const apl = typeof doc.aplQuery === 'string' && doc.aplQuery !== '' ? doc.aplQuery : undefined;
  const type = (doc.type as MonitorType) ?? 'Threshold';
  const intervalMinutes = Math.max(1, num('intervalMinutes', 1));
  const positivesNeeded = Math.max(1, num('triggerAfterNPositiveResults', 1));
  const disabledUntil = typeof doc.disabledUntil === 'string' ? Date.parse(doc.disabledUntil) : NaN;
  return {
    id,
    name: String(doc.name ?? id),
    description: typeof doc.description === 'string' ? doc.description : '',
    type,
    query:
      apl !== undefined
        ? { language: 'apl', text: apl }
        : { language: 'mpl', text: String(doc.mplQuery ?? '') },
    operator:
      (doc.operator as MonitorOperator | undefined) ??
      (type === 'AnomalyDetection' ? 'AboveOrBelow' : 'Above'),
    threshold: num('threshold', 0),
    columnName: typeof doc.columnName === 'string' && doc.columnName !== '' ? doc.columnName : undefined,
    intervalMs: intervalMinutes * MINUTE,
    rangeMs: Math.max(1, num('rangeMinutes', intervalMinutes)) * MINUTE,
    delayMs: num('secondDelay', 0) * 1000,
    compareDays: Math.max(1, num('compareDays', 7)),
    tolerance: num('tolerance', 0),
    // N positives out of the last M runs; M below N would never trigger, so M is at least N.
    runsConsidered: Math.max(positivesNeeded, num('triggerFromNRuns', 1)),
    positivesNeeded,
    alertOnNoData: bool('alertOnNoData', false),
    notifyByGroup: bool('notifyByGroup', false),
    notifyEveryRun: bool('notifyEveryRun', false),
    resolvable: bool('resolvable', true),
    skipResolved: bool('skipResolved', false),
    disabled: bool('disabled', false),
    disabledUntilMs: Number.isNaN(disabledUntil) ? null : disabledUntil,
    notifierIds: Array.isArray(doc.notifierIds) ? (doc.notifierIds as string[]) : [],
  };
}

/** Whether the monitor is switched off at `nowMs` (`disabled`, or `disabledUntil` still ahead). */
export function isPaused(spec: MonitorSpec, nowMs: number): boolean {
  return spec.disabled || (spec.disabledUntilMs !== null && nowMs < spec.disabledUntilMs);
}
