import type { MetricTagValue } from '@quarry/contracts';
import { isActive, type SeriesCatalog, type SeriesEntry, type Window } from './series-catalog';
import type { MetricMeta } from './types';

/**
 * Discovery over the series catalog (the metrics info endpoints, mpl.md §1.4). With a window, only
 * series with points inside it count (a series' first..last point range overlaps the window).
 * Results are sorted so responses are stable.
 */
export class MetricsInfo {
  constructor(private readonly catalog: SeriesCatalog) {}

  hasMetric(datasetId: string, metric: string): boolean {
    return this.catalog.metric(datasetId, metric) !== undefined;
  }

  /** Metric name → metadata, for metrics with an active series. */
  metrics(datasetId: string, window?: Window): [string, MetricMeta][] {
    const dataset = this.catalog.dataset(datasetId);
    if (!dataset) return [];
    const out: [string, MetricMeta][] = [];
    for (const [name, entry] of dataset.metrics) {
      if (anyActive(entry.series.values(), window)) out.push([name, entry.meta]);
    }
    return out.sort(([a], [b]) => compare(a, b));
  }

  /** Metric → tags whose value equals `value` (strings match strings, numbers match ints and floats). */
  findMetrics(
    datasetId: string,
    value: string | number | boolean,
    window?: Window,
  ): Record<string, string[]> {
    const dataset = this.catalog.dataset(datasetId);
    const found = new Map<string, Set<string>>();
    if (!dataset) return {};
    const key =
      typeof value === 'number' ? `n:${value}` : typeof value === 'boolean' ? `b:${value}` : `s:${value}`;
    for (const [tag, values] of dataset.tagIndex) {
      const hit = values.get(key);
      if (!hit) continue;
      for (const series of hit.series) {
        if (!isActive(series, window)) continue;
        const tags = found.get(series.metric) ?? new Set<string>();
        tags.add(tag);
        found.set(series.metric, tags);
      }
    }
    const out: Record<string, string[]> = {};
    for (const metric of [...found.keys()].sort(compare)) out[metric] = [...found.get(metric)!].sort(compare);
    return out;
  }

  /** Tag names of one metric's active series; null when the metric is unknown. */
  metricTags(datasetId: string, metric: string, window?: Window): string[] | null {
    const entry = this.catalog.metric(datasetId, metric);
    if (!entry) return null;
    const tags = new Set<string>();
    for (const series of entry.series.values()) {
      if (isActive(series, window)) for (const tag of Object.keys(series.tags)) tags.add(tag);
    }
    return [...tags].sort(compare);
  }

  /** Whether any series of the metric (at any time) carries the tag. */
  metricHasTag(datasetId: string, metric: string, tag: string): boolean {
    const entry = this.catalog.metric(datasetId, metric);
    if (!entry) return false;
    for (const series of entry.series.values()) if (tag in series.tags) return true;
    return false;
  }

  /** Distinct typed values of a tag over one metric's active series. */
  metricTagValues(datasetId: string, metric: string, tag: string, window?: Window): MetricTagValue[] {
    const entry = this.catalog.metric(datasetId, metric);
    if (!entry) return [];
    return distinct(
      [...entry.series.values()]
        .filter((s) => isActive(s, window))
        .flatMap((s) => (tag in s.tags ? [s.tags[tag]] : [])),
    );
  }

  /** Tag names across the dataset's active series. */
  datasetTags(datasetId: string, window?: Window): string[] {
    const dataset = this.catalog.dataset(datasetId);
    if (!dataset) return [];
    const out: string[] = [];
    for (const [tag, values] of dataset.tagIndex) {
      if ([...values.values()].some((v) => anyActive(v.series, window))) out.push(tag);
    }
    return out.sort(compare);
  }

  datasetHasTag(datasetId: string, tag: string): boolean {
    return this.catalog.dataset(datasetId)?.tagIndex.has(tag) ?? false;
  }

  /** Distinct typed values of a tag across the dataset's active series. */
  datasetTagValues(datasetId: string, tag: string, window?: Window): MetricTagValue[] {
    const values = this.catalog.dataset(datasetId)?.tagIndex.get(tag);
    if (!values) return [];
    return distinct([...values.values()].filter((v) => anyActive(v.series, window)).map((v) => v.value));
  }
}

function anyActive(series: Iterable<SeriesEntry>, window: Window | undefined): boolean {
  for (const s of series) if (isActive(s, window)) return true;
  return false;
}

function distinct(values: MetricTagValue[]): MetricTagValue[] {
  const seen = new Map<string, MetricTagValue>();
  for (const v of values) seen.set(`${v.type}:${String(v.value)}`, v);
  return [...seen.values()].sort((a, b) =>
    typeof a.value === 'number' && typeof b.value === 'number'
      ? a.value - b.value
      : compare(String(a.value), String(b.value)),
  );
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
