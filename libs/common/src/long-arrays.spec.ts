import fc from 'fast-check';
import { isLongArray, markJsonLongArrays } from './long-arrays';

/** Parses `text` as parse_json does and returns the value with its long arrays marked. */
function parsed<T = unknown>(text: string): T {
  const value = JSON.parse(text) as T;
  markJsonLongArrays(text, value);
  return value;
}

describe('markJsonLongArrays', () => {
  it('marks an array whose numbers are all written as integers, nulls allowed', () => {
    expect(isLongArray(parsed('[1, null, -4]'))).toBe(true);
    expect(isLongArray(parsed('[0]'))).toBe(true);
  });

  it('leaves an array real when one number has a fraction or an exponent', () => {
    expect(isLongArray(parsed('[1, null, 4.0]'))).toBe(false);
    expect(isLongArray(parsed('[1, 2E3]'))).toBe(false);
    expect(isLongArray(parsed('[1, 2e-1]'))).toBe(false);
    // Written as reals, read as whole numbers.
    expect(isLongArray(parsed('[1, 2.00]'))).toBe(false);
    expect(isLongArray(parsed('[1, 0.5e1]'))).toBe(false);
    expect(isLongArray(parsed('[1, 1.0000000000000000001]'))).toBe(false);
    expect(isLongArray(parsed('[1, 12345678901234567890.5]'))).toBe(false);
    expect(isLongArray(parsed('[1, 1.25, 3]'))).toBe(false);
  });

  it('does not mark arrays without numbers or with other elements', () => {
    for (const text of ['[]', '[null, null]', '[1, "2"]', '[1, true]', '[[1], 2]', '[1, {"a": 1}]']) {
      expect(isLongArray(parsed(text))).toBe(false);
    }
  });

  it('judges each nested array on its own elements', () => {
    type Nested = [number[], number[], { a: unknown[]; b: unknown[][] }];
    const value = parsed<Nested>('[[1, 2], [1.5], {"a": [3, null], "b": [[4]]}]');
    expect(isLongArray(value)).toBe(false);
    expect(isLongArray(value[0])).toBe(true);
    expect(isLongArray(value[1])).toBe(false);
    expect(isLongArray(value[2].a)).toBe(true);
    expect(isLongArray(value[2].b)).toBe(false);
    expect(isLongArray(value[2].b[0])).toBe(true);
  });

  it('is not misled by brackets, commas, quotes and digits inside strings', () => {
    const value = parsed<Record<string, unknown[]>>(
      '{"k[1,": ["x]\\"[2.5", "9"], "n": [7, 8], "\\u0041": [1.5, 2]}',
    );
    expect(isLongArray(value['k[1,'])).toBe(false);
    expect(isLongArray(value.n)).toBe(true);
    expect(isLongArray(value.A)).toBe(false);
  });

  it('finds the array by key when JavaScript reorders the keys or a key repeats', () => {
    const reordered = parsed<Record<string, unknown[]>>('{"b": [1, 2], "1": [1.5, 2]}');
    expect(Object.keys(reordered)).toEqual(['1', 'b']);
    expect(isLongArray(reordered.b)).toBe(true);
    expect(isLongArray(reordered['1'])).toBe(false);
    expect(isLongArray(parsed<{ a: unknown[] }>('{"a": [1.5], "a": [1, 2]}').a)).toBe(true);
    expect(isLongArray(parsed<{ a: unknown[] }>('{"a": [1, 2], "a": [1.5]}').a)).toBe(false);
    // The first "a" is an array whose element 0 holds a long array; the second, an object whose "0" holds a real one.
    const replaced = parsed<{ a: Record<string, unknown[]> }>('{"a": [[1, 2]], "a": {"0": [1.5, 2]}}');
    expect(isLongArray(replaced.a['0'])).toBe(false);
  });

  it('leaves scalars and texts without arrays alone', () => {
    expect(() => markJsonLongArrays('1', 1)).not.toThrow();
    expect(() => markJsonLongArrays('{"a": 1}', { a: 1 })).not.toThrow();
  });
});

/** A JSON value as written: each number knows whether its text is an integer; an object may repeat a key. */
type Written =
  { int: number } | { real: string } | { other: string } | Written[] | { entries: [string, Written][] };

const written: fc.Arbitrary<Written> = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(1_000_000_000, -12_345_678_901))
      .map((n) => ({ int: n })),
    fc
      .constantFrom('2.5', '-0.25', '3e0', '1E2', '4.0', '1.0000000000000000001', '12345678901234567890.5')
      .map((r) => ({ real: r })),
    fc.constantFrom('null', 'true', '"7"', '"[1,"', '"a\\"]"').map((o) => ({ other: o })),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom('a', 'b', '0', '1', 'x"y'), tie('value')), { maxLength: 4 })
      .map((entries) => ({ entries })),
  ),
})).value;

function text(w: Written): string {
  if (Array.isArray(w)) return `[${w.map(text).join(', ')}]`;
  if ('int' in w) return String(w.int);
  if ('real' in w) return w.real;
  if ('other' in w) return w.other;
  return `{${w.entries.map(([k, v]) => `${JSON.stringify(k)}: ${text(v)}`).join(',')}}`;
}

/** Every array of `w` as it survives JSON.parse (the last of a repeated key), next to the parsed array. */
function* arrays(w: Written, parsedValue: unknown): Generator<[Written[], unknown]> {
  if (Array.isArray(w)) {
    yield [w, parsedValue];
    for (let i = 0; i < w.length; i++) yield* arrays(w[i], (parsedValue as unknown[])[i]);
  } else if ('entries' in w) {
    const last = new Map(w.entries);
    for (const [k, v] of last) yield* arrays(v, (parsedValue as Record<string, unknown>)[k]);
  }
}

describe('markJsonLongArrays (property)', () => {
  it('marks exactly the arrays whose elements are integer-written numbers and nulls, at least one number', () => {
    fc.assert(
      fc.property(written, (w) => {
        const source = text(w);
        const value = parsed(source);
        for (const [elements, array] of arrays(w, value)) {
          const isNull = (e: Written) => !Array.isArray(e) && 'other' in e && e.other === 'null';
          const isInt = (e: Written) => !Array.isArray(e) && 'int' in e;
          const expected = elements.some(isInt) && elements.every((e) => isInt(e) || isNull(e));
          expect(isLongArray(array)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});
