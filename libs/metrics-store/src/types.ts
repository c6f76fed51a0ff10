import type { HistogramPoint, MetricTags, MetricTemporality, MetricType } from '@quarry/contracts';

/** What the info endpoint reports per metric; `temporality` is null where it does not apply (gauges). */
export interface MetricMeta {
  readonly type: MetricType;
  readonly temporality: MetricTemporality | null;
  readonly unit: string | null;
}

/** Points of one series as received (times in unix seconds, in any order; NaN is a gap). */
export type IncomingSeries =
  | {
      readonly metric: string;
      readonly tags: MetricTags;
      readonly meta: MetricMeta;
      readonly kind: 'scalar';
      readonly times: number[];
      readonly values: number[];
    }
  | {
      readonly metric: string;
      readonly tags: MetricTags;
      readonly meta: MetricMeta;
      readonly kind: 'histogram';
      readonly points: HistogramPoint[];
    };

/** One acknowledged ingest request of a metrics dataset: the payload of one metrics-log record. */
export interface MetricsBatch {
  readonly datasetId: string;
  readonly series: readonly IncomingSeries[];
}
