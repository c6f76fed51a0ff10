import type { MetricTags, MetricTagValue } from '@quarry/contracts';
import { tagValueKey } from './series-key';
import type { MetricMeta } from './types';

/** One series as the catalog knows it. `minTime`/`maxTime` (unix s) cover every acknowledged point. */
export interface SeriesEntry {
  readonly id: string;
  readonly metric: string;
  readonly tags: MetricTags;
  minTime: number;
  maxTime: number;
}

export interface MetricEntry {
  meta: MetricMeta;
  readonly series: Map<string, SeriesEntry>;
}

/** Tag → value → series: the inverted index behind find-metrics and the tag(-value) endpoints. */
export type TagIndex = Map<string, Map<string, { value: MetricTagValue; series: Set<SeriesEntry> }>>;

export interface DatasetSeries {
  readonly metrics: Map<string, MetricEntry>;
  readonly tagIndex: TagIndex;
}

/** A half-open window in unix seconds; `undefined` means "any time". */
export interface Window {
  start: number;
  end: number;
}

export const isActive = (series: SeriesEntry, window: Window | undefined): boolean =>
  !window || (series.minTime < window.end && series.maxTime >= window.start);

/**
 * The in-memory series catalog of every metrics dataset: the persisted catalog plus series seen in the
 * not-yet-compacted tail. Updated synchronously on ingest, so the info endpoints read their own writes.
 */
export class SeriesCatalog {
  private readonly datasets = new Map<string, DatasetSeries>();
  private total = 0;

  get seriesCount(): number {
    return this.total;
  }

  dataset(datasetId: string): DatasetSeries | undefined {
    return this.datasets.get(datasetId);
  }

  metric(datasetId: string, metric: string): MetricEntry | undefined {
    return this.datasets.get(datasetId)?.metrics.get(metric);
  }

  setMeta(datasetId: string, metric: string, meta: MetricMeta): void {
    this.metricEntry(datasetId, metric, meta).meta = meta;
  }

  /** Adds the series (or widens its time range) and indexes its tags. */
  upsert(
    datasetId: string,
    metric: string,
    meta: MetricMeta,
    id: string,
    tags: MetricTags,
    minTime: number,
    maxTime: number,
  ): SeriesEntry {
    const entry = this.metricEntry(datasetId, metric, meta);
    const existing = entry.series.get(id);
    if (existing) {
      existing.minTime = Math.min(existing.minTime, minTime);
      existing.maxTime = Math.max(existing.maxTime, maxTime);
      return existing;
    }
    const series: SeriesEntry = { id, metric, tags, minTime, maxTime };
    entry.series.set(id, series);
    this.total++;
    const index = this.datasets.get(datasetId)!.tagIndex;
    for (const [key, value] of Object.entries(tags)) {
      let values = index.get(key);
      if (!values) index.set(key, (values = new Map()));
      const valueKey = tagValueKey(value);
      let bucket = values.get(valueKey);
      if (!bucket) values.set(valueKey, (bucket = { value, series: new Set() }));
      bucket.series.add(series);
    }
    return series;
  }

  dropDataset(datasetId: string): void {
    const dataset = this.datasets.get(datasetId);
    if (!dataset) return;
    for (const entry of dataset.metrics.values()) this.total -= entry.series.size;
    this.datasets.delete(datasetId);
  }

  private metricEntry(datasetId: string, metric: string, meta: MetricMeta): MetricEntry {
    let dataset = this.datasets.get(datasetId);
    if (!dataset) this.datasets.set(datasetId, (dataset = { metrics: new Map(), tagIndex: new Map() }));
    let entry = dataset.metrics.get(metric);
    if (!entry) dataset.metrics.set(metric, (entry = { meta, series: new Map() }));
    return entry;
  }
}
