/** Small hand-made series for unit specs: values chosen so expected results can be worked out by hand. */
import type { HistogramPoint, MetricSeries, MetricTagValue, MetricTags } from '@quarry/contracts';
import { MemoryMetricsSource } from './memory-metrics-source';

export function tags(plain: Record<string, string | number | boolean>): MetricTags {
  const out: Record<string, MetricTagValue> = {};
  for (const [k, v] of Object.entries(plain)) {
    out[k] =
      typeof v === 'string'
        ? { type: 'string', value: v }
        : typeof v === 'boolean'
          ? { type: 'bool', value: v }
          : Number.isInteger(v)
            ? { type: 'int', value: v }
            : { type: 'float', value: v };
  }
  return out;
}

export function scalar(
  metric: string,
  plainTags: Record<string, string | number | boolean>,
  points: [number, number][],
): MetricSeries {
  return {
    kind: 'scalar',
    metric,
    tags: tags(plainTags),
    times: Float64Array.from(points, (p) => p[0]),
    values: Float64Array.from(points, (p) => p[1]),
  };
}

export function histogram(
  metric: string,
  plainTags: Record<string, string | number | boolean>,
  temporality: 'Delta' | 'Cumulative',
  points: Omit<HistogramPoint, 'count'>[],
): MetricSeries {
  return {
    kind: 'histogram',
    metric,
    tags: tags(plainTags),
    temporality,
    points: points.map((p) => ({ ...p, count: p.counts.reduce((a, b) => a + b, 0) })),
  };
}

export function sourceOf(dataset: string, ...series: MetricSeries[]): MemoryMetricsSource {
  return new MemoryMetricsSource().add(dataset, ...series);
}
