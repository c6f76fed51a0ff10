import fc from 'fast-check';
import { columnFromValues, valueAt, type ColumnBatch } from '@quarry/contracts';
import { call, col, lit, type ExtendNode, type PExpr } from '@quarry/query-plan';
import { streamOf, testEnv } from '../testing/operator-test-kit';
import { windowExtend } from './window';

/** Runs one window extend over `values` (column `x`, split into batches of `size`) and returns column `w`. */
async function windowOf(values: (number | null)[], expr: PExpr, size: number): Promise<unknown[]> {
  const batches: ColumnBatch[] = [];
  for (let i = 0; i < values.length; i += size) {
    const part = values.slice(i, i + size);
    batches.push({ length: part.length, columns: new Map([['x', columnFromValues(part, 'long')]]) });
  }
  const schema = [{ name: 'x', type: 'long' as const }];
  const node: ExtendNode = {
    kind: 'extend',
    input: { kind: 'values', schema, rows: [] },
    items: [{ name: 'w', expr }],
    schema: [...schema, { name: 'w', type: expr.type }],
    window: true,
  };
  const out: unknown[] = [];
  for await (const b of windowExtend(streamOf(batches), node, testEnv())) {
    for (let i = 0; i < b.length; i++) out.push(valueAt(b.columns.get('w')!, i));
  }
  return out;
}

const x = col('x', 'long');
const values = fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }), { maxLength: 40 });
const size = fc.integer({ min: 1, max: 7 });

describe('window functions (laws over random rows and batch sizes)', () => {
  it('row_number counts from its start; row_cumsum of 1 is row_number', async () => {
    await fc.assert(
      fc.asyncProperty(values, size, fc.integer({ min: -3, max: 9 }), async (xs, n, start) => {
        const numbers = await windowOf(xs, call('row_number', [lit(start, 'long')], 'long'), n);
        expect(numbers).toEqual(xs.map((_, i) => start + i));
        const ones = await windowOf(xs, call('row_cumsum', [lit(1, 'long')], 'long'), n);
        expect(ones).toEqual(xs.map((_, i) => i + 1));
      }),
    );
  });

  it('prev and next read the row at the offset, else the default', async () => {
    await fc.assert(
      fc.asyncProperty(values, size, fc.integer({ min: 0, max: 4 }), async (xs, n, k) => {
        const prev = await windowOf(xs, call('prev', [x, lit(k, 'long'), lit(-99, 'long')], 'long'), n);
        expect(prev).toEqual(xs.map((_, i) => (i - k >= 0 ? xs[i - k] : -99)));
        const next = await windowOf(xs, call('next', [x, lit(k, 'long')], 'long'), n);
        expect(next).toEqual(xs.map((_, i) => (i + k < xs.length ? xs[i + k] : null)));
      }),
    );
  });

  it('row_cumsum sums the non-null terms so far; a restart starts over', async () => {
    await fc.assert(
      fc.asyncProperty(values, size, async (xs, n) => {
        const sums = await windowOf(xs, call('row_cumsum', [x], 'long'), n);
        let s = 0;
        expect(sums).toEqual(xs.map((v) => (s += v ?? 0)));
        // Restart where x is null: each run of non-nulls sums on its own.
        const restart = call('isnull', [x], 'bool');
        const runs = await windowOf(xs, call('row_cumsum', [x, restart], 'long'), n);
        let r = 0;
        expect(runs).toEqual(xs.map((v, i) => (r = (i > 0 && v === null ? 0 : r) + (v ?? 0))));
      }),
    );
  });

  it('ranks: dense rank grows by one per change, min rank is the row number where the run began', async () => {
    await fc.assert(
      fc.asyncProperty(values, size, async (xs, n) => {
        const sorted = [...xs].sort((a, b) => (a ?? -100) - (b ?? -100));
        const dense = await windowOf(sorted, call('row_rank_dense', [x], 'long'), n);
        const min = await windowOf(sorted, call('row_rank_min', [x], 'long'), n);
        let d = 0;
        let m = 0;
        sorted.forEach((v, i) => {
          const changed = i === 0 || v !== sorted[i - 1];
          if (changed) {
            d++;
            m = i + 1;
          }
          expect([dense[i], min[i]]).toEqual([d, m]);
        });
      }),
    );
  });

  it('row_window_session: the page example (1h from the first, 5m between neighbours, restart on a new ID)', async () => {
    // Kusto's row_window_session page: ID 1 at 10:00 and 11:00, ID 2 at 10:16, 10:18 and 13:30, ID 3 at 11:30.
    const m = 60_000;
    const times = [600, 660, 616, 618, 810, 690].map((minutes) => minutes * m);
    const newId = [false, false, true, false, false, true];
    const batches: ColumnBatch[] = [
      {
        length: times.length,
        columns: new Map([
          ['x', columnFromValues(times, 'long')],
          ['r', columnFromValues(newId, 'bool')],
        ]),
      },
    ];
    const schema = [
      { name: 'x', type: 'long' as const },
      { name: 'r', type: 'bool' as const },
    ];
    const expr = call(
      'row_window_session',
      [x, lit(60 * m, 'long'), lit(5 * m, 'long'), col('r', 'bool')],
      'long',
    );
    const node: ExtendNode = {
      kind: 'extend',
      input: { kind: 'values', schema, rows: [] },
      items: [{ name: 'w', expr }],
      schema: [...schema, { name: 'w', type: 'long' }],
      window: true,
    };
    const out: unknown[] = [];
    for await (const b of windowExtend(streamOf(batches), node, testEnv())) {
      for (let i = 0; i < b.length; i++) out.push(valueAt(b.columns.get('w')!, i));
    }
    expect(out).toEqual([600, 660, 616, 616, 810, 690].map((minutes) => minutes * m));
  });

  it('row_window_session: a row keeps its session start only while both distances hold', async () => {
    const sortedValues = fc
      .array(fc.integer({ min: 0, max: 50 }), { maxLength: 40 })
      .map((xs) => [...xs].sort((a, b) => a - b));
    await fc.assert(
      fc.asyncProperty(
        sortedValues,
        size,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        async (xs, n, first, gap) => {
          const expr = call('row_window_session', [x, lit(first, 'long'), lit(gap, 'long')], 'long');
          const starts = (await windowOf(xs, expr, n)) as number[];
          xs.forEach((v, i) => {
            const continues = i > 0 && v < starts[i - 1] + first && v < xs[i - 1] + gap;
            expect(starts[i]).toBe(continues ? starts[i - 1] : v);
            expect(v - starts[i]).toBeLessThan(first);
          });
        },
      ),
    );
  });

  it('row_window_session: a null value is a null session and the next value starts a new one', async () => {
    const expr = call('row_window_session', [x, lit(100, 'long'), lit(100, 'long')], 'long');
    expect(await windowOf([1, 2, null, 3, 4], expr, 2)).toEqual([1, 1, null, 3, 3]);
  });
});
