import fc from 'fast-check';
import { decodeUtf8Dict } from '@quarry/contracts';
import { ByteReader, ByteWriter } from './bytes';
import { readTokenValues, tokenize, writeTokenValues } from './token-values';

describe('token values', () => {
  it('split on single spaces into distinct tokens, empty ones included', () => {
    const t = tokenize(['a  b', '', ' ', 'a b', 'b'])!;
    expect(t.tokens).toEqual(['a', '', 'b']);
    expect([...t.counts]).toEqual([3, 1, 2, 2, 1]);
    expect([...t.codes.subarray(0, t.total)]).toEqual([0, 1, 2, 1, 1, 1, 0, 2, 2]);
  });

  it('give up when most tokens are distinct', () => {
    const values = Array.from({ length: 2000 }, (_, i) => `id-${i} value-${i * 7}`);
    expect(tokenize(values)).toBeNull();
  });

  it('round-trip any strings (property)', () => {
    const piece = fc.constantFrom('', ' ', '  ', 'a', 'bb', 'é', '🌍', 'Σ', '\u0000', 'x y');
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
            fc.string({ unit: 'grapheme' }),
          ),
          {
            maxLength: 30,
          },
        ),
        (raw) => {
          const values = [...new Set(raw)];
          const t = tokenize(values)!;
          expect(t).not.toBeNull();
          // The tokens split each value on its spaces, and their bytes are their UTF-8 (what is written).
          let at = 0;
          values.forEach((value, d) => {
            const codes = [...t.codes.subarray(at, (at += t.counts[d]))];
            expect(codes.map((c) => t.tokens[c])).toEqual(value.split(' '));
          });
          const { bytes, ends } = t.tokenBytes;
          expect(
            t.tokens.map((_, k) =>
              Buffer.from(bytes.subarray(k === 0 ? 0 : ends[k - 1], ends[k])).toString(),
            ),
          ).toEqual(t.tokens);
          const w = new ByteWriter(16);
          writeTokenValues(w, t, values.length);
          const read = readTokenValues(new ByteReader(w.finish(), 'test'), values.length);
          expect(read.values).toEqual(values);
          // The tokens read back describe the same values: each is its tokens joined by spaces.
          const tokenText = decodeUtf8Dict(read.tokens.tokens);
          let next = 0;
          const rebuilt = [...read.tokens.counts].map((k) =>
            [...read.tokens.codes.subarray(next, (next += k))].map((c) => tokenText[c]).join(' '),
          );
          expect(rebuilt).toEqual(values);
        },
      ),
    );
  });
});
