/**
 * Laws of make-series' axis (issue 19, round 2 operator audit), run end to end: `from A to B step S` gives
 * the bins A, A+S, … below B (B exclusive, Kusto's main syntax: a bin starting below B holds its whole step); `in range(A, B, S)` gives bin(A) … bin(B)
 * (B inclusive, bins of `bin()`, Kusto's alternate syntax); each row is counted once when it falls in a
 * bin. The seed is shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import { parseApl } from '@quarry/apl';
import { notFound } from '@quarry/common';
import { emptyScanStats, valueAt } from '@quarry/contracts';
import { buildPlan, optimize } from '@quarry/query-plan';
import { executePlan } from '../executor';

async function firstRow(q: string): Promise<unknown[]> {
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
  expect(out.batch.length).toBe(1);
  return root.schema.map((f) => valueAt(out.batch.columns.get(f.name)!, 0));
}

const axis = fc.record({
  start: fc.integer({ min: -50, max: 50 }),
  span: fc.integer({ min: 1, max: 60 }),
  step: fc.integer({ min: 1, max: 7 }),
  xs: fc.array(fc.integer({ min: -80, max: 140 }), { minLength: 1, maxLength: 25 }),
});
/** One row at the start, so the series exists whatever else falls outside the range. */
const data = (xs: number[], start: number) => `datatable(x: long) [${[start, ...xs].join(', ')}]`;
const floorTo = (v: number, s: number) => Math.floor(v / s) * s;

describe('make-series axis laws', () => {
  it('from A to B step S: bins A + kS below B, each row of those bins counted once', async () => {
    await fc.assert(
      fc.asyncProperty(axis, async ({ start, span, step, xs }) => {
        const end = start + span;
        const [counts, bins] = (await firstRow(
          `${data(xs, start)} | make-series kind=nonempty count() on x from ${start} to ${end} step ${step}`,
        )) as [number[], number[]];
        const want = Array.from({ length: Math.ceil(span / step) }, (_, k) => start + k * step);
        expect(bins).toEqual(want);
        // A row counts when its bin (bin_at(x, S, A)) is one of them: x >= A and that bin starts below B.
        const inBins = xs.filter((x) => x >= start && start + floorTo(x - start, step) < end);
        expect(counts.reduce((p, c) => p + c, 0)).toBe(1 + inBins.length);
      }),
      { numRuns: 60 },
    );
  });

  it('in range(A, B, S): bins bin(A) … bin(B), B inclusive', async () => {
    await fc.assert(
      fc.asyncProperty(axis, async ({ start, span, step, xs }) => {
        const stop = start + span;
        const [counts, bins] = (await firstRow(
          `${data(xs, start)} | make-series kind=nonempty count() on x in range(${start}, ${stop}, ${step})`,
        )) as [number[], number[]];
        const first = floorTo(start, step);
        const last = floorTo(stop, step);
        expect(bins).toEqual(Array.from({ length: (last - first) / step + 1 }, (_, k) => first + k * step));
        const inBins = xs.filter((x) => floorTo(x, step) >= first && floorTo(x, step) <= last);
        expect(counts.reduce((p, c) => p + c, 0)).toBe(1 + inBins.length);
      }),
      { numRuns: 60 },
    );
  });
});
