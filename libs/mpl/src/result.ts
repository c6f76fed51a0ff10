/** The engine's result, before rendering to one of the JSON forms (render.ts). */
import { metricTagJson } from '@quarry/contracts';
import type { ExecContext } from './exec/executor';
import { ensureGrid } from './exec/executor';
import type { Frame, Scalar } from './exec/frame';
import { limitExceeded } from './exec/limits';

export type MplTagJson = string | number | boolean | null;

export interface MplSeries {
  metric: string;
  tags: Record<string, MplTagJson>;
  /** Unix seconds of `data[0]`. */
  start: number;
  /** Seconds between slots. */
  resolution: number;
  /** NaN = gap (rendered as null). */
  data: Float64Array;
}

export interface MplResult {
  series: MplSeries[];
  /** Tags of the last group/bucket, for legends. */
  groupKeys: string[];
  /** `set custom_unit = "...";` */
  customUnit?: string;
  /** The OTLP unit of the series read, when they all share one. */
  unit?: string;
  warnings: string[];
  stats: { pointsRead: number; seriesReturned: number };
}

function tagsJson(s: Scalar): Record<string, MplTagJson> {
  const out: Record<string, MplTagJson> = {};
  for (const [k, v] of Object.entries(s.tags)) out[k] = v === null ? null : metricTagJson(v);
  return out;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Unaligned series are rendered on their natural spacing: resolution = greatest common divisor of the
 * gaps between consecutive samples (so 10 s samples come back at resolution 10 with null where a sample
 * is missing), start = first sample. If that grid would be too long, the whole frame is aligned to
 * `$__interval` with avg instead (with a warning).
 */
function naturalGrid(s: Scalar): { start: number; resolution: number; length: number } | undefined {
  if (s.times.length === 0) return undefined;
  let step = 0;
  for (let i = 1; i < s.times.length; i++) step = gcd(step, Math.round(s.times[i] - s.times[i - 1]));
  const resolution = Math.max(1, step);
  const start = s.times[0];
  return { start, resolution, length: Math.round((s.times[s.times.length - 1] - start) / resolution) + 1 };
}

export function finalizeFrame(frame: Frame, ctx: ExecContext): MplSeries[] {
  const out: MplSeries[] = [];
  if (!frame.grid) {
    const grids = frame.scalars.map(naturalGrid);
    const cells = grids.reduce((n, g) => n + (g?.length ?? 0), 0);
    // A natural grid too long or too large as a whole falls back to $__interval (checked by align).
    if (grids.some((g) => g && g.length > ctx.limits.maxSlotsPerSeries) || cells > ctx.limits.maxCells)
      ensureGrid(frame, ctx, 'output');
    else {
      frame.scalars.forEach((s, i) => {
        const g = grids[i];
        if (!g) return;
        const data = new Float64Array(g.length).fill(NaN);
        for (let j = 0; j < s.times.length; j++)
          data[Math.round((s.times[j] - g.start) / g.resolution)] = s.values[j];
        out.push({ metric: s.metric, tags: tagsJson(s), start: g.start, resolution: g.resolution, data });
      });
      return out;
    }
  }
  const grid = frame.grid!;
  if (grid.length > ctx.limits.maxSlotsPerSeries)
    limitExceeded('windows per series', ctx.limits.maxSlotsPerSeries, 'use a larger window');
  for (const s of frame.scalars)
    out.push({
      metric: s.metric,
      tags: tagsJson(s),
      start: grid.start,
      resolution: grid.resolution,
      data: s.values,
    });
  return out;
}
