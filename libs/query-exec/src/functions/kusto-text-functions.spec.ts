/**
 * parse_version, has_any_index, replace_strings and parse_user_agent (issue 19): the laws each has, and the
 * edges the Kusto pages describe (their examples are golden cases, test/golden/apl/kusto-fam-str2-*).
 */
import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { buildColumn, constantColumn } from '../columns';
import { membership } from '../eval/membership';
import { hasAnyIndex, parseUserAgent, parseVersion, replaceStrings } from './kusto-text-functions';
import { SCALAR_IMPLS } from './registry';

const kindOf = (a: unknown): ColumnKind =>
  typeof a === 'string' ? 'string' : typeof a === 'number' ? 'long' : 'dynamic';
const f = (name: string, ...args: unknown[]) => SCALAR_IMPLS.get(name)!(args, args.map(kindOf));

const part = fc.integer({ min: 0, max: 99_999_999 });
const version = fc.array(part, { minLength: 1, maxLength: 4 });

/** Kusto's ordering of versions: part by part, missing parts 0. */
function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < 4; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

describe('parse_version', () => {
  it('orders valid versions as their parts do (order preserving, equal when only trailing zeros differ)', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        const pa = parseVersion(a.join('.'))!;
        const pb = parseVersion(b.join('.'))!;
        const textOrder = pa < pb ? -1 : pa > pb ? 1 : 0;
        expect(textOrder).toBe(compareVersions(a, b));
      }),
    );
  });

  it('is the decimal part1·10^24 + part2·10^16 + part3·10^8 + part4, written in 32 digits', () => {
    fc.assert(
      fc.property(version, (v) => {
        const [a = 0, b = 0, c = 0, d = 0] = v;
        const expected = BigInt(a) * 10n ** 24n + BigInt(b) * 10n ** 16n + BigInt(c) * 10n ** 8n + BigInt(d);
        const text = parseVersion(v.join('.'))!;
        expect(text).toHaveLength(32);
        expect(BigInt(text)).toBe(expected);
      }),
    );
  });

  it.each(['', '1.', '.1', '1..2', '1.2.3.4.5', '123456789', '1.-2', '1.2a', ' 1.2', '1,2', '+1'])(
    'is null for %j',
    (v) => expect(f('parse_version', v)).toBeNull(),
  );

  it('is null for null and reads a number by its text', () => {
    expect(f('parse_version', null)).toBeNull();
    expect(f('parse_version', 7)).toBe(parseVersion('7'));
  });
});

describe('has_any_index', () => {
  const word = fc.constantFrom(
    'this',
    'is',
    'an',
    'Example',
    'example',
    'exam',
    '2',
    'a-b',
    'x y',
    'ÉTÉ',
    'été',
  );
  const sentence = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));

  it('is found exactly when the has_any operator is true, at the first term that `has` alone finds', () => {
    fc.assert(
      fc.property(sentence, fc.array(word, { maxLength: 5 }), (s, terms) => {
        const idx = hasAnyIndex(s, terms);
        const left = buildColumn([s], 'string');
        const list = terms.map((t) => constantColumn(t, 'string', 1));
        const hasAny = membership('has_any', left, list, 1).values[0] === 1;
        expect(idx >= 0).toBe(hasAny);
        for (let i = 0; i < terms.length; i++) {
          const single = membership('has_any', left, [list[i]], 1).values[0] === 1;
          if (i < idx || idx < 0) expect(single).toBe(false);
          if (i === idx) expect(single).toBe(true);
        }
      }),
    );
  });

  it('is -1 for an empty array and a null source, reads numbers as terms and skips null elements', () => {
    expect(f('has_any_index', 'this is an example', [])).toBe(-1);
    expect(f('has_any_index', null, ['this'])).toBe(-1);
    expect(f('has_any_index', 'Example number 2', [null, 1, 2, 3])).toBe(2);
    expect(f('has_any_index', 'flag true here', [false, true])).toBe(1);
  });
});

describe('replace_strings', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 20 });
  const lookup = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 3 });

  it('with no lookups is the identity', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(replaceStrings(s, [], [])).toBe(s);
        expect(replaceStrings(s, [], ['x'])).toBe(s);
      }),
    );
  });

  it('with one lookup is replace_string (non-overlapping, left to right)', () => {
    fc.assert(
      fc.property(text, lookup, fc.string({ maxLength: 3 }), (s, l, r) => {
        expect(replaceStrings(s, [l], [r])).toBe(s.split(l).join(r));
      }),
    );
  });

  it('with rewrites equal to the lookups is the identity, and never rescans a rewrite', () => {
    fc.assert(
      fc.property(text, fc.array(lookup, { maxLength: 4 }), (s, ls) => {
        expect(replaceStrings(s, ls, ls)).toBe(s);
        // Rewriting every lookup to a marker that no lookup contains leaves no lookup text where a
        // marker is; swapping back gives the original when the markers are distinct.
        const marks = ls.map((_, i) => `<${i}>`);
        const marked = replaceStrings(s, ls, marks);
        expect(replaceStrings(marked, marks, ls)).toBe(s);
      }),
    );
  });

  it('ignores non-string lookups, keeps a match with a non-string or missing rewrite, and passes null', () => {
    expect(replaceStrings('abc', [1, 'b'], ['x', 'y'])).toBe('ayc');
    expect(replaceStrings('This is', ['This', 'is'], [null, 'was'])).toBe('This was');
    expect(replaceStrings('This is', ['This', 'is'], ['That'])).toBe('That is');
    expect(replaceStrings('aaa', [''], ['x'])).toBe('aaa');
    expect(f('replace_strings', null, ['a'], ['b'])).toBeNull();
  });
});

describe('parse_user_agent', () => {
  const chrome =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36';

  it('maps uap-core answers to Kusto keys, in the order asked', () => {
    const out = parseUserAgent(chrome, ['os', 'browser']);
    expect(Object.keys(out)).toEqual(['OperatingSystem', 'Browser']);
    expect(out.Browser).toEqual({ Family: 'Chrome', MajorVersion: '120', MinorVersion: '0', Patch: '6099' });
    expect(out.OperatingSystem).toEqual({
      Family: 'Windows',
      MajorVersion: '10',
      MinorVersion: '',
      Patch: '',
      PatchMinor: '',
    });
  });

  // Cases from uap-core's own tests (tests/test_os.yaml, test_device.yaml) and specification: an oracle
  // independent of this mapping, covering $n replacements, case-insensitive rules and patch_minor.
  it.each([
    [
      'Mozilla/5.0 (BlackBerry; U; BlackBerry 9800; en-GB) AppleWebKit/534.1+ (KHTML, like Gecko) Version/6.0.0.141 Mobile Safari/534.1+',
      ['BlackBerry OS', '6', '0', '0', '141'],
    ],
    [
      'NetFront/3.5.1 (BREW 3.1.5; U; en-us; LG; NetFront/3.5.1/WAP) Sprint LN240 MMP/2.0 Profile/MIDP-2.1 Configuration/CLDC-1.1',
      ['BREW', '3', '1', '5', ''],
    ],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', ['Other', '', '', '', '']],
  ])('OperatingSystem of %s', (ua, [Family, MajorVersion, MinorVersion, Patch, PatchMinor]) => {
    expect(parseUserAgent(ua, ['os']).OperatingSystem).toEqual({
      Family,
      MajorVersion,
      MinorVersion,
      Patch,
      PatchMinor,
    });
  });

  it.each([
    [
      'Mozilla/5.0 (Linux; U; en-us; KFTT Build/IML74K) AppleWebKit/535.19 (KHTML, like Gecko) Silk/2.0 Safari/535.19 Silk-Accelerated=false',
      ['Kindle Fire HD', 'Amazon', 'Kindle Fire HD 7"'],
    ],
    [
      'Mozilla/5.0 (Linux; Android 4.2; Galaxy Nexus Build/JOP40C) AppleWebKit/535.19 (KHTML, like Gecko) Chrome/18.0.1025.166 Mobile Safari/535.19',
      ['Samsung Galaxy Nexus', 'Samsung', 'Galaxy Nexus'],
    ],
    [
      'NetFront/4.2 (BMP 1.0.4; U; en-us; LG; NetFront/4.2/AMB) Boost LG272 MMP/2.0 Profile/MIDP-2.1 Configuration/CLDC-1.1',
      ['Generic Feature Phone', 'Generic', 'Feature Phone'],
    ],
    [
      'Opera/9.80 (BlackBerry; Opera Mini/7.0.31437/28.3030; U; en) Presto/2.8.119 Version/11.10',
      ['BlackBerry', 'BlackBerry', ''],
    ],
  ])('Device of %s', (ua, [Family, Brand, Model]) => {
    expect(parseUserAgent(ua, ['device']).Device).toEqual({ Family, Brand, Model });
  });

  it('fills $1 in a family replacement (uap-core specification example)', () => {
    const ua = 'Mozilla/5.0 (Windows; Windows NT 5.1; rv:2.0b3pre) Gecko/20100727 Minefield/4.0.1pre';
    expect(parseUserAgent(ua, ['browser']).Browser).toEqual({
      Family: 'Firefox (Minefield)',
      MajorVersion: '4',
      MinorVersion: '0',
      Patch: '1pre',
    });
  });

  it('answers Other with empty fields for an unknown agent', () => {
    expect(parseUserAgent('nothing-known', ['browser', 'os', 'device'])).toEqual({
      Browser: { Family: 'Other', MajorVersion: '', MinorVersion: '', Patch: '' },
      OperatingSystem: { Family: 'Other', MajorVersion: '', MinorVersion: '', Patch: '', PatchMinor: '' },
      Device: { Family: 'Other', Brand: '', Model: '' },
    });
  });

  it('takes look-for as text or array, any case; null without a valid target or agent', () => {
    expect(f('parse_user_agent', chrome, 'BROWSER')).toEqual(parseUserAgent(chrome, ['browser']));
    expect(f('parse_user_agent', chrome, ['device', 'device', 'cpu'])).toEqual(
      parseUserAgent(chrome, ['device']),
    );
    expect(f('parse_user_agent', chrome, 'cpu')).toBeNull();
    expect(f('parse_user_agent', null, 'os')).toBeNull();
  });

  it('hands out copies of cached answers', () => {
    const a = f('parse_user_agent', chrome, 'browser') as { Browser: { Family: string } };
    a.Browser.Family = 'changed';
    expect((f('parse_user_agent', chrome, 'browser') as typeof a).Browser.Family).toBe('Chrome');
  });
});
