import fc from 'fast-check';
import { parse as csvParse } from 'csv-parse/sync';
import { QuarryError } from '@quarry/common';
import { parseCsv } from './csv-body';
import { RecordError } from './json-body';
import { resolveLimits } from './limits';

const LIMITS = resolveLimits({});

/** The records our parser reads (header given, so every line is a record), as arrays of strings. */
function ours(text: string, delimiter: string): string[][] {
  const width = 50;
  const names = Array.from({ length: width }, (_, i) => `f${i}`);
  const source = parseCsv(Buffer.from(text), 0, delimiter, names, LIMITS);
  const out: string[][] = [];
  for (let i = 0; i < source.count; i++) {
    const record = source.read(i);
    if (record instanceof RecordError) throw new Error(record.message);
    out.push(Object.values(record as Record<string, string>));
  }
  return out;
}

/** csv-parse, the general-purpose parser this one replaced, as the oracle (empty cells dropped alike). */
function oracle(text: string, delimiter: string): string[][] {
  const rows = csvParse(text, { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  return rows.map((r) => r.filter((v) => v !== ''));
}

const cell = fc.oneof(
  fc.constantFrom('', 'a', 'x y', ' lead', 'São Paulo', '1.5', 'Mozilla/5.0 (KHTML, like Gecko)'),
  fc.string({ unit: fc.constantFrom('a', 'b', ',', ';', '"', '\n', '\r\n', ' ', 'é'), maxLength: 8 }),
);

function render(rows: string[][], delimiter: string, eol: string, quoteAll: boolean): string {
  const quote = (v: string) =>
    quoteAll || v.includes(delimiter) || v.includes('"') || v.includes('\n') || v.includes('\r') || v === ''
      ? `"${v.replace(/"/g, '""')}"`
      : v;
  return rows.map((r) => r.map(quote).join(delimiter)).join(eol);
}

describe('parseCsv', () => {
  it('reads what csv-parse reads, for any quoting, delimiter and line ending (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(',', ';', '\t', '|'),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (rows, delimiter, eol, quoteAll) => {
          const text = render(rows, delimiter, eol, quoteAll);
          expect(ours(text, delimiter)).toEqual(oracle(text, delimiter));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('numbers records by the line they start on, across quoted line breaks', () => {
    const source = parseCsv(Buffer.from('a,b\n"x\ny",1\n\n2,3,4\n'), 0, ',', null, LIMITS);
    expect(source.count).toBe(2);
    expect(source.where(1)).toBe('line 5');
    expect(source.read(1)).toBeInstanceOf(RecordError);
  });

  it.each([
    ['a,b\n"open,1\n', 'invalid CSV on line 2: a quoted value is never closed'],
    ['a,b\n"x"y,1\n', 'invalid CSV on line 2: unexpected "y" after a closing quote'],
    ['a,b\nx"y",1\n', 'invalid CSV on line 2: a quote inside the unquoted value "x\\"y\\""'],
  ])('refuses %j', (text, message) => {
    expect(() => parseCsv(Buffer.from(text), 0, ',', null, LIMITS)).toThrow(message);
  });

  it('refuses a delimiter that is not one character', () => {
    const err = (() => {
      try {
        parseCsv(Buffer.from('a'), 0, '::', null, LIMITS);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('ingest_csv_delimiter_invalid');
  });
});
