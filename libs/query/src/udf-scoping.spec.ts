import { QuarryError } from '@quarry/common';
import { referencedDatasets, runApl, type RunAplOptions } from './run-apl';
import { datasetsOfQuery } from './referenced-datasets';
import { parseApl } from '@quarry/apl';
import { MemoryCatalog } from './testing/memory-catalog';

// Issue 19, round 2: names inside user-defined function bodies resolve in the function's scope (Kusto's
// scoping rules), in two places that got it wrong: a tabular `let` of a body that reads a dataset, and
// the subqueries (`toscalar`, `x in (T)`) of a scalar function whose window calls are inlined.
const events = [
  { _time: '2024-05-01T00:00:00Z', b: 1 },
  { _time: '2024-05-01T01:00:00Z', b: 2 },
  { _time: '2024-05-01T02:00:00Z', b: 3 },
];
const catalog = new MemoryCatalog(
  { ds: events, other: [{ _time: '2024-05-01T00:30:00Z', w: 10 }] },
  { batchSize: 2 },
);
const opts: RunAplOptions = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  catalog,
};

const rows = (out: Awaited<ReturnType<typeof runApl>>) => {
  const t = out.tables[0];
  return Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) => t.columns.map((c) => c[i]));
};

async function runError(q: string): Promise<QuarryError> {
  try {
    await runApl(q, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected an error');
}

describe('a tabular let inside a function body reads its dataset (bug: dataset_not_found)', () => {
  it('lists the dataset a tabular function body reads through its own let', () => {
    expect(datasetsOfQuery(parseApl('let f = () { let T = ds | count; T }; f()'))).toEqual(['ds']);
  });

  it('lists the dataset a scalar function body reads through its own let', () => {
    expect(
      datasetsOfQuery(parseApl('let f = () { let T = other | count; toscalar(T) }; print n = f()')),
    ).toEqual(['other']);
  });

  it('does not list a let name of the body as a dataset, nor leak it to the query', () => {
    const q = 'let f = () { let T = ds | count; T }; union f(), (T | count)';
    expect(datasetsOfQuery(parseApl(q))).toEqual(['ds', 'T']);
  });

  it('walks nested function definitions and a body that uses its let in a subquery', () => {
    const q =
      'let f = () { let g = () { let U = other | count; U }; let T = ds | where b > toscalar(g()); T }; f()';
    expect(datasetsOfQuery(parseApl(q))).toEqual(['other', 'ds']);
  });

  it('runs a tabular function whose let counts a dataset', async () => {
    const out = await runApl('let f = () { let T = ds | count; T }; f()', opts);
    expect(rows(out)).toEqual([[3]]);
    expect(out.datasetNames).toEqual(['ds']);
  });

  it('runs a scalar function whose let counts a dataset', async () => {
    const out = await runApl('let f = () { let T = other | count; toscalar(T) }; print n = f()', opts);
    expect(rows(out)).toEqual([[1]]);
  });

  it('checks access on the dataset read inside the body', () => {
    expect(referencedDatasets('let f = () { let T = other | count; T }; f()')).toEqual(['other']);
  });
});

describe('subqueries of an inlined window function see the function scope (bug: caller scope)', () => {
  it("uses the body's own let, not the caller's of the same name (Kusto: 7)", async () => {
    const q =
      'let k = 100; let g = (a: long) { let k = 7; row_cumsum(a) + toscalar(print v = k) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 8],
      [2, 10],
    ]);
  });

  it('uses a parameter given a constant inside the subquery', async () => {
    const q =
      'let g = (a: long, m: long) { row_cumsum(a) + toscalar(print v = m * 10) }; datatable(x: long)[1, 2] | serialize c = g(x, 3)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 31],
      [2, 33],
    ]);
  });

  it('uses a parameter inside x in (T) as well', async () => {
    const q =
      'let g = (a: long, m: long) { row_cumsum(a) * toint(a in ((datatable(y: long)[1, 2, 3] | where y > m))) }; datatable(x: long)[1, 2, 3] | serialize c = g(x, 1)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 0],
      [2, 3],
      [3, 6],
    ]);
  });

  it("lets a column of the subquery's table win over a parameter of the same name", async () => {
    const q =
      'let g = (a: long) { row_cumsum(a) + toscalar(datatable(a: long)[40, 2] | summarize sum(a)) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 43],
      [2, 45],
    ]);
  });

  it('refuses a parameter given a value of the calling row inside the subquery (Kusto restriction)', async () => {
    const q =
      'let g = (a: long) { row_cumsum(a) + toscalar(print v = a) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    const err = await runError(q);
    expect(err.code).toBe('apl_invalid_argument');
    expect(err.message).toContain('calling row');
  });

  it("uses a function local to the body inside the subquery with the body's names", async () => {
    const q =
      'let k = 100; let g = (a: long) { let k = 5; let h = () { k * 2 }; row_cumsum(a) + toscalar(print v = h()) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 11],
      [2, 13],
    ]);
  });

  it("passes a caller's let as an argument in the caller's terms, not the body's", async () => {
    const q =
      'let k = 100; let g = (a: long, m: long) { let k = 7; row_cumsum(a) + toscalar(print v = m + k) }; datatable(x: long)[1, 2] | serialize c = g(x, k)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 108],
      [2, 110],
    ]);
  });

  it("reads the body's let, not a caller's column of the same name", async () => {
    const q =
      'let g = (a: long) { let k = 7; row_cumsum(a) + toscalar(print v = k) }; datatable(x: long, k: long)[1, 50, 2, 60] | serialize c = g(x) | project c';
    expect(rows(await runApl(q, opts))).toEqual([[8], [10]]);
  });

  it('lets a function called in the subquery define the name again (its own let wins)', async () => {
    const q =
      'let k = 100; let h = () { let k = 1; print v = k }; let g = (a: long) { let k = 7; row_cumsum(a) + toscalar(h()) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    expect(rows(await runApl(q, opts))).toEqual([
      [1, 2],
      [2, 4],
    ]);
  });

  it('refuses a local function whose names are defined again after it, naming the function and the name', async () => {
    const q =
      'let g = (a: long) { let k = 5; let h = () { k * 2 }; let k = 6; row_cumsum(a) + toscalar(print v = h()) }; datatable(x: long)[1, 2] | serialize c = g(x)';
    const err = await runError(q);
    expect(err.code).toBe('apl_invalid_argument');
    expect(err.message).toContain("'g'");
    expect(err.message).toContain("'k'");
  });
});

describe('a table named by `as` is not a dataset', () => {
  it('lists only the dataset a self-join over `as` reads', () => {
    const q = 'ds | as T | join kind=inner (T | where x > 1) on x';
    expect(datasetsOfQuery(parseApl(q))).toEqual(['ds']);
  });

  it('still lists a dataset of that name read before the `as`', () => {
    expect(datasetsOfQuery(parseApl('T | join (ds | as T) on x'))).toEqual(['T', 'ds']);
  });
});
