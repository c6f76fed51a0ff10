import fc from 'fast-check';
import { columnFromValues, valueAt } from '@quarry/contracts';
import { col } from '@quarry/query-plan';
import { streamOf, testEnv } from '../testing/operator-test-kit';
import { topHeap } from './top-heap';

const env = testEnv;
const stream = streamOf;

describe('topHeap', () => {
  it('matches a stable full sort (nulls and ties, several batches)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }), { maxLength: 8 }), {
          maxLength: 5,
        }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        async (chunks, n, desc) => {
          let id = 0;
          const batches = chunks.map((vals) => ({
            length: vals.length,
            columns: new Map([
              ['v', columnFromValues(vals, 'long')],
              [
                'id',
                columnFromValues(
                  vals.map(() => id++),
                  'long',
                ),
              ],
            ]),
          }));
          const all = chunks.flat().map((v, i) => ({ v, i }));
          const nullsFirst = !desc;
          all.sort((a, b) => {
            if (a.v === null || b.v === null) {
              if (a.v === b.v) return a.i - b.i;
              return (a.v === null ? -1 : 1) * (nullsFirst ? 1 : -1);
            }
            return (desc ? b.v - a.v : a.v - b.v) || a.i - b.i;
          });
          const expected = all.slice(0, n).map((x) => x.i);
          const out: number[] = [];
          for await (const b of topHeap(
            stream(batches),
            n,
            [{ expr: col('v', 'long'), desc, nullsFirst }],
            env(),
          )) {
            const c = b.columns.get('id')!;
            for (let i = 0; i < b.length; i++) out.push(valueAt(c, i) as number);
          }
          expect(out).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
