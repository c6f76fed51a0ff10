import fc from 'fast-check';
import { columnFromValues, valueAt, type Column, type ColumnBatch } from '@quarry/contracts';
import { col, lit, type AggregateCall, type AggregateNode } from '@quarry/query-plan';
import { EvalContext } from '../eval/context';
import { DEFAULT_QUERY_LIMITS, RowBudget } from '../limits';
import { PartialAggregate } from './aggregate';

function agg(
  fn: string,
  args: AggregateCall['args'],
  predicate: AggregateCall['predicate'] = null,
): AggregateCall {
  return { fn, args, predicate, outputs: [{ name: `${fn}_${args.length}`, type: 'real' }], params: [] };
}

function nodeOf(aggs: AggregateCall[]): AggregateNode {
  return {
    kind: 'aggregate',
    input: { kind: 'values', rows: [], schema: [] } as unknown as AggregateNode['input'],
    keys: [{ name: 'k', expr: col('k', 'string') }],
    aggs,
    schema: [{ name: 'k', type: 'string' }, ...aggs.map((a) => a.outputs[0])],
  };
}

function run(node: AggregateNode, batches: ColumnBatch[]): unknown[][] {
  const partial = new PartialAggregate(node, new RowBudget(DEFAULT_QUERY_LIMITS));
  const ctx = new EvalContext();
  for (const b of batches) partial.add(b, ctx);
  const out = partial.finish({ numGroups: 0 });
  const names = [...out.columns.keys()];
  return Array.from({ length: out.length }, (_, r) =>
    names.map((n) => valueAt(out.columns.get(n) as Column, r)),
  );
}

const SUMS = [agg('count', []), agg('sum', [col('x', 'real')]), agg('avg', [col('x', 'real')])];
// A `countif` makes the summarize ineligible for the per-code path: the general path answers.
const GENERAL = [...SUMS, agg('countif', [], lit(true, 'bool'))];

describe('summarize count/sum/avg by a string key, per dictionary code', () => {
  it('gives the general path’s groups, order and values (nulls in key and value, several batches)', () => {
    const row = fc.tuple(
      fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'b'), { nil: null }),
      fc.option(
        fc.integer({ min: -40, max: 40 }).map((v) => v / 4),
        { nil: null },
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 30 }), { minLength: 1, maxLength: 4 }), (parts) => {
        const batches: ColumnBatch[] = parts.map((rows) => ({
          length: rows.length,
          columns: new Map<string, Column>([
            [
              'k',
              columnFromValues(
                rows.map((r) => r[0]),
                'string',
              ),
            ],
            [
              'x',
              columnFromValues(
                rows.map((r) => r[1]),
                'real',
              ),
            ],
          ]),
        }));
        const fast = run(nodeOf(SUMS), batches);
        const general = run(nodeOf(GENERAL), batches).map((r) => r.slice(0, 4));
        expect(fast).toEqual(general);
      }),
    );
  });
});
