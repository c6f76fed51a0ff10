/** Per-query guard rails (docs/metrics.md "MPL › Limits"); exceeding one is a 400 `mpl_limit_exceeded`. */
import { mplError } from '../syntax/diagnostics';

export interface MplLimits {
  /** Series selected by one source after filters (histograms count once). */
  maxSeries: number;
  /** Raw points (samples or histogram points) read by the whole query. */
  maxPoints: number;
  /** Slots of one result grid (window count of an align/bucket, or of an unaligned series' natural grid). */
  maxSlotsPerSeries: number;
}

export const DEFAULT_MPL_LIMITS: MplLimits = {
  maxSeries: 10_000,
  maxPoints: 20_000_000,
  maxSlotsPerSeries: 100_000,
};

export function limitExceeded(what: string, limit: number, hint: string): never {
  throw mplError('mpl_limit_exceeded', `query exceeds the limit of ${limit} ${what}; ${hint}`);
}
