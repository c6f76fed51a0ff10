/**
 * JSON forms of a result (mpl.md §3.2): `metrics-v1` = bare array of series; `metrics-v2` = object with
 * `metadata` and `series` (each with `summary` = last non-null value); `metrics-v3` = v2 without
 * `summary`. Non-finite values are null; tag values keep their JSON type.
 */
import type { MplResult, MplSeries } from './result';

export type MplFormat = 'metrics-v1' | 'metrics-v2' | 'metrics-v3';

function dataJson(data: Float64Array): (number | null)[] {
  const out = new Array<number | null>(data.length);
  for (let i = 0; i < data.length; i++) out[i] = Number.isFinite(data[i]) ? data[i] : null;
  return out;
}

function lastValue(data: Float64Array): number | null {
  for (let i = data.length - 1; i >= 0; i--) if (Number.isFinite(data[i])) return data[i];
  return null;
}

function seriesJson(s: MplSeries, withSummary: boolean) {
  const base = {
    metric: s.metric,
    tags: s.tags,
    start: s.start,
    resolution: s.resolution,
    data: dataJson(s.data),
  };
  return withSummary ? { ...base, summary: lastValue(s.data) } : base;
}

export function renderMpl(result: MplResult, format: MplFormat): unknown {
  if (format === 'metrics-v1') return result.series.map((s) => seriesJson(s, false));
  const metadata = {
    group_keys: result.groupKeys,
    warnings: result.warnings,
    unit: result.unit ?? '',
    custom_unit: result.customUnit ?? '',
    ignore_unit: false,
  };
  return { metadata, series: result.series.map((s) => seriesJson(s, format === 'metrics-v2')) };
}
