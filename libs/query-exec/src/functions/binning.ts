import type { ColumnKind } from '@quarry/contracts';
import { num, type ScalarImpl } from './scalar-impl';

/**
 * `bin_at(value, bin_size, fixed_point)` (Kusto's bin-at-function page): the bin of `value` among bins of
 * `bin_size` aligned so that one of them starts at `fixed_point`. Datetimes and timespans are milliseconds
 * here, so one formula serves every type; a datetime or timespan value needs a timespan size and a fixed
 * point of its own type (Kusto: "a constant of the same type as value"), anything else is null.
 */
export function binAt(value: number, size: number, fixed: number): number | null {
  if (!(size > 0) || !Number.isFinite(value) || !Number.isFinite(fixed)) return null;
  const r = fixed + Math.floor((value - fixed) / size) * size;
  // The same float-noise cleanup as bin(): bin_at(6.5, 2.5, 7) is 4.5, not 4.499999….
  const exact = Number.isInteger(size) && Number.isInteger(fixed);
  return exact ? r : Number(r.toPrecision(15));
}

const TEMPORAL: ReadonlySet<ColumnKind> = new Set(['datetime', 'timespan']);

export const BINNING_FUNCTIONS: Record<string, ScalarImpl> = {
  bin_at: ([v, size, fixed], kinds) => {
    const valueKind = kinds[0];
    if (TEMPORAL.has(valueKind)) {
      if (kinds[1] !== 'timespan' || kinds[2] !== valueKind) return null;
    } else if (TEMPORAL.has(kinds[2]) || kinds[1] === 'datetime') {
      return null;
    }
    const x = num(v, valueKind);
    const s = num(size, kinds[1]);
    const f = num(fixed, kinds[2]);
    if (x === null || s === null || f === null) return null;
    return binAt(x, s, f);
  },
};
