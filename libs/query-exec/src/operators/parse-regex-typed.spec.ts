/**
 * `parse kind=regex` / `parse-where kind=regex` with typed captures (issue 19, round 2 operator audit):
 * the match is strict, as Kusto's parse-where page shows (`totalSlices: long` on `non_valid_integer`
 * drops the row). Laws: a long capture finds the occurrence that fits its type, and parse-where keeps
 * exactly the rows whose text has one. The seed is shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import { columnFromValues, valueAt, type ColumnBatch } from '@quarry/contracts';
import { col, type ParseNode, type PlanNode } from '@quarry/query-plan';
import { streamOf, testEnv } from '../testing/operator-test-kit';
import { parse } from './parse';

function node(dropUnmatched: boolean, flags?: string): ParseNode {
  return {
    kind: 'parse',
    input: {} as PlanNode,
    source: col('s', 'string'),
    parts: [
      { kind: 'skip' },
      { kind: 'const', text: 'n=' },
      { kind: 'capture', name: 'n', type: 'long' },
      { kind: 'const', text: ',' },
      { kind: 'skip' },
    ],
    mode: 'regex',
    ...(flags ? { flags } : {}),
    dropUnmatched,
    schema: [],
  };
}

async function run(n: ParseNode, values: string[]): Promise<unknown[]> {
  const batch: ColumnBatch = {
    length: values.length,
    columns: new Map([['s', columnFromValues(values, 'string')]]),
  };
  const out: unknown[] = [];
  for await (const b of parse(streamOf([batch]), n, testEnv())) {
    for (let i = 0; i < b.length; i++) out.push(valueAt(b.columns.get('n')!, i));
  }
  return out;
}

/** Text with no `n=<digits>,` in it. */
const junk = fc.string({ unit: fc.constantFrom('a', 'x', ' ', ',', '=', '-'), maxLength: 12 });
const field = fc.oneof(
  fc
    .integer({ min: -1_000_000, max: 1_000_000 })
    .map((v) => ({ text: String(v), value: v as number | null })),
  junk.map((t) => ({ text: `z${t}`, value: null as number | null })),
);

describe('parse kind=regex: typed captures are strict', () => {
  it('takes the occurrence whose text is a long, and parse-where keeps exactly the rows that have one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(junk, field, field), { maxLength: 12 }), async (rows) => {
        const texts = rows.map(([pre, a, b]) => `${pre}n=${a.text}, n=${b.text},`);
        // Greedy `*` before the capture: the last occurrence that fits wins (Kusto's parse page).
        const expected = rows.map(([, a, b]) => (b.value !== null ? b.value : a.value));
        expect(await run(node(false), texts)).toEqual(expected);
        expect(await run(node(true), texts)).toEqual(expected.filter((v) => v !== null));
      }),
    );
  });

  it('reads the page example: a non-integer value drops the row (flags=i)', async () => {
    const n: ParseNode = {
      ...node(true, 'i'),
      parts: [
        { kind: 'skip' },
        { kind: 'const', text: 'TOTALSLICES=' },
        { kind: 'capture', name: 'n', type: 'long' },
        { kind: 'const', text: ',' },
        { kind: 'skip' },
      ],
    };
    expect(await run(n, ['totalSlices=non_valid_integer, x', 'totalSlices=27, x'])).toEqual([27]);
  });
});
