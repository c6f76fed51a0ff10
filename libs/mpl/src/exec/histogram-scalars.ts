/**
 * A histogram series seen by a scalar stage (map, align, group, compute, output) becomes its
 * `axiom.histogram = count|sum|min|max` sub-series (mpl.md §1.2 [our design]), values as stored
 * (cumulative for cumulative histograms). Sub-series without any value (min/max never sent) vanish.
 */
import { HISTOGRAM_TAG, hasValue, type HistogramInput, type Scalar } from './frame';

export function histogramScalars(input: HistogramInput): Scalar[] {
  const points = input.series.points;
  const times = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) times[i] = points[i].time;
  const out: Scalar[] = [];
  for (const kind of input.subKinds) {
    const values = new Float64Array(points.length);
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      const v = kind === 'count' ? p.count : kind === 'sum' ? p.sum : kind === 'min' ? p.min : p.max;
      values[i] = v === null || !Number.isFinite(v) ? NaN : v;
    }
    if (!hasValue(values)) continue;
    out.push({
      metric: input.metric,
      tags: { ...input.tags, [HISTOGRAM_TAG]: { type: 'string', value: kind } },
      times,
      values,
      origin: { tags: input.series.tags, histogram: true },
    });
  }
  return out;
}
