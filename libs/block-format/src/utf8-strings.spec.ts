import fc from 'fast-check';
import { type ColumnBatch, Utf8Interner, utf8StringColumn } from '@quarry/contracts';
import { decodeBlock } from './decode-block';
import { encodeBlock } from './encode-block';

/** One string column `s` over `rows` (null = null row), as a UTF-8 dictionary or as strings. */
function batchOf(rows: (string | null)[], dict: string[], utf8: boolean): ColumnBatch {
  const codes = Int32Array.from(rows, (v) => (v === null ? -1 : dict.indexOf(v)));
  let column;
  if (utf8) {
    const interner = new Utf8Interner();
    for (const value of dict) interner.internString(value);
    column = utf8StringColumn(codes, interner.finish());
  } else column = { kind: 'string' as const, codes, dict };
  return { length: rows.length, columns: new Map([['s', column]]) };
}

describe('string columns kept as UTF-8', () => {
  it('encode to the same log bytes as the same strings (unused entries, nulls, any text)', () => {
    const text = fc.oneof(
      fc.constantFrom('', 'a', 'GET', 'é', '😀', '\uffff', 'x'.repeat(70)),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(text, { minLength: 1, maxLength: 12 }),
        fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 40 }),
        (dict, picks) => {
          // Rows use some of the entries (not all, not in order) when the picks say so.
          const rows = picks.map((p) => (p === null ? null : dict[p % dict.length]));
          const fromUtf8 = encodeBlock(batchOf(rows, dict, true), { preset: 'fast' });
          const fromStrings = encodeBlock(batchOf(rows, dict, false), { preset: 'fast' });
          expect(Buffer.from(fromUtf8).equals(Buffer.from(fromStrings))).toBe(true);
          const decoded = decodeBlock(fromUtf8).columns.get('s');
          if (decoded?.kind !== 'string') throw new Error('not a string column');
          expect([...decoded.codes].map((c) => (c < 0 ? null : decoded.dict[c]))).toEqual(rows);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('decode their dictionary only when it is read', () => {
    const interner = new Utf8Interner();
    interner.internString('Köln');
    const column = utf8StringColumn(Int32Array.of(0), interner.finish());
    expect(column.dict).toEqual(['Köln']);
    expect(column.dict).toBe(column.dict);
  });
});
