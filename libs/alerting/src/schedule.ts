import type { MonitorSpec } from './monitor-spec';

/** The query window of one run: `[startMs, endMs)`, and the interval it belongs to (its end). */
export interface RunWindow {
  intervalEndMs: number;
  startMs: number;
  endMs: number;
}

/**
 * The interval a monitor must evaluate at `nowMs`: intervals are aligned to the epoch, and the run for
 * the interval ending at T happens once `T + delay` has passed, over `[T - range, T)`. Only the latest
 * such interval is ever due: a node that was down catches up the last interval it missed, not every one
 * (a burst of stale alerts helps nobody). The claim table tells whether it already ran.
 */
export function dueWindow(spec: MonitorSpec, nowMs: number): RunWindow {
  const intervalEndMs = Math.floor((nowMs - spec.delayMs) / spec.intervalMs) * spec.intervalMs;
  return { intervalEndMs, startMs: intervalEndMs - spec.rangeMs, endMs: intervalEndMs };
}

/** The same window `days` days earlier (the baselines of AnomalyDetection). */
export function shiftedDays(window: RunWindow, days: number): RunWindow {
  const shift = days * 86_400_000;
  return {
    intervalEndMs: window.intervalEndMs - shift,
    startMs: window.startMs - shift,
    endMs: window.endMs - shift,
  };
}
