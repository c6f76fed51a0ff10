import fc from 'fast-check';
import {
  columnFromValues,
  valueAt,
  type BlockSummary,
  type Column,
  type ColumnBatch,
  type ColumnSummary,
} from '@quarry/contracts';
import { call, col, lit, type PExpr } from '@quarry/query-plan';
import { EvalContext } from '../eval/context';
import { evaluate } from '../eval/evaluate';
import { termsOf } from '../eval/terms';
import { blockPruning } from './block-pruning';

/** The statistics a block of `batch` would carry, with exact (no false positive) token filters. */
function summaryOf(batch: ColumnBatch): BlockSummary {
  return {
    rowCount: batch.length,
    column(name) {
      const c = batch.columns.get(name);
      if (!c) return undefined;
      const values: unknown[] = [];
      let nullCount = 0;
      for (let i = 0; i < batch.length; i++) {
        const v = valueAt(c, i);
        if (v === null) nullCount++;
        else values.push(v);
      }
      const summary: ColumnSummary = { kind: c.kind, nullCount };
      if (c.kind !== 'dynamic' && c.kind !== 'bool' && values.length > 0) {
        summary.min = values.reduce((a, b) => ((b as number) < (a as number) ? b : a)) as number | string;
        summary.max = values.reduce((a, b) => ((b as number) > (a as number) ? b : a)) as number | string;
      }
      if (c.kind === 'string') {
        const texts = values.map((v) => (v as string).toLowerCase());
        summary.filter = {
          mayContainTerm: (term) => {
            const wanted = termsOf(term.toLowerCase());
            return texts.some((t) => wanted.every((w) => termsOf(t).includes(w)));
          },
          mayContainSubstring: (needle) => texts.some((t) => t.includes(needle.toLowerCase())),
        };
      }
      return summary;
    },
  };
}

const words = ['GET', 'get', 'post', 'timeout', 'a b', 'Time out', '', 'é'];
const stringValue = fc.oneof(fc.constantFrom(...words), fc.constant(null));
const numberValue = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5, noNaN: true }),
  fc.constant(null),
);
const mixedValue = fc.oneof(stringValue, numberValue);

const batchArb = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc
    .record({
      s: fc.array(stringValue, { minLength: n, maxLength: n }),
      x: fc.array(numberValue, { minLength: n, maxLength: n }),
      m: fc.array(mixedValue, { minLength: n, maxLength: n }),
      absent: fc.boolean(),
    })
    .map(({ s, x, m, absent }) => {
      const columns = new Map<string, Column>([
        ['x', columnFromValues(x)],
        ['m', columnFromValues(m)],
      ]);
      if (!absent) columns.set('s', columnFromValues(s));
      return { length: n, columns } as ColumnBatch;
    }),
);

const stringLit = fc.constantFrom(...words, 'tim', 'OUT').map((v) => lit(v, 'string'));
const numberLit = fc.integer({ min: -6, max: 6 }).map((v) => lit(v, 'long'));
const anyLit = fc.oneof(stringLit, numberLit);
const column = fc.constantFrom('s', 'x', 'm').map((name) => col(name, 'string'));
const ops = [
  '==',
  '=~',
  '<',
  '<=',
  '>',
  '>=',
  'has',
  'has_cs',
  'contains',
  'contains_cs',
  'startswith',
  'endswith_cs',
  'hasprefix',
  '!=',
  '!contains',
];

const predicate: fc.Arbitrary<PExpr> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.tuple(fc.constantFrom(...ops), column, anyLit).map(([op, c, v]) => call(op, [c, v], 'bool')),
    fc
      .tuple(column, fc.array(anyLit, { minLength: 1, maxLength: 3 }))
      .map(([c, vs]) => call('in', [c, ...vs], 'bool')),
    fc.tuple(column, numberLit, numberLit).map(([c, a, b]) => call('between', [c, a, b], 'bool')),
  ),
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc
      .tuple(fc.constantFrom('and', 'or'), tie('tree'), tie('tree'))
      .map(([op, a, b]) => call(op, [a as PExpr, b as PExpr], 'bool')),
  ),
})).tree as fc.Arbitrary<PExpr>;

describe('blockPruning', () => {
  it('never rules out a block that has a row passing the filter (property)', () => {
    let ruledOut = 0;
    fc.assert(
      fc.property(batchArb, predicate, (batch, filter) => {
        const pruning = blockPruning(filter);
        if (pruning === null || pruning.mayMatch(summaryOf(batch))) return;
        ruledOut++;
        const result = evaluate(filter, batch, new EvalContext());
        for (let i = 0; i < batch.length; i++) expect(valueAt(result, i)).not.toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(ruledOut).toBeGreaterThan(100); // the property is not vacuous
  });

  it('rules out blocks by min/max, by token filter and by absent columns', () => {
    const batch: ColumnBatch = {
      length: 2,
      columns: new Map([
        ['x', columnFromValues([1, 5])],
        ['s', columnFromValues(['connection reset', 'ok'])],
      ]),
    };
    const summary = summaryOf(batch);
    const may = (e: PExpr) => blockPruning(e)!.mayMatch(summary);
    expect(may(call('==', [col('x', 'long'), lit(7, 'long')], 'bool'))).toBe(false);
    expect(may(call('>', [col('x', 'long'), lit(4, 'long')], 'bool'))).toBe(true);
    expect(may(call('has', [col('s', 'string'), lit('timeout', 'string')], 'bool'))).toBe(false);
    expect(may(call('has', [col('s', 'string'), lit('RESET', 'string')], 'bool'))).toBe(true);
    expect(may(call('contains', [col('nope', 'string'), lit('x', 'string')], 'bool'))).toBe(false);
    expect(blockPruning(call('!contains', [col('s', 'string'), lit('x', 'string')], 'bool'))).toBeNull();
  });
});
