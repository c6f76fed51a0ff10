import type { BlockSummary, ColumnBatch } from '@quarry/contracts';
import type { AggregateNode, ScanNode } from '@quarry/query-plan';
import {
  nanosTimespanFields,
  nanosTimespanFieldsOfPlan,
  retypeBatch,
  retypeSummary,
  timespanFromNanos,
  withKindFieldTypes,
} from './kind-field-types';

describe('kind-declared field types', () => {
  const stored = [
    { name: '_time', type: 'datetime' },
    { name: 'duration', type: 'integer' },
    { name: 'name', type: 'string' },
  ];

  it('types a trace dataset duration stored as a number as a timespan, and nothing else', () => {
    expect(withKindFieldTypes(stored, 'otel:traces:v1')).toEqual([
      { name: '_time', type: 'datetime' },
      { name: 'duration', type: 'timespan' },
      { name: 'name', type: 'string' },
    ]);
    expect(withKindFieldTypes([{ name: 'duration', type: 'float|integer' }], 'otel:traces:v1')).toEqual([
      { name: 'duration', type: 'timespan' },
    ]);
    // Another kind, or a stored type that is not only numbers: as stored.
    expect(withKindFieldTypes(stored, 'axiom:events:v1')).toEqual(stored);
    expect(withKindFieldTypes(stored, 'otel:logs:v1')).toEqual(stored);
    expect(withKindFieldTypes([{ name: 'duration', type: 'integer|string' }], 'otel:traces:v1')).toEqual([
      { name: 'duration', type: 'integer|string' },
    ]);
    expect(nanosTimespanFields(withKindFieldTypes(stored, 'otel:traces:v1'), 'otel:traces:v1')).toEqual(
      new Set(['duration']),
    );
    expect(nanosTimespanFields([{ name: 'duration', type: 'integer|string' }], 'otel:traces:v1').size).toBe(
      0,
    );
    expect(nanosTimespanFields(stored, 'axiom:events:v1').size).toBe(0);
  });

  it('reads nanoseconds as timespan milliseconds, keeping nulls and leaving other kinds alone', () => {
    const nulls = new Uint8Array([0, 1, 0]);
    expect(
      timespanFromNanos({ kind: 'long', values: new Float64Array([150_000_000, 0, 250_000]), nulls }),
    ).toEqual({ kind: 'timespan', values: new Float64Array([150, 0, 0.25]), nulls });
    const text = { kind: 'string' as const, codes: new Int32Array([0]), dict: ['x'] };
    expect(timespanFromNanos(text)).toBe(text);
    const batch: ColumnBatch = {
      length: 1,
      columns: new Map([
        ['duration', { kind: 'long', values: new Float64Array([2_000_000]), nulls: null }],
        ['size', { kind: 'long', values: new Float64Array([7]), nulls: null }],
      ]),
    };
    const retyped = retypeBatch(batch, new Set(['duration']));
    expect(retyped.columns.get('duration')).toEqual({
      kind: 'timespan',
      values: new Float64Array([2]),
      nulls: null,
    });
    expect(retyped.columns.get('size')).toBe(batch.columns.get('size'));
    // The stored batch is not changed.
    expect(batch.columns.get('duration')!.kind).toBe('long');
    expect(retypeBatch(batch, new Set())).toBe(batch);
  });

  it('converts block statistics so pruning compares them with timespan literals', () => {
    const summary: BlockSummary = {
      rowCount: 3,
      column: (name) =>
        name === 'duration' || name === 'size'
          ? { kind: 'long', nullCount: 0, min: 250_000, max: 1_500_000_000 }
          : undefined,
    };
    const retyped = retypeSummary(summary, new Set(['duration']));
    expect(retyped.column('duration')).toEqual({ kind: 'timespan', nullCount: 0, min: 0.25, max: 1500 });
    expect(retyped.column('size')).toEqual({ kind: 'long', nullCount: 0, min: 250_000, max: 1_500_000_000 });
    expect(retyped.column('other')).toBeUndefined();
  });

  it('finds the timespan fields of the scans of a dataset in a plan bound elsewhere', () => {
    const scan = (dataset: string): ScanNode => ({
      kind: 'scan',
      dataset,
      schema: [
        { name: '_time', type: 'datetime' },
        { name: 'duration', type: 'timespan' },
        { name: 'size', type: 'long' },
      ],
      startMs: 0,
      endMs: 1,
      columns: null,
      filter: null,
    });
    const node = { kind: 'aggregate', input: scan('traces') } as unknown as AggregateNode;
    expect(nanosTimespanFieldsOfPlan(node, 'traces')).toEqual(new Set(['duration']));
    expect(nanosTimespanFieldsOfPlan(node, 'other').size).toBe(0);
  });
});
