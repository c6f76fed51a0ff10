import type { ColumnKind } from '@quarry/contracts';
import { SCALAR_IMPLS } from './registry';

const f = (name: string, args: unknown[], kinds?: ColumnKind[]) =>
  SCALAR_IMPLS.get(name)!(
    args,
    kinds ??
      args.map((a) =>
        typeof a === 'string'
          ? 'string'
          : typeof a === 'number'
            ? Number.isInteger(a)
              ? 'long'
              : 'real'
            : typeof a === 'boolean'
              ? 'bool'
              : 'dynamic',
      ),
  );

describe('scalar functions', () => {
  it('round half away from zero, floor, ceiling, bin', () => {
    expect(f('round', [2.5])).toBe(3);
    expect(f('round', [-2.5])).toBe(-3);
    expect(f('round', [312.385, 2])).toBe(312.39);
    expect(f('bin', [17, 5])).toBe(15);
    expect(f('bin', [4.7, 0.5])).toBe(4.5);
    expect(f('bin', [-3, 2])).toBe(-4);
    expect(f('ceiling', [1.2])).toBe(2);
  });

  it('string functions', () => {
    expect(f('substring', ['abcdef', 2])).toBe('cdef');
    expect(f('substring', ['abcdef', 4, 10])).toBe('ef');
    expect(f('split', ['a,b,,c', ','])).toEqual(['a', 'b', '', 'c']);
    expect(f('strlen', ['São'])).toBe(3);
    expect(f('replace_regex', ['[0-9]', '#', 'a1b22'])).toBe('a#b##');
    expect(f('replace_regex', ['(a)(b)', '$2$1', 'xab'])).toBe('xba');
    expect(f('replace_regex', ['[a-z]', '[$0]', 'xy'])).toBe('[x][y]');
    expect(f('replace_regex', ['(a)', '\\1$1$0', 'ba'])).toBe('baaa');
    expect(f('extract', ['([0-9]+)', 1, 'id=42', null], ['string', 'long', 'string', 'long'])).toBe(42);
    expect(f('extract', ['([0-9.]+)', 1, 'v=2.5', null], ['string', 'long', 'string', 'real'])).toBe(2.5);
    expect(f('extract', ['user=(\\w+)', 1, 'x user=u7;'])).toBe('u7');
    expect(f('extract', ['nomatch(\\d)', 1, 'abc'])).toBeNull();
    expect(f('indexof', ['abcabc', 'c'])).toBe(2);
    expect(f('indexof', ['abc', 'z'])).toBe(-1);
    expect(f('trim', ['-', '--abc--'])).toBe('abc');
    expect(f('strcat', ['a', null, 1])).toBe('a1');
    expect(f('tostring', [null], ['string'])).toBe('');
  });

  it('datetime functions', () => {
    const t = Date.UTC(2024, 4, 1, 10, 47, 12); // a Wednesday
    expect(f('startofday', [t], ['datetime'])).toBe(Date.UTC(2024, 4, 1));
    expect(f('startofweek', [t], ['datetime'])).toBe(Date.UTC(2024, 3, 28));
    expect(f('startofmonth', [t], ['datetime'])).toBe(Date.UTC(2024, 4, 1));
    expect(f('endofday', [t], ['datetime'])).toBe(Date.UTC(2024, 4, 2) - 0.001);
    expect(f('hourofday', [t], ['datetime'])).toBe(10);
    expect(f('dayofweek', [t], ['datetime'])).toBe(3);
    expect(f('getmonth', [t], ['datetime'])).toBe(5);
    expect(f('datetime_add', ['month', 1, Date.UTC(2024, 0, 31)], ['string', 'long', 'datetime'])).toBe(
      Date.UTC(2024, 1, 29),
    );
    expect(
      f(
        'datetime_diff',
        ['day', Date.UTC(2024, 0, 3), Date.UTC(2024, 0, 1)],
        ['string', 'datetime', 'datetime'],
      ),
    ).toBe(2);
    expect(f('todatetime', ['2024-05-01 10:20:30'])).toBe(Date.UTC(2024, 4, 1, 10, 20, 30));
  });

  it('hash and ip functions', () => {
    expect(f('hash_md5', ['hello'])).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(f('ipv4_is_private', ['192.168.1.1'])).toBe(true);
    expect(f('ipv4_is_private', ['8.8.8.8'])).toBe(false);
    expect(f('ipv4_is_in_range', ['10.1.2.3', '10.0.0.0/8'])).toBe(true);
    expect(f('ipv4_is_in_range', ['bad', '10.0.0.0/8'])).toBeNull();
  });

  it('conversions', () => {
    expect(f('toint', ['42'])).toBe(42);
    expect(f('toint', [3.9])).toBe(3);
    expect(f('toint', ['x'])).toBeNull();
    expect(f('toreal', ['1.5'])).toBe(1.5);
    expect(f('totimespan', ['1.5h'])).toBe(5_400_000);
    expect(f('totimespan', ['90s'])).toBe(90_000);
    expect(f('parse_json', ['{"a":1}'])).toEqual({ a: 1 });
    expect(f('parse_json', ['not json'])).toBe('not json');
  });
});

describe('rare scalar functions', () => {
  it('parse and format helpers', () => {
    expect(f('parse_urlquery', ['a=1&b=x%20y'])).toEqual({ a: '1', b: 'x y' });
    expect(f('parse_csv', ['a,"b,c",d'])).toEqual(['a', 'b,c', 'd']);
    expect(f('translate', ['abc', 'x', 'aabbcc'])).toBe('xxxxxx');
    expect(f('trim_regex', ['[0-9]+', '12ab34'])).toBe('ab');
    expect(f('countof_regex', ['a.', 'abacad'])).toBe(3);
    expect(f('indexof_regex', ['hello', 'l+'])).toBe(2);
    expect(f('parse_bytes', ['1 KB'])).toBe(1024);
    expect(f('format_bytes', [1536, 1])).toBe('1.5 KB');
    // Found by the APL fuzzer: a precision over 100 threw in toFixed (a 500).
    expect(f('format_bytes', [10332, 10332, 1])).toBe('10.08984375 KB');
    expect(f('format_bytes', [1536, -3])).toBe('2 KB');
    expect(f('dynamic_to_json', [{ b: 1, a: [2] }], ['dynamic'])).toBe('{"a":[2],"b":1}');
    expect(f('unicode_codepoints_from_string', ['Aé'])).toEqual([65, 233]);
    expect(f('array_rotate_left', [[1, 2, 3, 4], 1])).toEqual([2, 3, 4, 1]);
    expect(f('array_shift_right', [[1, 2, 3], 1, 0])).toEqual([0, 1, 2]);
    expect(f('ipv4_compare', ['10.0.0.1', '10.0.0.2'])).toBe(-1);
    expect(f('ipv4_is_match', ['10.0.0.1', '10.0.0.2', 24])).toBe(true);
  });
});
