import { invalid } from '@quarry/common';

/**
 * What one query may hold in memory. Blocking operators (sort, the build side of a join, the collected
 * result) count the rows they keep; summarize counts its groups. Exceeding a limit fails the query with a
 * 400 that says which limit and how to narrow the query, instead of letting the process run out of memory.
 */
export interface QueryLimits {
  /** Rows held at once by blocking operators, summed over the query. */
  maxHeldRows: number;
  /** Groups of one summarize (or distinct, make-series, …). */
  maxGroups: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxHeldRows: 20_000_000, maxGroups: 1_000_000 };

/** Counts rows held by blocking operators against `maxHeldRows`. */
export class RowBudget {
  private held = 0;

  constructor(readonly limits: QueryLimits) {}

  hold(rows: number, what: string): void {
    this.held += rows;
    if (this.held > this.limits.maxHeldRows) {
      throw invalid(
        `the query holds more than ${this.limits.maxHeldRows.toLocaleString('en')} rows in memory (${what}); ` +
          'narrow the time range, filter earlier, or use top/take instead of a full sort',
        { code: 'query_limit_exceeded' },
      );
    }
  }

  checkGroups(groups: number): void {
    if (groups > this.limits.maxGroups) {
      throw invalid(
        `summarize produced more than ${this.limits.maxGroups.toLocaleString('en')} groups; ` +
          'group by fewer or coarser keys, or filter first',
        { code: 'query_limit_exceeded' },
      );
    }
  }
}
