import fc from 'fast-check';
import { batchFromEvents, columnFromValues, selectRows, sliceRows } from './column-builder';
import type { FieldValue, NormalizedEvent } from './events';

const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.constantFrom('a', 'b', ''),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const event: fc.Arbitrary<NormalizedEvent> = fc.record({
  time: fc.integer({ min: 0, max: 50 }),
  fields: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'geo.city', 'x.y'), fieldValue, { maxKeys: 5 }),
});

describe('batchFromEvents', () => {
  /** The plain definition: one value array per field name, null where an event lacks the field. */
  function reference(events: NormalizedEvent[], sysTime: number) {
    const names: string[] = [];
    for (const e of events) for (const name in e.fields) if (!names.includes(name)) names.push(name);
    const columns = new Map([
      [
        '_time',
        columnFromValues(
          events.map((e) => e.time),
          'datetime',
        ),
      ],
      [
        '_sysTime',
        columnFromValues(
          events.map(() => sysTime),
          'datetime',
        ),
      ],
    ]);
    for (const name of names) {
      columns.set(name, columnFromValues(events.map((e) => (name in e.fields ? e.fields[name] : null))));
    }
    return { length: events.length, columns };
  }

  it('matches the plain definition whatever the field order of each event (property)', () => {
    const shuffled = fc
      .array(event, { maxLength: 20 })
      .chain((events) =>
        fc.tuple(
          fc.constant(events),
          fc.array(fc.nat(), { minLength: events.length, maxLength: events.length }),
        ),
      )
      .map(([events, seeds]) =>
        events.map((e, i) => {
          // Reorder the keys of some events so shapes change between and within runs.
          const keys = Object.keys(e.fields);
          if (seeds[i] % 2 === 0) keys.reverse();
          const fields: Record<string, FieldValue> = {};
          for (const k of keys) fields[k] = e.fields[k];
          return { time: e.time, fields };
        }),
      );
    fc.assert(
      fc.property(shuffled, (events) => {
        const actual = batchFromEvents(events, 3);
        const expected = reference(events, 3);
        expect([...actual.columns.keys()]).toEqual([...expected.columns.keys()]);
        expect(actual).toEqual(expected);
      }),
    );
  });
});

describe('sliceRows', () => {
  it('gives the rows of a range, as selectRows does', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 20 }), fc.nat(), fc.nat(), (events, a, b) => {
        const batch = batchFromEvents(events, 7);
        const start = a % (batch.length + 1);
        const end = start + (b % (batch.length - start + 1));
        const rows = Array.from({ length: end - start }, (_, i) => start + i);
        const sliced = sliceRows(batch, start, end);
        const selected = selectRows(batch, rows);
        expect(sliced.length).toBe(selected.length);
        for (const [name, column] of selected.columns) {
          const got = sliced.columns.get(name)!;
          if (column.kind === 'string' && got.kind === 'string') {
            expect([...got.codes]).toEqual([...column.codes]);
            expect(got.dict).toBe(column.dict);
          } else if (column.kind !== 'string' && got.kind === column.kind && column.kind !== 'dynamic') {
            const g = got as typeof column;
            expect([...g.values]).toEqual([...column.values]);
            expect(g.nulls === null ? null : [...g.nulls]).toEqual(
              column.nulls === null ? null : [...column.nulls],
            );
          } else expect(got).toEqual(column);
        }
      }),
    );
  });
});
