/**
 * The metrics data model shared by the series store (writer and reader) and the MPL engine
 * (docs/metrics.md). A series is identified by (dataset, metric name, full tag set); timestamps are
 * whole Unix seconds (OTLP nanoseconds are truncated on ingest).
 */

/** A tag keeps its OTel type: MPL's `is string|int|float|bool` and typed comparisons depend on it. */
export type MetricTagValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean };

export type MetricTags = Readonly<Record<string, MetricTagValue>>;

/** The metric kinds the metrics-info endpoint reports (mpl.md §1.2). */
export type MetricType = 'Gauge' | 'CounterMonotonic' | 'CounterNonMonotonic' | 'Histogram' | 'Summary';
export type MetricTemporality = 'Cumulative' | 'Delta';

/** A plain numeric series: parallel arrays, `times` ascending and unique; NaN in `values` is a gap. */
export interface ScalarSeries {
  readonly kind: 'scalar';
  readonly metric: string;
  readonly tags: MetricTags;
  /** The metric's UCUM unit from OTLP (`ms`, `By`), when known. */
  readonly unit?: string | null;
  readonly times: Float64Array;
  readonly values: Float64Array;
}

/** One explicit-bounds histogram point: `counts.length === bounds.length + 1` (the last bucket is +Inf). */
export interface HistogramPoint {
  readonly time: number;
  readonly count: number;
  readonly sum: number;
  readonly min: number | null;
  readonly max: number | null;
  readonly bounds: readonly number[];
  readonly counts: readonly number[];
}

/**
 * A histogram series as stored. The MPL engine derives the `axiom.histogram = count|sum|min|max` scalar
 * sub-series from it when a query needs scalars.
 */
export interface HistogramSeries {
  readonly kind: 'histogram';
  readonly metric: string;
  readonly tags: MetricTags;
  /** The metric's UCUM unit from OTLP, when known. */
  readonly unit?: string | null;
  readonly temporality: MetricTemporality;
  /** Ascending by `time`, unique times. */
  readonly points: readonly HistogramPoint[];
}

export type MetricSeries = ScalarSeries | HistogramSeries;

export interface MetricSelection {
  readonly dataset: string;
  readonly metric: string;
  /** Unix seconds, inclusive. */
  readonly start: number;
  /** Unix seconds, exclusive. */
  readonly end: number;
  /**
   * A pushdown hint: the store may skip series for which this returns false (it is called with the
   * stored tags, without the synthetic `axiom.histogram` tag). The engine filters again either way.
   */
  readonly tagPredicate?: (tags: MetricTags) => boolean;
}

/**
 * Read side of the series store, as the MPL engine sees it. Returns every series of the metric with
 * at least one point in `[start, end)`, with only the points inside that range. An unknown dataset is
 * a `not_found` QuarryError; an unknown metric yields nothing.
 */
export interface MetricsSource {
  selectSeries(selection: MetricSelection): AsyncIterable<MetricSeries>;
}

/** A tag value in JSON output: ints and floats as numbers, strings, bools. */
export function metricTagJson(tag: MetricTagValue): string | number | boolean {
  return tag.value;
}
