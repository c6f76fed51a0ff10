/**
 * Loads the conformance corpus's points.json (format `mpl-corpus-points/1`) into a MemoryMetricsSource
 * the way OTLP ingest stores it (test/conformance/mpl/send.mjs): resource and point attributes merged
 * (point wins), JS strings → string tags, booleans → bool, integral numbers → int, other numbers →
 * float; timestamps are the whole second `t` (the wire adds sub-second nanoseconds that ingest
 * truncates); histogram points keep bounds and per-bucket counts.
 */
import type { HistogramPoint, MetricSeries, MetricTagValue, MetricTags } from '@quarry/contracts';
import { MemoryMetricsSource } from './memory-metrics-source';

interface CorpusMetric {
  name: string;
  kind: 'sum' | 'gauge' | 'histogram';
  temporality?: 'cumulative' | 'delta';
  bounds?: number[];
  pointFields: string[];
  series: { resource: Record<string, unknown>; attributes: Record<string, unknown>; points: unknown[][] }[];
}

export interface CorpusPoints {
  dataset: string;
  metrics: CorpusMetric[];
}

function tagOf(v: unknown): MetricTagValue | undefined {
  if (typeof v === 'string') return { type: 'string', value: v };
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  if (typeof v === 'number')
    return Number.isInteger(v) ? { type: 'int', value: v } : { type: 'float', value: v };
  return undefined;
}

function tagsOf(resource: Record<string, unknown>, attributes: Record<string, unknown>): MetricTags {
  const out: Record<string, MetricTagValue> = {};
  for (const [k, v] of [...Object.entries(resource), ...Object.entries(attributes)]) {
    const tag = tagOf(v);
    if (tag) out[k] = tag;
  }
  return out;
}

export function corpusSource(points: CorpusPoints, dataset = points.dataset): MemoryMetricsSource {
  const source = new MemoryMetricsSource();
  for (const m of points.metrics) {
    const field = (name: string) => m.pointFields.indexOf(name);
    const [ti, vi] = [field('t'), field('value')];
    for (const s of m.series) {
      const tags = tagsOf(s.resource, s.attributes);
      let series: MetricSeries;
      if (m.kind === 'histogram') {
        const [ci, si, bi, mi, xi] = ['count', 'sum', 'buckets', 'min', 'max'].map(field);
        const hp: HistogramPoint[] = s.points.map((p) => ({
          time: p[ti] as number,
          count: p[ci] as number,
          sum: p[si] as number,
          min: (p[mi] as number | null) ?? null,
          max: (p[xi] as number | null) ?? null,
          bounds: m.bounds!,
          counts: p[bi] as number[],
        }));
        series = {
          kind: 'histogram',
          metric: m.name,
          tags,
          temporality: m.temporality === 'delta' ? 'Delta' : 'Cumulative',
          points: hp,
        };
      } else {
        series = {
          kind: 'scalar',
          metric: m.name,
          tags,
          times: Float64Array.from(s.points, (p) => p[ti] as number),
          values: Float64Array.from(s.points, (p) => p[vi] as number),
        };
      }
      source.add(dataset, series);
    }
  }
  return source;
}
