/**
 * In-memory `MetricsSource` for tests and golden files: holds series per dataset and answers
 * selections exactly as the store contract says (series with at least one point in `[start, end)`,
 * only those points; unknown dataset → not_found; unknown metric → nothing).
 */
import { notFound } from '@quarry/common';
import type { MetricSelection, MetricSeries, MetricsSource } from '@quarry/contracts';

export class MemoryMetricsSource implements MetricsSource {
  private readonly datasets = new Map<string, MetricSeries[]>();
  /** Selections received, so tests can check pushdown. */
  readonly selections: MetricSelection[] = [];

  add(dataset: string, ...series: MetricSeries[]): this {
    const list = this.datasets.get(dataset) ?? [];
    list.push(...series);
    this.datasets.set(dataset, list);
    return this;
  }

  async *selectSeries(selection: MetricSelection): AsyncIterable<MetricSeries> {
    this.selections.push(selection);
    const all = this.datasets.get(selection.dataset);
    if (!all) throw notFound(`dataset ${selection.dataset} not found`);
    for (const s of all) {
      if (s.metric !== selection.metric) continue;
      if (selection.tagPredicate && !selection.tagPredicate(s.tags)) continue;
      const cut = slice(s, selection.start, selection.end);
      if (cut) yield cut;
    }
  }
}

function slice(s: MetricSeries, start: number, end: number): MetricSeries | undefined {
  if (s.kind === 'histogram') {
    const points = s.points.filter((p) => p.time >= start && p.time < end);
    return points.length > 0 ? { ...s, points } : undefined;
  }
  let lo = 0;
  while (lo < s.times.length && s.times[lo] < start) lo++;
  let hi = lo;
  while (hi < s.times.length && s.times[hi] < end) hi++;
  if (hi === lo) return undefined;
  return { ...s, times: s.times.subarray(lo, hi), values: s.values.subarray(lo, hi) };
}
