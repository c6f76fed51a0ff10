/**
 * Per-query guard rails (docs/metrics.md "MPL › Limits"): what one query may hold in memory. Exceeding one
 * fails the query with a 400 `mpl_limit_exceeded` that names the limit and how to narrow the query, instead
 * of letting the process run out of memory. The server sets them from its configuration.
 */
import { QuarryError, type SourceSpan } from '@quarry/common';
import { where } from '../syntax/diagnostics';

export interface MplLimits {
  /** Series selected by one source after filters (histograms count once). */
  maxSeries: number;
  /** Raw points (samples or histogram points) read by the whole query. */
  maxPoints: number;
  /** Slots of one result grid (window count of an align/bucket, or of an unaligned series' natural grid). */
  maxSlotsPerSeries: number;
  /** Slots one stage holds over all its series (series × windows): the memory of a gridded frame. */
  maxCells: number;
}

export const DEFAULT_MPL_LIMITS: MplLimits = {
  maxSeries: 10_000,
  maxPoints: 20_000_000,
  maxSlotsPerSeries: 100_000,
  maxCells: 20_000_000,
};

export function limitExceeded(what: string, limit: number, hint: string, span?: SourceSpan): never {
  throw new QuarryError(
    'invalid',
    `query exceeds the limit of ${limit.toLocaleString('en')} ${what}; ${hint}${where(span)}`,
    { code: 'mpl_limit_exceeded', span, details: { limit: what, max: limit } },
  );
}

/** Fails when a stage would hold `series × slots` grid cells over the limit. */
export function checkCells(limits: MplLimits, series: number, slots: number, span?: SourceSpan): void {
  if (series * slots > limits.maxCells) {
    limitExceeded(
      'grid cells (series × windows) per stage',
      limits.maxCells,
      `this stage would hold ${series.toLocaleString('en')} series × ${slots.toLocaleString('en')} windows; ` +
        'use a larger window, a shorter range, or filter or group series first',
      span,
    );
  }
}

/** The limits on what one source reads: its series (`selected`) and the points read so far. */
export function checkSourceRead(
  limits: MplLimits,
  selected: number,
  pointsRead: number,
  metricName: string,
  span?: SourceSpan,
): void {
  if (selected > limits.maxSeries)
    limitExceeded(
      'series per source',
      limits.maxSeries,
      `${metricName} has more matching series; narrow the query with where clauses or sample`,
      span,
    );
  if (pointsRead > limits.maxPoints)
    limitExceeded(
      'points read',
      limits.maxPoints,
      'shorten the time range or select fewer series with where clauses',
      span,
    );
}
