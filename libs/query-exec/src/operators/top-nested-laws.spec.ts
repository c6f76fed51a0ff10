/**
 * Laws of `top-nested` (issue 19, round 2 operator audit), run end to end over a `datatable`: a parent's
 * `count()` is the sum of its children's counts when every child is kept, each parent keeps at most N
 * children, and those are its N largest. The seed is shared by the run (test/support/fast-check-seed.ts).
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

const data = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 0, max: 5 })), {
  minLength: 1,
  maxLength: 30,
});
const table = (rs: [string, number][]) =>
  `datatable(k: string, v: long) [${rs.map(([k, v]) => `"${k}", ${v}`).join(', ')}]`;

describe('top-nested laws', () => {
  it('a parent’s count is the sum of its children’s counts when all are kept, and totals the input', async () => {
    await fc.assert(
      fc.asyncProperty(data, async (rs) => {
        const got = (await rows(
          `${table(rs)} | top-nested of k by n = count(), top-nested of v by m = count()`,
        )) as [string, number, number, number][];
        const byParent = new Map<string, { n: number; sum: number }>();
        for (const [k, n, , m] of got) {
          const e = byParent.get(k) ?? { n, sum: 0 };
          expect(e.n).toBe(n);
          e.sum += m;
          byParent.set(k, e);
        }
        for (const e of byParent.values()) expect(e.sum).toBe(e.n);
        expect([...byParent.values()].reduce((p, e) => p + e.n, 0)).toBe(rs.length);
      }),
      { numRuns: 40 },
    );
  });

  it('with others: the kept values and the others row together total every row, at each level', async () => {
    await fc.assert(
      fc.asyncProperty(data, fc.integer({ min: 1, max: 3 }), async (rs, n) => {
        const got = (await rows(
          `${table(rs)} | top-nested ${n} of k with others = "rest" by c = count(), top-nested 1 of v with others = -1 by m = count()`,
        )) as [string, number, number, number][];
        const first = new Map(got.map((r) => [r[0], r[1]]));
        expect([...first.values()].reduce((p, c) => p + c, 0)).toBe(rs.length);
        expect([...first.keys()].filter((k) => k !== 'rest').length).toBe(
          Math.min(n, new Set(rs.map((r) => r[0])).size),
        );
        for (const [k, c] of first) {
          // Each level-one row's children (its best value and its others) count all of its rows.
          const children = got.filter((r) => r[0] === k).reduce((p, r) => p + r[3], 0);
          expect(children).toBe(c);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('each parent keeps its N largest children', async () => {
    await fc.assert(
      fc.asyncProperty(data, fc.integer({ min: 1, max: 3 }), async (rs, n) => {
        const got = (await rows(
          `${table(rs)} | top-nested of k by c = count(), top-nested ${n} of v by s = sum(v)`,
        )) as [string, number, number, number][];
        for (const k of new Set(rs.map((r) => r[0]))) {
          const sums = new Map<number, number>();
          for (const [kk, v] of rs) if (kk === k) sums.set(v, (sums.get(v) ?? 0) + v);
          const want = [...sums.values()].sort((p, q) => q - p).slice(0, n);
          const kept = got.filter((r) => r[0] === k).map((r) => r[3]);
          expect(kept).toEqual(want);
        }
      }),
      { numRuns: 40 },
    );
  });
});
