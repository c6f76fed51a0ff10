/**
 * Laws of the string, encoding and conversion functions (issue 19, round 2 audit): round trips between
 * the encoders and decoders, strict base64, tohex as a base-16 writer, indexof_regex of a quoted literal
 * agreeing with indexof. The seed is shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { SCALAR_IMPLS } from './registry';

const kindOf = (a: unknown): ColumnKind =>
  typeof a === 'string'
    ? 'string'
    : typeof a === 'number'
      ? Number.isInteger(a)
        ? 'long'
        : 'real'
      : typeof a === 'boolean'
        ? 'bool'
        : 'dynamic';
const f = (name: string, ...args: unknown[]) => SCALAR_IMPLS.get(name)!(args, args.map(kindOf));

/** Well-formed Unicode text (no lone surrogates: those have no UTF-8 form to round-trip). */
const text = fc.string({ unit: 'grapheme', maxLength: 60 });
const ascii = fc.string({
  unit: fc.constantFrom('a', 'b', 'c', '.', '*', '(', ')', '+', '?'),
  maxLength: 30,
});

describe('string function laws', () => {
  it('base64_decode_tostring undoes base64_encode_tostring', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(f('base64_decode_tostring', f('base64_encode_tostring', s))).toBe(s);
      }),
    );
  });

  it('base64_decode_toarray undoes base64_encode_fromarray', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }), (bytes) => {
        expect(f('base64_decode_toarray', f('base64_encode_fromarray', bytes))).toEqual(bytes);
      }),
    );
  });

  it('base64 text cut to a length that is not a multiple of 4 decodes to null (Kusto reads .NET base64)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }), (bytes) => {
        const encoded = f('base64_encode_fromarray', bytes) as string;
        const cut = encoded.replace(/=+$/, '').slice(0, -1);
        fc.pre(cut.length % 4 !== 0);
        expect(f('base64_decode_toarray', cut)).toBeNull();
        expect(f('base64_decode_tostring', cut)).toBeNull();
      }),
    );
  });

  it('unicode_codepoints_to_string undoes unicode_codepoints_from_string, and strlen counts the code points', () => {
    fc.assert(
      fc.property(text, (s) => {
        const points = f('unicode_codepoints_from_string', s) as number[];
        expect(f('unicode_codepoints_to_string', points)).toBe(s);
        expect(f('strlen', s)).toBe(points.length);
      }),
    );
  });

  it('url_decode undoes url_encode', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(f('url_decode', f('url_encode', s))).toBe(s);
      }),
    );
  });

  it('tohex writes the number in base 16, padded to min(minLength, 16)', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger().filter((n) => n >= 0),
        fc.integer({ min: 1, max: 40 }),
        (n, width) => {
          const hex = f('tohex', n, width) as string;
          expect(BigInt('0x' + hex)).toBe(BigInt(n));
          expect(hex.length).toBe(Math.max(n.toString(16).length, Math.min(width, 16)));
        },
      ),
    );
  });

  it('tohex of a negative long is its 64-bit two’s complement', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: -1 }), (n) => {
        const hex = f('tohex', n) as string;
        expect(hex).toHaveLength(16);
        expect(BigInt.asIntN(64, BigInt('0x' + hex))).toBe(BigInt(n));
      }),
    );
  });

  it('indexof_regex of a quoted literal finds what indexof finds', () => {
    fc.assert(
      fc.property(
        ascii,
        ascii.filter((m) => m.length > 0),
        fc.integer({ min: 0, max: 35 }),
        (s, m, start) => {
          const quoted = f('regex_quote', m);
          expect(f('indexof_regex', s, quoted, start)).toBe(f('indexof', s, m, start));
        },
      ),
    );
  });

  it('indexof_regex: the n-th occurrence comes after the (n-1)-th; a negative start, occurrence < 1 or length < -1 is null', () => {
    fc.assert(
      fc.property(ascii, fc.integer({ min: 1, max: 4 }), (s, n) => {
        const prev = f('indexof_regex', s, '[ab]', 0, n) as number;
        const next = f('indexof_regex', s, '[ab]', 0, n + 1) as number;
        if (prev === -1) expect(next).toBe(-1);
        else expect(next === -1 || next > prev).toBe(true);
        expect(f('indexof_regex', s, 'a', -1)).toBeNull();
        expect(f('indexof_regex', s, 'a', 0, 0)).toBeNull();
        expect(f('indexof_regex', s, 'a', 0, 1, -2)).toBeNull();
      }),
    );
  });
});
