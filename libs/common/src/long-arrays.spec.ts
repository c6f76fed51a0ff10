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
  });

  it('leaves scalars and texts without arrays alone', () => {
    expect(() => markJsonLongArrays('1', 1)).not.toThrow();
    expect(() => markJsonLongArrays('{"a": 1}', { a: 1 })).not.toThrow();
  });
});
