/**
 * An MPL query split over series (issue 14): a simple query's source and its leading series-local pipes
 * (`as`, `extend`, `map`, `align` — each series on its own) up to its last such `align` run on several
 * nodes, each over its own series (a series filter, e.g. by rendezvous hashing on the series); the node
 * that received the query merges the aligned parts and runs the rest (`group`, `bucket`, computes, ...).
 * Without an `align` there is nothing to gain: the parts would carry every raw point back.
 *
 * The merged frame is the frame one node would have built: series are read in tag order
 * (`compareSeriesTags`), plain series before histograms' sub-series, and each part keeps that order, so
 * merging the parts by the same order gives the single-node order; the limits one node checks on the
 * whole (series per source, points read, grid cells) are checked again on the sum.
 */
import type { Pipe, SimpleQuery } from '../syntax/ast';
import type { Frame, Grid, Scalar, TimeRange } from './frame';
import { checkCells, checkSourceRead, type MplLimits } from './limits';
import { compareSeriesTags } from './series-order';

/** What merging needs of the executor's context (`ExecContext`). */
interface SplitContext {
  limits: MplLimits;
  pointsRead: number;
  units: Set<string>;
  warnings: string[];
}

/** What one node computed of a part: its aligned series, and what it read. */
export interface MplFramePart {
  grid?: Grid;
  scalars: Scalar[];
  /** Source series selected (the limit on series per source applies to their sum). */
  selected: number;
  pointsRead: number;
  units: string[];
  warnings: string[];
}

/** Runs a simple query's splittable part (numbered in `forEachSimple` order) over several nodes. */
export interface MplOffload {
  /** The parts of every node, or null to run it here (one node, or too small to split). */
  split(
    part: number,
    source: { dataset: string; metric: string },
    signal?: AbortSignal,
  ): Promise<MplFramePart[]> | null;
}

const SERIES_LOCAL = new Set<Pipe['kind']>(['as', 'extend', 'map', 'align']);

/** How many leading pipes a split runs remotely: through the last `align` of the series-local run. */
export function splittablePrefix(pipes: readonly Pipe[]): number {
  let prefix = 0;
  for (let i = 0; i < pipes.length && SERIES_LOCAL.has(pipes[i].kind); i++)
    if (pipes[i].kind === 'align') prefix = i + 1;
  return prefix;
}

/** The frame of a part as it leaves its node. */
export function partOf(frame: Frame, selected: number, ctx: SplitContext): MplFramePart {
  return {
    grid: frame.grid,
    scalars: frame.scalars,
    selected,
    pointsRead: ctx.pointsRead,
    units: [...ctx.units],
    warnings: ctx.warnings,
  };
}

/** The parts' series as one frame over `range` (the source's range), checked against the limits. */
export function mergeParts(
  parts: readonly MplFramePart[],
  q: SimpleQuery,
  range: TimeRange,
  ctx: SplitContext,
): Frame {
  const scalars: Scalar[] = [];
  let selected = 0;
  let grid: Grid | undefined;
  for (const part of parts) {
    scalars.push(...part.scalars);
    selected += part.selected;
    ctx.pointsRead += part.pointsRead;
    for (const unit of part.units) ctx.units.add(unit);
    for (const warning of part.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
    grid ??= part.grid;
  }
  const metricName = q.source.alias ?? q.source.metric;
  checkSourceRead(ctx.limits, selected, ctx.pointsRead, metricName, q.source.span);
  // Stable: a histogram's sub-series stay together, in their order.
  scalars.sort(
    (a, b) =>
      Number(a.origin!.histogram) - Number(b.origin!.histogram) ||
      compareSeriesTags(a.origin!.tags, b.origin!.tags),
  );
  if (grid) checkCells(ctx.limits, scalars.length, grid.length);
  // Every series of a frame shares one `times` array once aligned (frame.ts).
  if (grid && scalars.length > 1) for (const s of scalars) s.times = scalars[0].times;
  return { range, grid, scalars, histograms: [] };
}
