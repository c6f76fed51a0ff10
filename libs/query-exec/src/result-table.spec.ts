import { columnFromValues, type ColumnBatch } from '@quarry/contracts';
import type { AggregateNode, PlanNode } from '@quarry/query-plan';
import { toResultTable } from './result-table';

/** `datatable(method: string)[...] | summarize n = count() by method`, as the planner writes it. */
const aggregate: AggregateNode = {
  kind: 'aggregate',
  input: { kind: 'values', schema: [{ name: 'method', type: 'string' }], rows: [] },
  keys: [{ name: 'method', expr: { kind: 'col', name: 'method', type: 'string' } }],
  aggs: [{ fn: 'count', args: [], predicate: null, outputs: [{ name: 'n', type: 'long' }], params: [] }],
  schema: [
    { name: 'method', type: 'string' },
    { name: 'n', type: 'long' },
  ],
};

const batch: ColumnBatch = {
  length: 1,
  columns: new Map([
    ['method', columnFromValues(['GET'], 'string')],
    ['n', columnFromValues([2], 'long')],
  ]),
};

/** The rows of a cached `materialize(...)` of `plan` (builder.ts materializedTable, key from run-apl). */
function cached(plan: PlanNode, key = JSON.stringify(plan)): PlanNode {
  return {
    kind: 'values',
    schema: plan.schema,
    rows: [],
    materialized: { key, batch, aggregated: true, serialized: false },
  };
}

describe('toResultTable', () => {
  it('notes the aggregation of each field of an aggregation planned in place', () => {
    const t = toResultTable({ root: aggregate, batch, sources: [] });
    expect(t.fields.find((f) => f.name === 'n')?.agg).toMatchObject({ name: 'count' });
    expect(t.groups).toEqual([{ name: 'method' }]);
  });

  it('keeps the notes when the rows come from a cached aggregated materialize (were lost)', () => {
    const t = toResultTable({ root: cached(aggregate), batch, sources: [] });
    expect(t.fields.find((f) => f.name === 'n')?.agg).toMatchObject({ name: 'count' });
    expect(t.groups).toEqual([{ name: 'method' }]);
  });

  it('gives no notes for a key that is not a plan', () => {
    const t = toResultTable({ root: cached(aggregate, 'not json'), batch, sources: [] });
    expect(t.fields.find((f) => f.name === 'n')?.agg).toBeUndefined();
  });
});
