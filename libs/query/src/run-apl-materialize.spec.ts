/**
 * `materialize(T)` used more than once: T runs once per query and its rows are held until the query
 * ends, counted against the query's held-rows limit (Kusto's materialize page: the result is cached for
 * the query's duration, and exceeding the cache limit fails the query).
 */
import { isQuarryError, type QuarryError } from '@quarry/common';
import type { QueryLimits } from '@quarry/query-exec';
import { runApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const catalog = new MemoryCatalog({ ds: [] }, { batchSize: 3, sysTimeMs: Date.UTC(2024, 5, 1) });

async function rows(query: string, limits?: Partial<QueryLimits>): Promise<unknown[][]> {
  const out = await runApl(query, {
    startMs: Date.UTC(2024, 4, 1),
    endMs: Date.UTC(2024, 4, 2),
    nowMs: Date.UTC(2024, 4, 2),
    catalog,
    limits,
  });
  const t = out.tables[0];
  const n = t.columns[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => t.columns.map((c) => c[i]));
}

async function failure(query: string, limits?: Partial<QueryLimits>): Promise<QuarryError> {
  try {
    await rows(query, limits);
  } catch (err) {
    if (isQuarryError(err)) return err;
    throw err;
  }
  throw new Error('expected the query to fail');
}

describe('materialize() held for the query', () => {
  it('caches a table of more than 100,000 rows: both uses read the same rand() values', async () => {
    // 75,000 rows, each expanded to two (serialized through mv-expand): 150,000. Run per use, the two
    // sides of the join would draw different rand() values for nearly every row.
    const query =
      'let m = materialize(range x from 1 to 75000 step 1 | extend k = dynamic([0, 1]) | mv-expand k to typeof(long) | extend r = rand()); ' +
      'm | join kind=inner (m) on x, k | summarize n = count(), differ = countif(r != r1)';
    expect(await rows(query)).toEqual([[150_000, 0]]);
  });

  it('counts the cached rows against the held-rows limit for the rest of the query', async () => {
    // Two caches of 2,000 rows: the second is computed with 1,000 rows of a 3,000-row limit left.
    const two =
      'let a = materialize(range x from 1 to 2000 step 1); let b = materialize(range y from 1 to 2000 step 1); ' +
      'union a, a, b, b | count';
    const err = await failure(two, { maxHeldRows: 3000 });
    expect(err.kind).toBe('invalid');
    expect(err.code).toBe('query_limit_exceeded');
    expect(err.message).toContain(
      "materialize() went over the query's held-rows limit of 3,000 rows, 2,000 of them held by materialize()",
    );
    expect(await rows(two, { maxHeldRows: 4500 })).toEqual([[8000]]);
    // 2,000 cached rows and a sort of 2,000 more are 4,000 rows held at once: over 3,000.
    const sorted =
      'let m = materialize(range x from 1 to 2000 step 1); m | union (m | sort by x desc) | count';
    const sortErr = await failure(sorted, { maxHeldRows: 3000 });
    expect(sortErr.code).toBe('query_limit_exceeded');
    expect(sortErr.message).toContain('the query went over');
    expect(await rows(sorted, { maxHeldRows: 4500 })).toEqual([[4000]]);
  });

  it('computes `as hint.materialized=true` once for the pipe and every reference to its name', async () => {
    // Kusto's as page: the value is as if wrapped by materialize(). Without the hint (or with false) each
    // reference runs the input again and the join's two sides draw different rand() values.
    const query = (hint: string) =>
      `range x from 1 to 3 step 1 | extend r = rand() | as ${hint} T | join (T) on x | where r != r1 | count`;
    expect(await rows(query('hint.materialized=true'))).toEqual([[0]]);
    expect(await rows(query('hint.materialized=false'))).toEqual([[3]]);
    expect(await rows(query(''))).toEqual([[3]]);
    // A `let` of materialize() named again by `as` stays one cache.
    const again =
      'let m = materialize(range x from 1 to 3 step 1 | extend r = rand()); ' +
      'm | as hint.materialized=true T | join (T) on x | join (m) on x | where r != r1 or r != r2 | count';
    expect(await rows(again)).toEqual([[0]]);
  });

  it('runs a table used once in place, without holding it', async () => {
    const query = 'let m = materialize(range x from 1 to 2000 step 1); m | count';
    expect(await rows(query, { maxHeldRows: 10 })).toEqual([[2000]]);
  });
});
