import fc from 'fast-check';
import { concatEventBatches, timeOrder } from './batch-concat';
import { batchFromEvents, selectRows } from './column-builder';
import type { Column, ColumnBatch } from './columns';
import type { FieldValue, NormalizedEvent } from './events';
import { Utf8Interner, utf8StringColumn } from './utf8-interner';

/** The batch with its string columns over UTF-8 dictionaries (lone surrogates as U+FFFD). */
function withUtf8Strings(batch: ColumnBatch): ColumnBatch {
  const columns = new Map<string, Column>();
  for (const [name, column] of batch.columns) {
    if (column.kind !== 'string') {
      columns.set(name, column);
      continue;
    }
    const interner = new Utf8Interner();
    for (const value of column.dict) interner.internString(value);
    columns.set(name, utf8StringColumn(column.codes, interner.finish()));
  }
  return { length: batch.length, columns };
}

/** JSON-normalized (no -0), as values come out of JSON.parse at ingest. */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as FieldValue);
const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.constantFrom('a', 'b', 'c', ''),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.constant(null),
  json,
);
const event: fc.Arbitrary<NormalizedEvent> = fc.record({
  time: fc.integer({ min: 0, max: 50 }),
  fields: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fieldValue, { maxKeys: 4 }),
});
/** Records (each a non-empty list of events with its own sysTime). */
const records = fc.array(
  fc.record({
    sysTime: fc.integer({ min: 1, max: 9 }),
    events: fc.array(event, { minLength: 1, maxLength: 6 }),
  }),
  { minLength: 1, maxLength: 5 },
);

describe('concatEventBatches', () => {
  it('equals batchFromEvents over all the events (columns, kinds, values, dictionary order)', () => {
    fc.assert(
      fc.property(records, (recs) => {
        const parts = recs.map((r) => batchFromEvents(r.events, r.sysTime));
        const all = recs.flatMap((r) => r.events);
        const sysTimes = recs.flatMap((r) => r.events.map(() => r.sysTime));
        const expected = batchFromEvents(all, sysTimes);
        const actual = concatEventBatches(parts);
        expect(actual.length).toBe(expected.length);
        expect([...actual.columns.keys()]).toEqual([...expected.columns.keys()]);
        for (const [name, column] of expected.columns) expect(actual.columns.get(name)).toEqual(column);
      }),
    );
  });

  it('interns parts read from the log as UTF-8 bytes, to the same codes and dictionary', () => {
    fc.assert(
      fc.property(records, fc.boolean(), (recs, mixed) => {
        const parts = recs.map((r) => batchFromEvents(r.events, r.sysTime));
        const expected = concatEventBatches(parts);
        // As the log decodes them: every string column over UTF-8 (or, mixed, all but the first part's).
        const fromLog = parts.map((b, i) => (mixed && i === 0 ? b : withUtf8Strings(b)));
        const actual = concatEventBatches(fromLog);
        for (const [name, column] of expected.columns) {
          const got = actual.columns.get(name)!;
          if (column.kind !== 'string' || got.kind !== 'string') {
            expect(got).toEqual(column);
            continue;
          }
          expect(got.codes).toEqual(column.codes);
          expect(got.dict).toEqual(column.dict);
          if (!mixed && parts.length > 1) expect(got.utf8).toBeDefined();
        }
      }),
    );
  });

  it('unifies long and real to real, other mixes to dynamic, and ignores all-null parts', () => {
    const batch = concatEventBatches([
      batchFromEvents([{ time: 1, fields: { n: 1, s: null, m: 'x' } }], 1),
      batchFromEvents([{ time: 2, fields: { n: 1.5, s: 'y', m: true } }], 2),
    ]);
    expect(batch.columns.get('n')).toEqual({ kind: 'real', values: new Float64Array([1, 1.5]), nulls: null });
    expect(batch.columns.get('s')).toEqual({ kind: 'string', codes: new Int32Array([-1, 0]), dict: ['y'] });
    expect(batch.columns.get('m')).toEqual({ kind: 'dynamic', values: ['x', true] });
  });
});

describe('timeOrder', () => {
  /** What a stable sort by time gives: the row numbers, ties in row order. */
  const sortedRows = (times: readonly number[]): number[] =>
    times
      .map((t, i) => ({ t, i }))
      .sort((x, y) => x.t - y.t || x.i - y.i)
      .map((x) => x.i);

  it('sorts rows by _time keeping ties in row order, and answers null when already sorted', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 30 }), (times) => {
        const batch = batchFromEvents(
          times.map((time, i) => ({ time, fields: { i } })),
          0,
        );
        const order = timeOrder(batch);
        const expected = sortedRows(times);
        if (order === null) expect(expected).toEqual(times.map((_, i) => i));
        else expect(Array.from(order)).toEqual(expected);
        const sorted = order === null ? batch : selectRows(batch, order);
        expect(Array.from((sorted.columns.get('_time') as { values: Float64Array }).values)).toEqual(
          expected.map((i) => times[i]),
        );
      }),
    );
  });

  it('merges ascending runs (records of a flush that overlap in time) as a stable sort orders them', () => {
    // Runs of any length and count, overlapping or not, with ties inside and across runs.
    const run = fc
      .array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 25 })
      .map((xs) => xs.sort((a, b) => a - b));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 12 }), (runs) => {
        const times = runs.flat();
        const batch = batchFromEvents(
          times.map((time) => ({ time, fields: {} })),
          0,
        );
        const order = timeOrder(batch);
        const expected = sortedRows(times);
        expect(order === null ? times.map((_, i) => i) : Array.from(order)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
