/**
 * The executor's working set. Scalars carry parallel `times`/`values` arrays (NaN = gap); after an
 * `align`/`bucket` every scalar of the frame shares one `grid` and one `times` array (the slot starts),
 * so later stages need no special case for gridded data. Histograms stay whole until a stage needs
 * scalars (then they become `axiom.histogram` sub-series) or a `bucket` consumes them.
 */
import type { HistogramSeries, MetricTagValue } from '@quarry/contracts';

/** A tag map; `null` marks a group-by tag the series did not have. */
export type TagMap = Record<string, MetricTagValue | null>;

export interface Grid {
  /** Unix seconds of slot 0. */
  readonly start: number;
  readonly resolution: number;
  readonly length: number;
}

export interface Scalar {
  metric: string;
  tags: TagMap;
  times: Float64Array;
  values: Float64Array;
  /**
   * The stored series it came from (its tags before any `extend`), and whether it is a histogram's
   * sub-series: what orders the parts of a query split over series (series-split.ts).
   */
  origin?: { tags: TagMap; histogram: boolean };
}

export interface HistogramInput {
  series: HistogramSeries;
  metric: string;
  tags: TagMap;
  /** The `axiom.histogram` sub-series that passed the filters (count, sum, min, max). */
  subKinds: HistogramSubKind[];
}

export type HistogramSubKind = 'count' | 'sum' | 'min' | 'max';
export const HISTOGRAM_SUB_KINDS: readonly HistogramSubKind[] = ['count', 'sum', 'min', 'max'];
export const HISTOGRAM_TAG = 'axiom.histogram';

export interface TimeRange {
  /** Inclusive unix seconds. */
  readonly start: number;
  /** Exclusive unix seconds. */
  readonly end: number;
}

export interface Frame {
  range: TimeRange;
  grid?: Grid;
  scalars: Scalar[];
  histograms: HistogramInput[];
  /** Tags of the last group/bucket (v2 `metadata.group_keys`). */
  groupKeys?: string[];
}

/** The epoch-aligned grid of windows of `d` seconds that intersect `range` (README "Time model"). */
export function epochGrid(range: TimeRange, d: number): Grid {
  const start = Math.floor(range.start / d) * d;
  const length = range.end > range.start ? Math.ceil((range.end - start) / d) : 0;
  return { start, resolution: d, length };
}

/** One window over the whole range (`align using f` without `to`). */
export function wholeRangeGrid(range: TimeRange): Grid {
  const resolution = Math.max(1, range.end - range.start);
  return { start: range.start, resolution, length: range.end > range.start ? 1 : 0 };
}

export function gridTimes(grid: Grid): Float64Array {
  const times = new Float64Array(grid.length);
  for (let i = 0; i < grid.length; i++) times[i] = grid.start + i * grid.resolution;
  return times;
}

export function sameGrid(a: Grid | undefined, b: Grid | undefined): boolean {
  return !!a && !!b && a.start === b.start && a.resolution === b.resolution && a.length === b.length;
}

/** Canonical key of a tag map: sorted keys, typed values, null tags left out (they mean "absent"). */
export function tagKey(tags: TagMap): string {
  const keys = Object.keys(tags)
    .filter((k) => tags[k] !== null)
    .sort();
  return JSON.stringify(keys.map((k) => [k, tags[k]!.type, tags[k]!.value]));
}

/** Key of the values of `by` tags (a missing tag is its own value). */
export function groupKeyOf(tags: TagMap, by: readonly string[]): string {
  return JSON.stringify(by.map((k) => (tags[k] ? [tags[k]!.type, tags[k]!.value] : null)));
}

export function pickTags(tags: TagMap, by: readonly string[]): TagMap {
  const out: TagMap = {};
  for (const k of by) out[k] = tags[k] ?? null;
  return out;
}

export function hasValue(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) return true;
  return false;
}
