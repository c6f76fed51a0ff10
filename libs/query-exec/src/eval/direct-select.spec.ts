import fc from 'fast-check';
import { columnFromValues, type Column, type ColumnBatch } from '@quarry/contracts';
import { call, col, lit, type PExpr } from '@quarry/query-plan';
import { selectWhere } from '../operators/streaming';
import { EvalContext } from './context';
import { directSelection } from './direct-select';
import { evaluate } from './evaluate';

const OPS = ['==', '!=', '<', '<=', '>', '>='] as const;

function batchOf(s: (string | null)[], x: (number | null)[]): ColumnBatch {
  const n = Math.min(s.length, x.length);
  const columns = new Map<string, Column>([
    ['s', columnFromValues(s.slice(0, n), 'string')],
    ['x', columnFromValues(x.slice(0, n), 'real')],
  ]);
  return { length: n, columns };
}

function general(predicate: PExpr, batch: ColumnBatch): number[] {
  return Array.from(selectWhere(evaluate(predicate, batch, new EvalContext()), batch.length));
}

const text = fc.option(fc.constantFrom('200', '404', '500', 'a', 'B', ''), { nil: null });
const num = fc.option(fc.constantFrom(-1, 0, 1.5, 2, 100), { nil: null });
const stringComparison = fc
  .tuple(fc.constantFrom(...OPS), fc.constantFrom('200', '404', '500', 'a', 'B', ''))
  .map(([op, v]) => call(op, [col('s', 'string'), lit(v, 'string')], 'bool'));
const numberComparison = fc
  .tuple(fc.constantFrom(...OPS), fc.constantFrom(-1, 0, 1.5, 2, 100))
  .map(([op, v]) => call(op, [col('x', 'real'), lit(v, 'real')], 'bool'));
const comparison = fc.oneof(stringComparison, numberComparison);
const conjunction = fc
  .array(comparison, { minLength: 1, maxLength: 3 })
  .map((parts) => parts.reduce((a, b) => call('and', [a, b], 'bool')));

describe('directSelection', () => {
  it('selects exactly the rows the general path selects (nulls, every operator, conjunctions)', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 40 }),
        fc.array(num, { maxLength: 40 }),
        conjunction,
        (s, x, p) => {
          const batch = batchOf(s, x);
          const direct = directSelection(p, batch);
          expect(direct).not.toBeNull();
          expect(Array.from(direct!)).toEqual(general(p, batch));
        },
      ),
    );
  });

  it('leaves other shapes to the general path', () => {
    const batch = batchOf(['a', null], [1, 2]);
    expect(
      directSelection(call('contains', [col('s', 'string'), lit('a', 'string')], 'bool'), batch),
    ).toBeNull();
    expect(
      directSelection(call('==', [col('missing', 'string'), lit('a', 'string')], 'bool'), batch),
    ).toBeNull();
    expect(directSelection(call('==', [col('s', 'string'), lit(null, 'string')], 'bool'), batch)).toBeNull();
    expect(directSelection(call('==', [col('s', 'string'), lit(1, 'long')], 'bool'), batch)).toBeNull();
    expect(
      directSelection(
        call(
          'or',
          [
            call('==', [col('x', 'real'), lit(1, 'real')], 'bool'),
            call('==', [col('x', 'real'), lit(2, 'real')], 'bool'),
          ],
          'bool',
        ),
        batch,
      ),
    ).toBeNull();
  });
});
