/**
 * Laws of `mv-apply` (issue 19, round 2 operator audit), run end to end over a `datatable`: a summarize
 * in the subquery sees exactly one input row's elements (and gives a row for each input row, also for a
 * subtable that a `where` emptied), `top k` takes each row's k largest, and the
 * input rows come back in order with their other columns. The seed is shared by the run
 * (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import { parseApl } from '@quarry/apl';
import { notFound } from '@quarry/common';
import { emptyScanStats, valueAt } from '@quarry/contracts';
import { buildPlan, optimize } from '@quarry/query-plan';
import { executePlan } from '../executor';

async function rows(q: string): Promise<unknown[][]> {
  const built = buildPlan(parseApl(q), {
    startMs: 0,
    endMs: 1,
    nowMs: 1,
    datasetSchema: (name, span) => {
      throw notFound(`dataset "${name}" not found`, { span });
    },
  });
  const root = optimize(built.root);
  const out = await executePlan(root, { sources: new Map(), stats: emptyScanStats() });
  const names = root.schema.map((f) => f.name);
  return Array.from({ length: out.batch.length }, (_, i) =>
    names.map((n) => valueAt(out.batch.columns.get(n)!, i)),
  );
}

const table = (arrays: number[][]) =>
  `datatable(i: long, a: dynamic) [${arrays.map((a, i) => `${i}, dynamic(${JSON.stringify(a)})`).join(', ')}]`;

const arrays = fc.array(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 6 }), {
  minLength: 1,
  maxLength: 5,
});

describe('mv-apply laws', () => {
  it('a summarize in the subquery aggregates one row’s elements', async () => {
    await fc.assert(
      fc.asyncProperty(arrays, async (as) => {
        const got = await rows(
          `${table(as)} | mv-apply x = a to typeof(long) on (summarize s = sum(x), c = count())`,
        );
        expect(got).toEqual(as.map((a, i) => [i, a, a.reduce((p, v) => p + v, 0), a.length]));
      }),
      { numRuns: 40 },
    );
  });

  it('a summarize without by gives every input row one row, also when a where empties its subtable', async () => {
    await fc.assert(
      fc.asyncProperty(arrays, fc.integer({ min: -60, max: 60 }), async (as, t) => {
        const got = await rows(
          `${table(as)} | mv-apply x = a to typeof(long) on (where x > ${t} | summarize s = sum(x), c = count())`,
        );
        const kept = as.map((a) => a.filter((x) => x > t));
        expect(got).toEqual(as.map((a, i) => [i, a, kept[i].reduce((p, v) => p + v, 0), kept[i].length]));
        const counted = await rows(
          `${table(as)} | mv-apply x = a to typeof(long) on (where x > ${t} | count)`,
        );
        expect(counted).toEqual(as.map((a, i) => [i, a, kept[i].length]));
      }),
      { numRuns: 40 },
    );
  });

  it('top k in the subquery keeps each row’s k largest elements', async () => {
    await fc.assert(
      fc.asyncProperty(arrays, fc.integer({ min: 1, max: 4 }), async (as, k) => {
        const got = await rows(
          `${table(as)} | mv-apply x = a to typeof(long) on (top ${k} by x desc | summarize t = make_list(x))`,
        );
        expect(got).toEqual(as.map((a, i) => [i, a, [...a].sort((p, q) => q - p).slice(0, k)]));
      }),
      { numRuns: 40 },
    );
  });

  it('take and where keep the expanded rows in array order, with the row index', async () => {
    await fc.assert(
      fc.asyncProperty(arrays, async (as) => {
        const got = await rows(
          `${table(as)} | mv-apply with_itemindex = j x = a to typeof(long) on (where x >= 0 | take 3) | project i, j, x`,
        );
        const want = as.flatMap((a, i) =>
          a
            .map((x, j) => [i, j, x])
            .filter((r) => r[2] >= 0)
            .slice(0, 3),
        );
        expect(got).toEqual(want);
      }),
      { numRuns: 40 },
    );
  });
});
