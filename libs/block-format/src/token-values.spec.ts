import fc from 'fast-check';
import { decodeUtf8Dict } from '@quarry/contracts';
import { ByteReader, ByteWriter } from './bytes';
import {
  readTokens,
  readTokenValues,
  tokenDictBytes,
  tokenize,
  tokenStringColumn,
  writeTokenValues,
  type Tokenized,
} from './token-values';

/** A token layout written from raw token bytes (`bytes`, cut at `ends`): values of `valueTokens`. */
function written(bytes: number[], ends: number[], valueTokens: number[][]): Uint8Array {
  const t: Tokenized = {
    tokens: ends.map(() => ''),
    tokenBytes: { bytes: Uint8Array.from(bytes), ends: Int32Array.from(ends) },
    counts: Uint32Array.from(valueTokens, (v) => v.length),
    codes: Uint32Array.from(valueTokens.flat()),
    total: valueTokens.flat().length,
  };
  const w = new ByteWriter(16);
  writeTokenValues(w, t, valueTokens.length);
  return w.finish();
}

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

  it('are checked when read: text cut inside a character, or not UTF-8, fails before any value is made', () => {
    // "é" (C3 A9) cut into two tokens: the bytes are valid UTF-8 together, but "C3 20 A9" is not.
    expect(() => readTokens(new ByteReader(written([0xc3, 0xa9], [1, 2], [[0, 1]]), 'test'), 1)).toThrow(
      /token 1 starting inside a character/,
    );
    expect(() => readTokens(new ByteReader(written([0x61, 0xc3], [1, 2], [[0, 1]]), 'test'), 1)).toThrow(
      /invalid UTF-8/,
    );
    const ok = readTokens(new ByteReader(written([0xc3, 0xa9, 0x61], [2, 3], [[0, 1], [1]]), 'test'), 2);
    expect(tokenStringColumn(Int32Array.from([0, 1]), ok).dict).toEqual(['é a', 'a']);
  });

  it('make their values once, on first use, and estimate their size without making them', () => {
    const values = ['GET /a took 12 ms', 'GET /b took 3 ms', 'POST /a failed: timeout'];
    const t = tokenize(values)!;
    const w = new ByteWriter(16);
    writeTokenValues(w, t, values.length);
    const tokens = readTokens(new ByteReader(w.finish(), 'test'), values.length);
    const arrays =
      tokens.tokens.bytes.byteLength +
      tokens.tokens.ends.byteLength +
      tokens.counts.byteLength +
      tokens.codes.byteLength;
    expect(tokenDictBytes(tokens)).toBe(arrays + values.reduce((b, v) => b + 32 + 2 * v.length, 0));
    const column = tokenStringColumn(Int32Array.from([2, 0]), tokens);
    expect(column.tokens).toBe(tokens);
    expect(column.dict).toEqual(values);
    expect(column.dict).toBe(column.dict);
  });
});
