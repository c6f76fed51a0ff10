import fc from 'fast-check';
import { columnFromValues } from './column-builder';
import { EventBatchBuilder } from './event-batch-builder';

/** Values of every family, including the ones JSON cannot carry (NaN, ±Infinity, undefined). */
const anyValue = fc.oneof(
  fc.constantFrom('a', 'b', '', 'é'),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 2 ** 53),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('k', 'l'), fc.integer(), { maxKeys: 2 }),
);
const rows = fc.array(
  fc.record({
    time: fc.integer({ min: 0, max: 9 }),
    fields: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), anyValue), {
      selector: ([name]) => name,
      maxLength: 4,
    }),
  }),
  { maxLength: 25 },
);

describe('EventBatchBuilder', () => {
  it('gives each field the column columnFromValues gives for its values (property)', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 0, max: 5 }), (input, spare) => {
        const builder = new EventBatchBuilder(input.length + spare);
        for (const row of input) {
          builder.beginRow(row.time, 7);
          for (const [name, value] of row.fields) builder.set(name, value);
          builder.endRow();
        }
        const batch = builder.finish();
        const names: string[] = [];
        for (const row of input) for (const [name] of row.fields) if (!names.includes(name)) names.push(name);
        expect(batch.length).toBe(input.length);
        expect([...batch.columns.keys()]).toEqual(['_time', '_sysTime', ...names]);
        expect(batch.columns.get('_time')).toEqual(
          columnFromValues(
            input.map((r) => r.time),
            'datetime',
          ),
        );
        for (const name of names) {
          const values = input.map((r) => r.fields.find(([n]) => n === name)?.[1] ?? null);
          expect(batch.columns.get(name)).toEqual(columnFromValues(values));
        }
      }),
    );
  });

  it('switches a column to dynamic when a second value family appears, keeping earlier rows', () => {
    const builder = new EventBatchBuilder(3);
    for (const value of ['x', 5, 'x']) {
      builder.beginRow(0, 0);
      builder.set('f', value);
      builder.endRow();
    }
    expect(builder.finish().columns.get('f')).toEqual({ kind: 'dynamic', values: ['x', 5, 'x'] });
  });

  it('refuses more rows than its capacity', () => {
    const builder = new EventBatchBuilder(1);
    builder.beginRow(0, 0);
    builder.endRow();
    expect(() => builder.beginRow(0, 0)).toThrow(RangeError);
  });
});
