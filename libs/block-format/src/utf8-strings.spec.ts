import fc from 'fast-check';
import { type ColumnBatch, Utf8Interner, utf8StringColumn } from '@quarry/contracts';
import { decodeBlock } from './decode-block';
import { decodeColumn } from './decode-column';
import { encodeColumn } from './encode-column';
import { readFooter } from './footer';
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

  it('encode to the same block as the same strings in every layout (hex, uuid, tokens, plain)', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{16}$/);
    const uuid = fc.uuid();
    const word = fc.constantFrom('ok', 'slow', 'cache', 'miss', 'Köln', '😀', 'x'.repeat(20), '');
    const freeText = fc.array(word, { minLength: 3, maxLength: 12 }).map((w) => w.join(' '));
    const text = fc.oneof(
      fc.constantFrom('', 'a', 'GET', 'é', '😀', '\uffff', '\ue000', 'x'.repeat(70)),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
    const dictionary = fc.oneof(
      fc.uniqueArray(hex, { minLength: 1, maxLength: 40 }),
      fc.uniqueArray(uuid, { minLength: 1, maxLength: 40 }),
      fc.uniqueArray(freeText, { minLength: 20, maxLength: 60 }),
      fc.uniqueArray(text, { minLength: 1, maxLength: 30 }),
    );
    const layouts = new Set<string>();
    fc.assert(
      fc.property(
        dictionary,
        fc.array(fc.option(fc.nat(), { nil: null, freq: 20 }), { minLength: 30, maxLength: 120 }),
        (dict, picks) => {
          const rows = picks.map((p) => (p === null ? null : dict[p % dict.length]));
          const fromUtf8 = encodeBlock(batchOf(rows, dict, true));
          const fromStrings = encodeBlock(batchOf(rows, dict, false));
          expect(Buffer.from(fromUtf8).equals(Buffer.from(fromStrings))).toBe(true);
          const decoded = decodeBlock(fromUtf8).columns.get('s');
          if (decoded?.kind !== 'string') throw new Error('not a string column');
          expect([...decoded.codes].map((c) => (c < 0 ? null : decoded.dict[c]))).toEqual(rows);
          layouts.add(
            readFooter(fromUtf8)
              .columns.find((c) => c.name === 's')!
              .layout!.split('/')[0],
          );
        },
      ),
      { numRuns: 400 },
    );
    // The runs reached every layout of the values.
    expect([...layouts].sort()).toEqual(['hex', 'plain', 'tokens', 'uuid']);
  });

  it('encode a few entries of a large dictionary (a block cut from a flush) as the same strings would', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 8 }), { minLength: 40, maxLength: 80 }),
        fc.array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 12 }),
        (dict, picks) => {
          const rows = picks.map((p) => (p === null ? null : dict[p % dict.length]));
          const fromUtf8 = encodeBlock(batchOf(rows, dict, true));
          expect(Buffer.from(fromUtf8).equals(Buffer.from(encodeBlock(batchOf(rows, dict, false))))).toBe(
            true,
          );
        },
      ),
    );
  });

  it('decode from the log as UTF-8 on request, to the same strings, and still refuse invalid UTF-8', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 8 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 40 }),
        (dict, picks) => {
          const rows = picks.map((p) => (p === null ? null : dict[p % dict.length]));
          const bytes = encodeBlock(batchOf(rows, dict, false), { preset: 'fast' });
          const lazy = decodeBlock(bytes, null, { utf8Strings: true }).columns.get('s');
          const eager = decodeBlock(bytes).columns.get('s');
          if (lazy?.kind !== 'string' || eager?.kind !== 'string') throw new Error('not a string column');
          expect(lazy.utf8).toBeDefined();
          expect(lazy.codes).toEqual(eager.codes);
          expect(lazy.dict).toEqual(eager.dict);
        },
      ),
    );
    // A value byte that is not UTF-8 (0xff) in a plain chunk: refused either way.
    const column = batchOf(['zzé', 'zz'], ['zzé', 'zz'], false).columns.get('s')!;
    const payload = Uint8Array.from(encodeColumn(column, 2, { search: false }).payload);
    payload[Buffer.from(payload).indexOf('zz')] = 0xff;
    for (const options of [{}, { utf8Strings: true }])
      expect(() => decodeColumn(payload, 'strings', 'string', 2, 's', options)).toThrow(/invalid UTF-8/);
  });

  it('decode their dictionary only when it is read', () => {
    const interner = new Utf8Interner();
    interner.internString('Köln');
    const column = utf8StringColumn(Int32Array.of(0), interner.finish());
    expect(column.dict).toEqual(['Köln']);
    expect(column.dict).toBe(column.dict);
  });
});
