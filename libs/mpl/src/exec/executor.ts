/**
 * Runs a parsed, param-checked MPL query over a `MetricsSource`: selects and filters series, then
 * applies the pipes in order. Queries are evaluated bottom-up; a compute evaluates both sides fully.
 */
import { QuarryError, type SourceSpan } from '@quarry/common';
import type { MetricsSource, MetricTags } from '@quarry/contracts';
import type { DurationRef, Literal, Pipe, Query, SimpleQuery, SourceNode, WhereClause } from '../syntax/ast';
import { mplError } from '../syntax/diagnostics';
import type { ParamValues } from '../syntax/params';
import { checkWindow } from '../syntax/parser';
import type { AlignFunction, GroupFunction } from '../syntax/stdlib';
import { alignValues } from './align';
import { bucketSeries } from './bucket';
import { computeFrames } from './compute';
import { compileFilter, filterMentions, type TagPredicate } from './filter';
import {
  epochGrid,
  groupKeyOf,
  gridTimes,
  HISTOGRAM_SUB_KINDS,
  HISTOGRAM_TAG,
  wholeRangeGrid,
  type Frame,
  type Grid,
  type HistogramSubKind,
  type TagMap,
  type TimeRange,
} from './frame';
import { groupScalars } from './group';
import { histogramScalars } from './histogram-scalars';
import { checkCells, checkSourceRead, limitExceeded, type MplLimits } from './limits';
import { mapArithmetic, mapFunction } from './map';
import { sortBySeries } from './series-order';
import { mergeParts, splittablePrefix, type MplOffload } from './series-split';

export interface ExecContext {
  source: MetricsSource;
  range: TimeRange;
  nowSec: number;
  params: ParamValues;
  /** Params the request supplied (for `ifdef`). */
  supplied: ReadonlySet<string>;
  limits: MplLimits;
  intervalSeconds: number;
  warnings: string[];
  pointsRead: number;
  /** Units of the source series read (metadata.unit when they agree). */
  units: Set<string>;
  /** Series read only when this says so: the share of one node of a query split over series. */
  seriesFilter?: (metric: string, tags: TagMap) => boolean;
  /** Reads the series of a simple query on several nodes (series-split.ts); absent: all here. */
  offload?: MplOffload;
  /** Each simple query's number, in `forEachSimple` order (how an offload names a part). */
  partOf?: Map<SimpleQuery, number>;
  /** Aborts the query between series. */
  signal?: AbortSignal;
}

export function datasetOf(source: SourceNode, params: ParamValues): string {
  if (source.dataset.kind === 'name') return source.dataset.name;
  const v = params.get(source.dataset.name);
  if (v?.type !== 'Dataset')
    throw mplError('mpl_param', `param $${source.dataset.name} is not a Dataset`, source.dataset.span);
  return v.name;
}

/** The source's own `[a..b]` range, or the request range. */
export function sourceRange(source: SourceNode, requestRange: TimeRange, nowSec: number): TimeRange {
  if (!source.range) return requestRange;
  const { start, end } = source.range;
  const abs = (p: NonNullable<typeof end>) => (p.kind === 'ago' ? nowSec - p.seconds : p.seconds);
  let s: number;
  let e: number;
  if (start.kind === 'modifier') {
    e = abs(end!);
    s = e + start.seconds;
    if (start.seconds > 0) [s, e] = [e, s];
  } else if (end?.kind === 'modifier') {
    s = abs(start);
    e = s + end.seconds;
    if (end.seconds < 0) [s, e] = [e, s];
  } else {
    s = abs(start);
    e = end ? abs(end) : nowSec;
  }
  if (!(e > s))
    throw mplError('mpl_invalid_value', `empty time range: end is not after start`, source.range.span);
  return { start: s, end: e };
}

/** FNV-1a over the series identity: `sample p` keeps a series iff hash / 2^32 < p (deterministic). */
function sampleHash(metric: string, tags: MetricTags): number {
  const text =
    metric +
    '\u0000' +
    JSON.stringify(
      Object.keys(tags)
        .sort()
        .map((k) => [k, tags[k].value]),
    );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}

function activeFilters(filters: WhereClause[], ctx: ExecContext): TagPredicate[] {
  return filters
    .filter((w) => !w.ifdef || ctx.supplied.has(w.ifdef.name))
    .map((w) => compileFilter(w.expr, ctx.params));
}

async function selectSource(q: SimpleQuery, ctx: ExecContext): Promise<Frame> {
  const dataset = datasetOf(q.source, ctx.params);
  const range = sourceRange(q.source, ctx.range, ctx.nowSec);
  const predicates = activeFilters(q.filters, ctx);
  const passes = (tags: TagMap) => predicates.every((p) => p(tags));
  // Filters on the synthetic histogram tag cannot run against stored tags, so they are not pushed down.
  const pushable = !q.filters.some((w) => filterMentions(w.expr, HISTOGRAM_TAG));
  const frame: Frame = { range, scalars: [], histograms: [] };
  const metricName = q.source.alias ?? q.source.metric;
  let selected = 0;
  const inShare = ctx.seriesFilter;
  const pushed = pushable && predicates.length > 0 ? (tags: TagMap) => passes(tags) : undefined;
  const iterable = ctx.source.selectSeries({
    dataset,
    metric: q.source.metric,
    start: range.start,
    end: range.end,
    tagPredicate: inShare ? (tags) => inShare(q.source.metric, tags) && (pushed?.(tags) ?? true) : pushed,
  });
  for await (const series of iterable) {
    if (ctx.signal?.aborted) throw queryAborted();
    if (inShare && !inShare(q.source.metric, series.tags)) continue;
    if (series.unit) ctx.units.add(series.unit);
    if (q.sample !== undefined && q.sample < 1 && !(sampleHash(series.metric, series.tags) < q.sample))
      continue;
    if (series.kind === 'scalar') {
      if (!passes(series.tags)) continue;
      ctx.pointsRead += series.times.length;
      frame.scalars.push({
        metric: metricName,
        tags: { ...series.tags },
        times: series.times,
        values: series.values,
        origin: { tags: series.tags, histogram: false },
      });
    } else {
      const subKinds: HistogramSubKind[] = HISTOGRAM_SUB_KINDS.filter((k) =>
        passes({ ...series.tags, [HISTOGRAM_TAG]: { type: 'string', value: k } }),
      );
      if (subKinds.length === 0) continue;
      ctx.pointsRead += series.points.length;
      frame.histograms.push({ series, metric: metricName, tags: { ...series.tags }, subKinds });
    }
    checkSourceRead(ctx.limits, ++selected, ctx.pointsRead, metricName, q.source.span);
  }
  sortBySeries(frame.scalars);
  sortBySeries(frame.histograms);
  return frame;
}

function queryAborted(): QuarryError {
  return new QuarryError('unavailable', 'query aborted', { code: 'query_aborted' });
}

/** Histograms become scalar `axiom.histogram` sub-series before any scalar stage. */
function expandHistograms(frame: Frame): void {
  if (frame.histograms.length === 0) return;
  for (const h of frame.histograms) frame.scalars.push(...histogramScalars(h));
  frame.histograms = [];
}

function windowSeconds(ref: DurationRef, ctx: ExecContext): number {
  if (ref.kind === 'seconds') return ref.seconds;
  const v = ctx.params.get(ref.name);
  if (v?.type !== 'Duration') throw mplError('mpl_param', `param $${ref.name} is not a Duration`, ref.span);
  checkWindow(v.seconds, v.text, ref.span);
  return v.seconds;
}

function gridFor(window: DurationRef | undefined, frame: Frame, ctx: ExecContext, span: SourceSpan): Grid {
  const grid = window ? epochGrid(frame.range, windowSeconds(window, ctx)) : wholeRangeGrid(frame.range);
  if (grid.length > ctx.limits.maxSlotsPerSeries) {
    limitExceeded(
      'windows per series',
      ctx.limits.maxSlotsPerSeries,
      'use a larger window or a shorter range',
      span,
    );
  }
  return grid;
}

/** Re-samples every scalar onto `grid`. */
function align(frame: Frame, grid: Grid, fn: AlignFunction, ctx: ExecContext, span?: SourceSpan): void {
  checkCells(ctx.limits, frame.scalars.length, grid.length, span);
  const times = gridTimes(grid);
  for (const s of frame.scalars) {
    s.values = alignValues(s.times, s.values, grid, fn);
    s.times = times;
  }
  frame.grid = grid;
}

/** Group and output need a grid; unaligned input is aligned with `$__interval` / avg (mpl.md §2.3). */
export function ensureGrid(frame: Frame, ctx: ExecContext, stage: string): Grid {
  if (frame.grid) return frame.grid;
  const grid = epochGrid(frame.range, ctx.intervalSeconds);
  ctx.warnings.push(`${stage} before any align: aligned to $__interval (${ctx.intervalSeconds}s) using avg`);
  align(frame, grid, 'avg', ctx);
  return grid;
}

function interpolateTag(value: Literal, tags: TagMap, ctx: ExecContext) {
  if (value.kind !== 'string') return { type: value.kind, value: value.value } as TagMap[string];
  const text = value.value.replace(/\$\{([^}]+)\}/g, (_m, name: string) => {
    const tag = tags[name];
    if (tag) return String(tag.value);
    const p = ctx.params.get(name);
    if (p && 'value' in p) return String(p.value);
    if (p?.type === 'Dataset') return p.name;
    if (p?.type === 'Duration') return p.text;
    return '';
  });
  return { type: 'string', value: text } as TagMap[string];
}

function applyPipe(frame: Frame, pipe: Pipe, ctx: ExecContext): void {
  switch (pipe.kind) {
    case 'as':
      for (const s of frame.scalars) s.metric = pipe.name;
      for (const h of frame.histograms) h.metric = pipe.name;
      return;
    case 'extend': {
      const extendTags = (tags: TagMap): TagMap => {
        const out = { ...tags };
        for (const { name, value } of pipe.tags) {
          if (tags[name])
            throw mplError(
              'mpl_invalid_value',
              `extend: tag "${name}" already exists on a series`,
              pipe.span,
            );
          out[name] = interpolateTag(value, tags, ctx);
        }
        return out;
      };
      for (const s of frame.scalars) s.tags = extendTags(s.tags);
      for (const h of frame.histograms) h.tags = extendTags(h.tags);
      return;
    }
    case 'map':
      expandHistograms(frame);
      for (const s of frame.scalars) {
        s.values =
          pipe.op === 'func'
            ? mapFunction(s.times, s.values, pipe.name, pipe.arg)
            : mapArithmetic(s.values, pipe.op, pipe.operand);
      }
      return;
    case 'align':
      expandHistograms(frame);
      align(frame, gridFor(pipe.window, frame, ctx, pipe.span), pipe.using as AlignFunction, ctx, pipe.span);
      return;
    case 'group': {
      expandHistograms(frame);
      const grid = ensureGrid(frame, ctx, 'group');
      const by = pipe.by ?? [];
      frame.scalars = groupScalars(frame.scalars, grid, gridTimes(grid), by, pipe.using as GroupFunction);
      frame.groupKeys = by;
      return;
    }
    case 'bucket': {
      const grid = gridFor(pipe.window, frame, ctx, pipe.span);
      const by = pipe.by ?? [];
      // One accumulator per group, and one output series per group and spec, each a grid long.
      const groups = new Set([...frame.scalars, ...frame.histograms].map((s) => groupKeyOf(s.tags, by)));
      checkCells(ctx.limits, groups.size * (pipe.call.specs.length + 1), grid.length, pipe.span);
      frame.scalars = bucketSeries(frame, grid, gridTimes(grid), by, pipe.call, ctx.warnings);
      frame.histograms = [];
      frame.grid = grid;
      frame.groupKeys = [...by, 'spec'];
      return;
    }
  }
}

export async function executeQuery(q: Query, ctx: ExecContext): Promise<Frame> {
  let frame: Frame;
  if (q.kind === 'compute') {
    const left = await executeQuery(q.left, ctx);
    const right = await executeQuery(q.right, ctx);
    expandHistograms(left);
    expandHistograms(right);
    frame = computeFrames(left, right, q.name, q.op);
    for (const pipe of q.pipes) applyPipe(frame, pipe, ctx);
    return frame;
  }
  const prefix = splittablePrefix(q.pipes);
  const parts =
    prefix > 0 && ctx.offload
      ? ctx.offload.split(
          ctx.partOf!.get(q)!,
          { dataset: datasetOf(q.source, ctx.params), metric: q.source.metric },
          ctx.signal,
        )
      : null;
  if (parts) {
    frame = mergeParts(await parts, q, sourceRange(q.source, ctx.range, ctx.nowSec), ctx);
  } else {
    frame = await selectSource(q, ctx);
  }
  for (const pipe of q.pipes.slice(parts ? prefix : 0)) applyPipe(frame, pipe, ctx);
  return frame;
}

/** A simple query's source and its series-local pipes up to `prefix` (series-split.ts), here. */
export async function executePart(
  q: SimpleQuery,
  prefix: number,
  ctx: ExecContext,
): Promise<{ frame: Frame; selected: number }> {
  const frame = await selectSource(q, ctx);
  const selected = frame.scalars.length + frame.histograms.length;
  for (const pipe of q.pipes.slice(0, prefix)) applyPipe(frame, pipe, ctx);
  return { frame, selected };
}

export { expandHistograms };
