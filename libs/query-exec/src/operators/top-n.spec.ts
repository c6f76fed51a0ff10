import fc from 'fast-check';
import {
  columnFromValues,
  selectRowsLate,
  valueAt,
  type ColumnBatch,
  type ColumnKind,
} from '@quarry/contracts';
import { col, type SortKeySpec } from '@quarry/query-plan';
import { streamOf, testEnv } from '../testing/operator-test-kit';
import { sort } from './ordering';
import { limit } from './streaming';
import { topHeap } from './top-heap';

const env = testEnv;
const stream = streamOf;

async function rows(s: AsyncIterable<ColumnBatch>): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const b of s) {
    const names = [...b.columns.keys()].sort();
    for (let i = 0; i < b.length; i++) out.push(names.map((n) => [n, valueAt(b.columns.get(n)!, i)]));
  }
  return out;
}

const value = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('a', 'B', 'b', '', 'é'),
  fc.double({ min: -2, max: 2, noNaN: true }),
);

describe('fused top-N equals sort + take', () => {
  // Kinds may differ between batches within a family (long/real; string/dynamic strings). Mixing numbers with
  // strings in one key has no total order (numbers compare numerically, a number and a string as text), so
  // no sort algorithm is canonical there; that case is left out.
  it('on random batches (ties, nulls, several keys, key kinds differing between batches)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kinds: fc.tuple(
              fc.constantFrom<ColumnKind>('long', 'real'),
              fc.constantFrom<ColumnKind>('string', 'dynamic'),
            ),
            rows: fc.array(fc.tuple(value, value), { maxLength: 12 }),
            filtered: fc.boolean(),
          }),
          { maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 15 }),
        fc.array(fc.record({ k: fc.constantFrom('a', 'b'), desc: fc.boolean(), nullsFirst: fc.boolean() }), {
          minLength: 1,
          maxLength: 2,
        }),
        async (chunks, n, keySpecs) => {
          let id = 0;
          const batches = chunks.map(({ kinds, rows: rs, filtered }) => {
            const fit = (v: unknown, kind: ColumnKind) => {
              if (v === null) return v;
              if (kind === 'string' || kind === 'dynamic') return String(v);
              if (typeof v !== 'number') return null;
              return kind === 'long' || kind === 'datetime' ? Math.round(v) : v;
            };
            const batch: ColumnBatch = {
              length: rs.length,
              columns: new Map([
                [
                  'a',
                  columnFromValues(
                    rs.map((r) => fit(r[0], kinds[0])),
                    kinds[0],
                  ),
                ],
                [
                  'b',
                  columnFromValues(
                    rs.map((r) => fit(r[1], kinds[1])),
                    kinds[1],
                  ),
                ],
                [
                  'id',
                  columnFromValues(
                    rs.map(() => id++),
                    'long',
                  ),
                ],
              ]),
            };
            // Some batches arrive as lazy selections, like the output of a pushed-down filter.
            return filtered
              ? selectRowsLate(
                  batch,
                  Uint32Array.from({ length: batch.length }, (_, i) => i),
                )
              : batch;
          });
          const keys: SortKeySpec[] = keySpecs.map((k) => ({
            expr: col(k.k, 'dynamic'),
            desc: k.desc,
            nullsFirst: k.nullsFirst,
          }));
          const expected = await rows(limit(sort(stream(batches), keys, env()), n));
          const actual = await rows(topHeap(stream(batches), n, keys, env()));
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
