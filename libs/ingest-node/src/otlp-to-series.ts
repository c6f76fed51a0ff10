import type { HistogramPoint, MetricTags, MetricTagValue, MetricTemporality } from '@quarry/contracts';
import { canonicalTags, type IncomingSeries, type MetricMeta } from '@quarry/metrics-store';
import type { OtlpRequestJson } from './otlp-codec';

/** Axiom's limits (mpl.md §1.1): violations reject the point, not the request. */
export const OTLP_LIMITS = { metricNameBytes: 256, attributeKeyBytes: 256, attributeValueBytes: 1024 };

export interface OtlpConversion {
  series: IncomingSeries[];
  /** Points accepted (a histogram or summary point counts once). */
  accepted: number;
  rejected: number;
  /** Distinct reasons for rejected points, for `partial_success.error_message`. */
  errors: string[];
}

type Json = Record<string, unknown>;
const NO_RECORDED_VALUE = 1;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Flattens an OTLP export request into series (mpl.md §1.2): resource, scope and point attributes merged
 * into one typed tag map (point > scope > resource), timestamps truncated to whole seconds, gauges and
 * sums as scalar series, explicit-bounds histograms as histogram series, summaries as scalar sub-series.
 * Exponential histograms and points over the name/attribute limits are counted as rejected.
 */
export function otlpToSeries(request: OtlpRequestJson): OtlpConversion {
  const out = new SeriesCollector();
  for (const rm of arr(request.resourceMetrics)) {
    const resourceTags = tagsOf(obj(obj(rm).resource).attributes);
    for (const sm of arr(obj(rm).scopeMetrics)) {
      const scopeTags = mergeTags(resourceTags, tagsOf(obj(obj(sm).scope).attributes));
      for (const m of arr(obj(sm).metrics)) convertMetric(obj(m), scopeTags, out);
    }
  }
  return { series: out.list(), accepted: out.accepted, rejected: out.rejected, errors: [...out.errors] };
}

function convertMetric(metric: Json, baseTags: TagSet, out: SeriesCollector): void {
  const name = typeof metric.name === 'string' ? metric.name : '';
  const unit = typeof metric.unit === 'string' && metric.unit !== '' ? metric.unit : null;
  const kind = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'].find(
    (k) => metric[k] !== undefined,
  );
  const data = kind ? obj(metric[kind]) : {};
  const points = arr(data.dataPoints).map(obj);
  if (!kind) return;
  if (name === '' || bytes(name) > OTLP_LIMITS.metricNameBytes) {
    out.reject(
      points.length,
      name === '' ? 'metric name is empty' : `metric name longer than ${OTLP_LIMITS.metricNameBytes} bytes`,
    );
    return;
  }
  if (kind === 'exponentialHistogram') {
    out.reject(points.length, `exponential histograms are not supported (metric "${name}")`);
    return;
  }
  const temporality = temporalityOf(data.aggregationTemporality);
  for (const point of points) {
    const merged = mergeTags(baseTags, tagsOf(point.attributes));
    if (merged.tooLong) {
      out.reject(1, merged.tooLong);
      continue;
    }
    const tags = merged.tags;
    if ((Number(point.flags ?? 0) & NO_RECORDED_VALUE) !== 0) continue;
    const time = secondsOf(point.timeUnixNano);
    if (time === null) {
      out.reject(1, 'data point without time_unix_nano');
      continue;
    }
    if (kind === 'gauge' || kind === 'sum') {
      const meta: MetricMeta =
        kind === 'gauge'
          ? { type: 'Gauge', temporality: null, unit }
          : { type: data.isMonotonic ? 'CounterMonotonic' : 'CounterNonMonotonic', temporality, unit };
      const value =
        point.asDouble !== undefined
          ? Number(point.asDouble)
          : point.asInt !== undefined
            ? Number(point.asInt)
            : NaN;
      out.scalar(name, tags, meta, time, value);
    } else if (kind === 'histogram') {
      const histogram = histogramPoint(point, time);
      if (!histogram) {
        out.reject(
          1,
          `histogram point of "${name}" has ${arr(point.bucketCounts).length} bucket counts for ${arr(point.explicitBounds).length} bounds`,
        );
        continue;
      }
      out.histogram(name, tags, { type: 'Histogram', temporality, unit }, histogram);
    } else {
      summaryPoint(name, tags, { type: 'Summary', temporality: null, unit }, point, time, out);
    }
  }
}

function histogramPoint(point: Json, time: number): HistogramPoint | null {
  const bounds = arr(point.explicitBounds).map(Number);
  let counts = arr(point.bucketCounts).map(Number);
  if (counts.length === 0) counts = new Array<number>(bounds.length + 1).fill(0);
  if (counts.length !== bounds.length + 1) return null;
  const optional = (v: unknown) => (v === undefined || v === null ? null : Number(v));
  return {
    time,
    count: Number(point.count ?? 0),
    sum: point.sum === undefined || point.sum === null ? NaN : Number(point.sum),
    min: optional(point.min),
    max: optional(point.max),
    bounds,
    counts,
  };
}

/** A summary becomes `axiom.histogram=count|sum` series plus one series per quantile (tag `quantile`). */
function summaryPoint(
  name: string,
  tags: Tags,
  meta: MetricMeta,
  point: Json,
  time: number,
  out: SeriesCollector,
): void {
  out.scalar(
    name,
    { ...tags, 'axiom.histogram': { type: 'string', value: 'count' } },
    meta,
    time,
    Number(point.count ?? 0),
    false,
  );
  out.scalar(
    name,
    { ...tags, 'axiom.histogram': { type: 'string', value: 'sum' } },
    meta,
    time,
    Number(point.sum ?? 0),
    false,
  );
  for (const q of arr(point.quantileValues).map(obj)) {
    const quantile: MetricTagValue = { type: 'float', value: Number(q.quantile ?? 0) };
    out.scalar(name, { ...tags, quantile }, meta, time, Number(q.value ?? NaN), false);
  }
  out.accepted++;
}

type Tags = Record<string, MetricTagValue>;

/** Typed tags, and the first limit an attribute broke (its points are rejected). */
interface TagSet {
  tags: Tags;
  tooLong: string | null;
}

/** `over` wins on a key clash (point > scope > resource). */
function mergeTags(base: TagSet, over: TagSet): TagSet {
  return { tags: { ...base.tags, ...over.tags }, tooLong: base.tooLong ?? over.tooLong };
}

function tagsOf(attributes: unknown): TagSet {
  const tags: Tags = {};
  let tooLong: string | null = null;
  for (const kv of arr(attributes).map(obj)) {
    const key = typeof kv.key === 'string' ? kv.key : '';
    if (key === '') continue;
    const value = tagValueOf(obj(kv.value));
    if (!value) continue; // bytes, arrays and maps are dropped (mpl.md §1.2)
    if (bytes(key) > OTLP_LIMITS.attributeKeyBytes)
      tooLong ??= `attribute key longer than ${OTLP_LIMITS.attributeKeyBytes} bytes`;
    else if (value.type === 'string' && bytes(value.value) > OTLP_LIMITS.attributeValueBytes)
      tooLong ??= `attribute "${key}" has a value longer than ${OTLP_LIMITS.attributeValueBytes} bytes`;
    tags[key] = value;
  }
  return { tags, tooLong };
}

function tagValueOf(v: Json): MetricTagValue | null {
  if (typeof v.stringValue === 'string') return { type: 'string', value: v.stringValue };
  if (typeof v.boolValue === 'boolean') return { type: 'bool', value: v.boolValue };
  if (v.intValue !== undefined && v.intValue !== null) return { type: 'int', value: Number(v.intValue) };
  if (v.doubleValue !== undefined && v.doubleValue !== null)
    return { type: 'float', value: Number(v.doubleValue) };
  return null;
}

function temporalityOf(value: unknown): MetricTemporality {
  return value === 1 || value === 'AGGREGATION_TEMPORALITY_DELTA' ? 'Delta' : 'Cumulative';
}

/** Whole unix seconds from a nanosecond timestamp (string, number or absent). */
function secondsOf(nanos: unknown): number | null {
  if (nanos === undefined || nanos === null || nanos === '' || nanos === 0 || nanos === '0') return null;
  try {
    const n = BigInt(typeof nanos === 'number' ? Math.trunc(nanos) : String(nanos));
    return n <= 0n ? null : Number(n / 1_000_000_000n);
  } catch {
    return null;
  }
}

/** Groups points by series (metric + canonical tags). */
class SeriesCollector {
  private readonly series = new Map<string, IncomingSeries>();
  accepted = 0;
  rejected = 0;
  readonly errors = new Set<string>();

  reject(points: number, reason: string): void {
    if (points <= 0) return;
    this.rejected += points;
    this.errors.add(reason);
  }

  scalar(
    metric: string,
    tags: MetricTags,
    meta: MetricMeta,
    time: number,
    value: number,
    count = true,
  ): void {
    const key = `${metric}\0${canonicalTags(tags)}`;
    let s = this.series.get(key);
    if (!s || s.kind !== 'scalar') {
      s = { metric, tags, meta, kind: 'scalar', times: [], values: [] };
      this.series.set(key, s);
    }
    s.times.push(time);
    s.values.push(Number.isFinite(value) ? value : NaN);
    if (count) this.accepted++;
  }

  histogram(metric: string, tags: MetricTags, meta: MetricMeta, point: HistogramPoint): void {
    const key = `${metric}\0${canonicalTags(tags)}`;
    let s = this.series.get(key);
    if (!s || s.kind !== 'histogram') {
      s = { metric, tags, meta, kind: 'histogram', points: [] };
      this.series.set(key, s);
    }
    s.points.push(point);
    this.accepted++;
  }

  list(): IncomingSeries[] {
    return [...this.series.values()];
  }
}
