/**
 * A take or top — or the rows of a filtered scan feeding a sort, join or union — split as query nodes split it (row-fragments.ts: remote blocks read one by one, their
 * kept rows put back in scan order, then the coordinator's tail) answers exactly what one node answers,
 * row for row — ties of a top and which rows a take keeps included. Generated events (few distinct
 * values, so ties abound, and nulls) and generated queries (fast-check).
 */
import fc from 'fast-check';
import { runApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';
import { splittingOffload } from './testing/splitting-offload';

const DAY = Date.UTC(2024, 4, 1);

const event = fc.record({
  minute: fc.integer({ min: 0, max: 600 }),
  status: fc.constantFrom(200, 200, 404, 500, null),
  host: fc.constantFrom('a', 'b', 'c'),
  n: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
  id: fc.integer({ min: 0, max: 1_000_000 }),
});

const filter = fc.constantFrom(
  'status == 200',
  'status != 404',
  "host == 'a' or n > 2",
  'isnotnull(n)',
  'id % 3 == 0',
);
const keys = fc.constantFrom(
  'n desc',
  'n asc',
  'host asc, n desc',
  'status desc nulls first',
  'n * 2 asc nulls last',
  'tostring(n) desc',
);
const query = fc.oneof(
  fc.tuple(filter, fc.integer({ min: 0, max: 40 })).map(([f, k]) => `logs | where ${f} | take ${k}`),
  fc
    .tuple(filter, fc.integer({ min: 1, max: 40 }))
    .map(([f, k]) => `logs | where ${f} | limit ${k} | project id, n`),
  fc.tuple(keys, fc.integer({ min: 1, max: 40 })).map(([by, k]) => `logs | top ${k} by ${by}`),
  fc
    .tuple(filter, keys, fc.integer({ min: 1, max: 40 }))
    .map(([f, by, k]) => `logs | where ${f} | extend m = n + 1 | sort by ${by} | take ${k}`),
  // Operators that need every row: the filtered rows come from the other nodes, in scan order.
  fc
    .tuple(filter, keys)
    .map(([f, by]) => `logs | where ${f} | sort by ${by} | summarize ids = make_list(id)`),
  fc
    .tuple(filter, filter)
    .map(
      ([f, g]) =>
        `logs | where ${f} | project id, host | join kind=inner (logs | where ${g} | project id, n) on id | summarize ids = make_list(id), c = count()`,
    ),
  fc
    .tuple(filter, filter)
    .map(
      ([f, g]) =>
        `union (logs | where ${f} | project id), (logs | where ${g} | project id) | summarize ids = make_list(id)`,
    ),
);

async function answer(catalog: MemoryCatalog, apl: string, offload?: ReturnType<typeof splittingOffload>) {
  const out = await runApl(apl, { startMs: DAY, endMs: DAY + 86_400_000, nowMs: DAY, catalog, offload });
  return out.tables[0];
}

describe('take and top split across query nodes', () => {
  it('answer what one node answers, row for row', async () => {
    const offload = splittingOffload();
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 120 }),
        fc.integer({ min: 1, max: 9 }),
        query,
        async (events, batchSize, apl) => {
          const rows = [{ minute: 0, status: 200, host: 'a', n: 1, id: 0 }, ...events].map((e) => ({
            _time: new Date(DAY + e.minute * 60_000).toISOString(),
            status: e.status,
            host: e.host,
            n: e.n,
            id: e.id,
          }));
          const catalog = new MemoryCatalog({ logs: rows }, { batchSize, sysTimeMs: DAY });
          expect(await answer(catalog, apl, offload)).toEqual(await answer(catalog, apl));
        },
      ),
      { numRuns: 300 },
    );
    expect(offload.rowSplits).toBeGreaterThan(50);
  });
});
