import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import { type ColumnBatch, columnFromValues } from '@quarry/contracts';
import { openBlock } from './decode-block';
import { encodeBlock } from './encode-block';
import { readFooter } from './footer';
import {
  NO_TOKEN_FILTER,
  type TokenFilter,
  fetchTokenFilter,
  readTokenFilter,
  tokenFilterRange,
} from './token-filter';

/** The engine's definitions (libs/query-exec/src/eval/string-match.ts and terms.ts), restated. */
const termsOf = (s: string) => s.match(/[\p{L}\p{N}]+/gu) ?? [];
function hasTerms(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++)
    if (needle.every((t, j) => haystack[i + j] === t)) return true;
  return false;
}
const engine = {
  has: (v: string, n: string) => hasTerms(termsOf(v.toLowerCase()), termsOf(n.toLowerCase())),
  has_cs: (v: string, n: string) => hasTerms(termsOf(v), termsOf(n)),
  contains: (v: string, n: string) => v.toLowerCase().includes(n.toLowerCase()),
  contains_cs: (v: string, n: string) => v.includes(n),
};

function filterOf(values: (string | null)[], name = 's'): TokenFilter {
  const batch: ColumnBatch = {
    length: values.length,
    columns: new Map([[name, columnFromValues(values, 'string')]]),
  };
  return openBlock(encodeBlock(batch)).tokenFilter(name)!;
}

/** Every needle some row matches must get "maybe" from the filter: no false negatives. */
function expectNoFalseNegative(values: string[], filter: TokenFilter, needle: string): void {
  // Decoded values replace lone surrogates by U+FFFD; queries see those.
  const rows = values.map((v) => (v as unknown as { toWellFormed(): string }).toWellFormed());
  for (const op of ['has', 'has_cs'] as const)
    if (rows.some((v) => engine[op](v, needle)))
      expect([op, needle, filter.mayContainTerm(needle)]).toEqual([op, needle, true]);
  for (const op of ['contains', 'contains_cs'] as const)
    if (rows.some((v) => engine[op](v, needle)))
      expect([op, needle, filter.mayContainSubstring(needle)]).toEqual([op, needle, true]);
}

const PIECES = [
  'Σίσυφος',
  'ΑΣ',
  'σς',
  'İstanbul',
  'ǅemal',
  'straße',
  'ﬁle',
  'K',
  '🌍x',
  'a',
  'Timeout',
  'ok',
  '42',
  '',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES, ' ', '  ', '.', '-', '_'), { maxLength: 10 }).map((p) => p.join('')),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((p) => p.join(' ')),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

describe('token filter', () => {
  it('has no false negatives for has/has_cs/contains/contains_cs on random text (property)', () => {
    // Free-text columns (token layout) and short-value columns (plain layout) both.
    const column = fc.oneof(
      fc.array(text, { minLength: 1, maxLength: 40 }),
      fc.array(
        fc.array(fc.constantFrom(...PIECES), { minLength: 2, maxLength: 8 }).map((p) => p.join(' ')),
        {
          minLength: 20,
          maxLength: 60,
        },
      ),
    );
    fc.assert(
      fc.property(column, fc.array(text, { maxLength: 5 }), fc.nat(), (values, extra, pick) => {
        const filter = filterOf(values);
        // Needles: pieces of the values (substrings, terms) and unrelated text.
        const v = values[pick % values.length];
        const start = pick % (v.length + 1);
        const needles = [
          ...extra,
          v,
          v.slice(start, start + 3),
          v.slice(start, start + 7),
          v.toUpperCase().slice(start),
          ...termsOf(v),
        ];
        for (const needle of needles) expectNoFalseNegative(values, filter, needle);
      }),
      { numRuns: 300 },
    );
  });

  it('a value’s text folds the same whole or token by token (final sigma, dotted İ)', () => {
    const values = Array.from({ length: 40 }, (_, i) => `ΟΔΟΣ ${i} ΑΣ.Α İx σοφΟΣ`);
    const filter = filterOf(values);
    for (const needle of ['οδος', 'ΟΔΟΣ', 'ας', 'ασ', 'ΑΣ.Α', 'σοφος', 'ΣΟΦΟΣ', 'i̇x', 'İx', 'ος 1'])
      expectNoFalseNegative(values, filter, needle);
  });

  it('has no false negatives on the bench events, and about 1% false positives', () => {
    const bytes = new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', 'v1', 'bench-events.qblk')));
    const v1 = openBlock(bytes);
    expect(v1.tokenFilter('message')).toBe(NO_TOKEN_FILTER); // v1 blocks have none
    const batch: ColumnBatch = { length: v1.footer.rowCount, columns: new Map() };
    for (const meta of v1.footer.columns) batch.columns.set(meta.name, v1.column(meta.name)!);
    const block = openBlock(encodeBlock(batch));
    for (const name of ['message', 'id', 'uri', 'user_agent', 'geo.city']) {
      const col = batch.columns.get(name)!;
      if (col.kind !== 'string') throw new Error(name);
      const filter = block.tokenFilter(name)!;
      for (const value of col.dict) {
        for (const term of termsOf(value))
          expect([name, term, filter.mayContainTerm(term)]).toEqual([name, term, true]);
        for (let i = 0; i + 5 <= value.length; i += 3) {
          const needle = value.slice(i, i + 5).toUpperCase();
          expect([name, needle, filter.mayContainSubstring(needle)]).toEqual([name, needle, true]);
        }
      }
    }
    // False positives: random terms that no value has.
    const message = block.tokenFilter('message')!;
    const id = block.tokenFilter('id')!;
    let positives = 0;
    const tries = 20_000;
    for (let i = 0; i < tries; i++) {
      const term = `q${(i * 2654435761) % 2 ** 32}z`;
      if (id.mayContainTerm(term)) positives++;
      if (message.mayContainTerm(term)) positives++;
    }
    expect(positives / (2 * tries)).toBeLessThan(0.02);
    expect(message.mayContainTerm('timeout')).toBe(true);
    expect(message.mayContainTerm('Connection TIMEOUT')).toBe(true);
    expect(message.mayContainSubstring('nection tim')).toBe(true);
    expect(message.mayContainSubstring('zebra')).toBe(false);
    expect(message.mayContainTerm('zebra')).toBe(false);
  });

  it('hex and uuid columns (terms taken from their bytes): every term of every value is found', () => {
    const hex = (i: number) => ((i * 2654435761) >>> 0).toString(16).padStart(8, '0');
    const columns = {
      lower: Array.from({ length: 300 }, (_, i) => hex(i) + hex(i * 7)),
      upper: Array.from({ length: 300 }, (_, i) => (i % 5 ? (hex(i) + hex(i + 1)).toUpperCase() : null)),
      uuid: Array.from({ length: 300 }, (_, i) => {
        const h = hex(i) + hex(i + 1) + hex(i + 2) + hex(i + 3);
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`.toUpperCase();
      }),
    };
    const batch: ColumnBatch = { length: 300, columns: new Map() };
    for (const [name, values] of Object.entries(columns))
      batch.columns.set(name, columnFromValues(values, 'string'));
    const bytes = encodeBlock(batch);
    const block = openBlock(bytes);
    for (const [name, values] of Object.entries(columns)) {
      expect(readFooter(bytes).columns.find((c) => c.name === name)!.layout).toMatch(/^(hex|uuid)\//);
      const filter = block.tokenFilter(name)!;
      for (const value of values) {
        if (value === null) continue;
        expect(filter.mayContainTerm(value)).toBe(true);
        for (const term of termsOf(value))
          expect([term, filter.mayContainTerm(term.toLowerCase())]).toEqual([term, true]);
      }
      expect(filter.mayContainTerm('0123abcd0123abcd')).toBe(false);
      expect(filter.mayContainSubstring('abc')).toBe(true); // no trigram part
    }
  });

  it('answers true for needles it cannot judge: short substrings, no terms', () => {
    const filter = filterOf(['alpha beta', 'gamma']);
    expect(filter.mayContainSubstring('zz')).toBe(true);
    expect(filter.mayContainSubstring('')).toBe(true);
    expect(filter.mayContainTerm('---')).toBe(true);
    expect(filter.mayContainTerm('delta')).toBe(false);
    expect(filter.mayContainSubstring('zzz')).toBe(false);
    // A column of nulls only: nothing matches.
    expect(filterOf([null, null]).mayContainTerm('x')).toBe(false);
  });

  it('leaves out a part with too many distinct keys; it then answers true', () => {
    // Unique random words: far more distinct trigrams than the cap, and more terms than 2 per row.
    const words = (i: number) =>
      Array.from({ length: 30 }, (_, j) =>
        (((i * 7919 + j * 104729) * 2654435761) % 2 ** 32).toString(36),
      ).join(' ');
    const filter = filterOf(Array.from({ length: 5000 }, (_, i) => words(i)));
    expect(filter.mayContainSubstring('!!!')).toBe(true);
    expect(filter.mayContainTerm('nothere')).toBe(true);
  });

  it('is found by byte range through the footer, and checked', async () => {
    const batch: ColumnBatch = {
      length: 3,
      columns: new Map([
        ['s', columnFromValues(['connection reset', 'ok', null])],
        ['n', columnFromValues([1, 2, 3])],
      ]),
    };
    const bytes = encodeBlock(batch);
    const footer = readFooter(bytes);
    const meta = footer.columns.find((c) => c.name === 's')!;
    const range = tokenFilterRange(meta)!;
    expect(range).toEqual({ offset: meta.filterOffset, length: meta.filterLength });
    expect(tokenFilterRange(footer.columns.find((c) => c.name === 'n')!)).toBeNull();
    const fetch = async (offset: number, length: number) => bytes.slice(offset, offset + length);
    const filter = (await fetchTokenFilter(footer, 's', fetch))!;
    expect(filter.mayContainTerm('RESET')).toBe(true);
    expect(filter.mayContainTerm('closed')).toBe(false);
    expect(await fetchTokenFilter(footer, 'n', fetch)).toBe(NO_TOKEN_FILTER);
    expect(await fetchTokenFilter(footer, 'missing', fetch)).toBeNull();

    const copy = bytes.slice();
    copy[range.offset + 1] ^= 0x10;
    for (const read of [
      () => readTokenFilter(copy.subarray(range.offset, range.offset + range.length), meta),
      () => openBlock(copy).tokenFilter('s'),
    ]) {
      expect(read).toThrow(QuarryError);
      expect(read).toThrow('corrupt block: checksum mismatch in the token filter of column "s"');
    }
    // Without the footer entry (no CRC to check), damage is still a block_corrupt, never a stray error.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (garbage) => {
        try {
          readTokenFilter(garbage).mayContainTerm('x');
        } catch (err) {
          expect(err).toBeInstanceOf(QuarryError);
        }
      }),
    );
  });
});
