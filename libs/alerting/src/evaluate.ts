import { createHash } from 'node:crypto';
import type { MonitorOperator, MonitorSpec } from './monitor-spec';
import { SYSTEM_TIME_FIELDS, type ResultRows, type Row } from './result-rows';

/** One event a MatchEvent monitor matched, with the key it is deduplicated by. */
export interface MatchedEvent {
  key: string;
  row: Row;
}

/** What one run saw for one group (or for the whole result when the monitor does not notify by group). */
export interface GroupObservation {
  positive: boolean;
  /** The value compared (the crossing one when positive); null when there was none (no data). */
  value: number | null;
  groupValues: Record<string, unknown>;
  /** MatchEvent: every event of the window (the state machine drops those already notified). */
  events: MatchedEvent[];
}

/** One run's observations by group key (`''` for the whole result). */
export type Observation = Map<string, GroupObservation>;

/** Whether `value` crosses `threshold` in the monitor's direction. */
export function crosses(operator: MonitorOperator, value: number, threshold: number): boolean {
  switch (operator) {
    case 'Below':
      return value < threshold;
    case 'BelowOrEqual':
      return value <= threshold;
    case 'Above':
      return value > threshold;
    case 'AboveOrEqual':
      return value >= threshold;
    case 'AboveOrBelow':
      // One threshold and "outside a range": the range is [-threshold, threshold].
      return value > threshold || value < -threshold;
  }
}

/** The compared column: `columnName`, else the first numeric column that is neither a group nor a time. */
export function valueColumn(spec: MonitorSpec, result: ResultRows): string | undefined {
  if (spec.columnName !== undefined) return spec.columnName;
  const groups = new Set(result.groupFields);
  for (const row of result.rows) {
    for (const [name, v] of Object.entries(row)) {
      if (groups.has(name) || SYSTEM_TIME_FIELDS.has(name)) continue;
      if (typeof numeric(v) === 'number') return name;
    }
  }
  return undefined;
}

function numeric(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function groupOf(spec: MonitorSpec, result: ResultRows, row: Row): [string, Record<string, unknown>] {
  if (!spec.notifyByGroup || result.groupFields.length === 0) return ['', {}];
  const values: Record<string, unknown> = {};
  for (const f of result.groupFields) values[f] = row[f] ?? null;
  return [JSON.stringify(result.groupFields.map((f) => values[f])), values];
}

/** The numeric values of the compared column, by group. */
function valuesByGroup(spec: MonitorSpec, result: ResultRows) {
  const column = valueColumn(spec, result);
  const out = new Map<string, { groupValues: Record<string, unknown>; values: number[] }>();
  if (column === undefined) return out;
  for (const row of result.rows) {
    const v = numeric(row[column]);
    if (v === undefined) continue;
    const [key, groupValues] = groupOf(spec, result, row);
    const entry = out.get(key) ?? { groupValues, values: [] };
    entry.values.push(v);
    out.set(key, entry);
  }
  return out;
}

function noData(spec: MonitorSpec): Observation {
  const observation: Observation = new Map();
  if (spec.alertOnNoData) observation.set('', { positive: true, value: null, groupValues: {}, events: [] });
  return observation;
}

/** Threshold: a group is positive when any of its values crosses the threshold. */
export function evaluateThreshold(spec: MonitorSpec, result: ResultRows): Observation {
  const groups = valuesByGroup(spec, result);
  if (groups.size === 0) return noData(spec);
  const observation: Observation = new Map();
  for (const [key, { groupValues, values }] of groups) {
    const crossing = values.find((v) => crosses(spec.operator, v, spec.threshold));
    observation.set(key, {
      positive: crossing !== undefined,
      value: crossing ?? values[values.length - 1],
      groupValues,
      events: [],
    });
  }
  return observation;
}

/** MatchEvent: every row is an event; the key is a hash of the whole row, so re-reads deduplicate. */
export function evaluateMatchEvent(spec: MonitorSpec, result: ResultRows): Observation {
  const observation: Observation = new Map();
  for (const row of result.rows) {
    const [key, groupValues] = groupOf(spec, result, row);
    const entry = observation.get(key) ?? { positive: true, value: null, groupValues, events: [] };
    entry.events.push({ key: eventKey(row), row });
    observation.set(key, entry);
  }
  if (observation.size === 0 && spec.alertOnNoData) return noData(spec);
  return observation;
}

export function eventKey(row: Row): string {
  const sorted = Object.keys(row)
    .sort()
    .map((k) => [k, row[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 32);
}

/**
 * AnomalyDetection. The statistic: per group, the mean of the compared column over the current window
 * is the current value; the baseline is the mean of the same means over the same window 1..compareDays
 * days earlier (days without data are left out). The group is positive when the current value leaves
 * the band baseline × (1 ± tolerance/100) in the operator's direction (Above/AboveOrEqual: above it,
 * Below/BelowOrEqual: below it, AboveOrBelow: either). No baseline at all means no verdict (negative).
 */
export function evaluateAnomaly(
  spec: MonitorSpec,
  current: ResultRows,
  baselines: ResultRows[],
): Observation {
  const now = valuesByGroup(spec, current);
  if (now.size === 0) return noData(spec);
  const history = baselines.map((b) => valuesByGroup(spec, b));
  const observation: Observation = new Map();
  for (const [key, { groupValues, values }] of now) {
    const value = mean(values);
    const days = history.flatMap((h) => (h.has(key) ? [mean(h.get(key)!.values)] : []));
    const positive = days.length > 0 && outsideBand(spec, value, mean(days));
    observation.set(key, { positive, value, groupValues, events: [] });
  }
  return observation;
}

function outsideBand(spec: MonitorSpec, value: number, baseline: number): boolean {
  const margin = Math.abs(baseline) * (spec.tolerance / 100);
  const above = spec.operator === 'AboveOrEqual' ? value >= baseline + margin : value > baseline + margin;
  const below = spec.operator === 'BelowOrEqual' ? value <= baseline - margin : value < baseline - margin;
  if (spec.operator === 'Above' || spec.operator === 'AboveOrEqual') return above;
  if (spec.operator === 'Below' || spec.operator === 'BelowOrEqual') return below;
  return above || below;
}

function mean(values: number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
