/**
 * Laws of the function families aligned with Kusto's reference (issue 19): CIDR containment and the
 * IP-prefix notation, IPv4 parse/format round trips, array_sort stability with the other arrays following
 * the first, and Kusto datetime texts read back to the instant they were written from.
 */
import fc from 'fast-check';
import { formatRfc3339, parseKustoDatetime, roundMicros } from '@quarry/common';
import type { ColumnKind } from '@quarry/contracts';
import { DYNAMIC_FUNCTIONS } from './dynamic';
import { HASH_IP_FUNCTIONS, formatIpv4, maskIpv4 } from './hash-ip';
import { KUSTO_DATETIME_FUNCTIONS } from './kusto-datetime-functions';
import { MORE_RARE_FUNCTIONS } from './more-rare-functions';
import { RARE_FUNCTIONS } from './rare-functions';
import type { ScalarImpl } from './scalar-impl';
import { SERIES_FUNCTIONS } from './series-functions';

const IMPLS: Record<string, ScalarImpl> = {
  ...DYNAMIC_FUNCTIONS,
  ...HASH_IP_FUNCTIONS,
  ...RARE_FUNCTIONS,
  ...MORE_RARE_FUNCTIONS,
  ...KUSTO_DATETIME_FUNCTIONS,
};

const kindOf = (a: unknown): ColumnKind =>
  typeof a === 'string'
    ? 'string'
    : typeof a === 'number'
      ? 'long'
      : typeof a === 'boolean'
        ? 'bool'
        : 'dynamic';
const f = (name: string, ...args: unknown[]) => IMPLS[name](args, args.map(kindOf));

const ip = fc.integer({ min: 0, max: 0xffffffff });
const bits = fc.integer({ min: 0, max: 32 });

describe('IPv4 with IP-prefix notation (Kusto)', () => {
  it('every address whose first `bits` bits are the range’s is in it, and only those', () => {
    fc.assert(
      fc.property(ip, ip, bits, (base, other, n) => {
        const range = `${formatIpv4(base)}/${n}`;
        const inside = maskIpv4(other, n) === maskIpv4(base, n);
        expect(f('ipv4_is_in_range', formatIpv4(other), range)).toBe(inside);
        expect(f('ipv4_is_match', formatIpv4(other), range)).toBe(inside);
        expect(f('ipv4_compare', formatIpv4(other), range) === 0).toBe(inside);
        // The address itself is always in its own range; the prefix narrows nothing below it.
        expect(f('ipv4_is_in_range', formatIpv4(base), range)).toBe(true);
      }),
    );
  });

  it('ipv4_compare orders like the masked longs and is antisymmetric', () => {
    fc.assert(
      fc.property(ip, ip, bits, (a, b, n) => {
        const x = f('ipv4_compare', formatIpv4(a), formatIpv4(b), n) as number;
        const y = f('ipv4_compare', formatIpv4(b), formatIpv4(a), n) as number;
        expect(x).toBe(Math.sign(maskIpv4(a, n) - maskIpv4(b, n)));
        expect(x + y).toBe(0);
      }),
    );
  });

  it('parse_ipv4 and format_ipv4 / format_ipv4_mask round trip', () => {
    fc.assert(
      fc.property(ip, bits, (a, n) => {
        const text = formatIpv4(a);
        expect(f('parse_ipv4', text)).toBe(a);
        expect(f('format_ipv4', f('parse_ipv4', text))).toBe(text);
        const cidr = f('format_ipv4_mask', text, n) as string;
        expect(cidr).toBe(`${formatIpv4(maskIpv4(a, n))}/${n}`);
        expect(f('parse_ipv4', cidr)).toBe(maskIpv4(a, n));
        expect(f('ipv4_netmask_suffix', cidr)).toBe(n);
        expect(f('format_ipv4', cidr)).toBe(formatIpv4(maskIpv4(a, n)));
      }),
    );
  });

  it('has_ipv4 finds a delimited address and never one glued to digits or letters', () => {
    const delimiter = fc.constantFrom(' ', ',', ':', '(', ')', '=', '"', '\t');
    fc.assert(
      fc.property(ip, delimiter, delimiter, fc.constantFrom('1', '9', 'a', 'Z'), (a, d1, d2, glue) => {
        const text = formatIpv4(a);
        expect(f('has_ipv4', `x${d1}${text}${d2}y`, text)).toBe(true);
        expect(f('has_any_ipv4', `x${d1}${text}${d2}y`, [text])).toBe(true);
        expect(f('has_ipv4', `x${glue}${text}${d2}y`, text)).toBe(false);
        expect(f('has_ipv4', `x${d1}${text}${glue}y`, text)).toBe(false);
      }),
    );
  });
});

describe('array_sort_asc / array_sort_desc (Kusto)', () => {
  const element = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(null));

  it('sorts the first array stably, nulls last, and the second array follows it', () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 30 }), fc.boolean(), (keys, asc) => {
        const idx = keys.map((_, i) => i);
        const [sorted, order] = f(asc ? 'array_sort_asc' : 'array_sort_desc', keys, idx) as [
          (number | null)[],
          number[],
        ];
        expect([...order].sort((a, b) => a - b)).toEqual(idx); // a permutation
        expect(order.map((i) => keys[i])).toEqual(sorted); // the second array follows the first
        const nonNull = sorted.filter((x) => x !== null);
        expect(sorted.slice(nonNull.length).every((x) => x === null)).toBe(true); // nulls last
        for (let i = 1; i < sorted.length; i++) {
          const [p, q] = [sorted[i - 1], sorted[i]];
          if (p === null || q === null) continue;
          expect(asc ? p <= q : p >= q).toBe(true);
          if (p === q) expect(order[i - 1]).toBeLessThan(order[i]); // stable
        }
      }),
    );
  });

  it('nulls_last=false puts the nulls first and keeps the rest in order', () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 30 }), (keys) => {
        const first = f('array_sort_asc', keys, false) as (number | null)[];
        const last = f('array_sort_asc', keys) as (number | null)[];
        const nulls = keys.filter((k) => k === null).length;
        expect(first.slice(0, nulls).every((x) => x === null)).toBe(true);
        expect(first.slice(nulls)).toEqual(last.slice(0, keys.length - nulls));
      }),
    );
  });

  it('an array of another length gives null in its place', () => {
    expect(f('array_sort_asc', [2, 1], [1])).toEqual([[1, 2], null]);
  });
});

describe('Kusto datetime texts', () => {
  // Whole microseconds in 1900–2099: farther from 1970 a float64 of milliseconds no longer holds every
  // microsecond (its step is 7.8 µs around year 1000 and 15.6 µs past year 4200).
  const instant = fc
    .tuple(
      fc.integer({ min: Date.UTC(1900, 0, 1) / 1000, max: Date.UTC(2099, 11, 31) / 1000 }),
      fc.integer({ min: 0, max: 999_999 }),
    )
    .map(([seconds, us]) => roundMicros(seconds * 1000 + us / 1000));

  it('reads RFC 3339 text back to the instant it was written from', () => {
    fc.assert(fc.property(instant, (ms) => expect(parseKustoDatetime(formatRfc3339(ms))).toBe(ms)));
  });

  it('reads month/day/year and RFC 822 texts of an instant to that instant (to the second)', () => {
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    fc.assert(
      fc.property(instant, (ms) => {
        const d = new Date(Math.floor(ms / 1000) * 1000);
        const p2 = (n: number) => String(n).padStart(2, '0');
        const time = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
        const y = d.getUTCFullYear();
        const us = `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${y} ${time}`;
        const rfc822 = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${y} ${time} GMT`;
        expect(parseKustoDatetime(us)).toBe(d.getTime());
        expect(parseKustoDatetime(rfc822)).toBe(d.getTime());
      }),
    );
  });

  it('format_datetime and make_datetime write what parseKustoDatetime reads back', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const at = (name: string, ...args: unknown[]) =>
          IMPLS[name](
            args,
            args.map((a) => (a === ms ? 'datetime' : kindOf(a))),
          );
        const text = at('format_datetime', ms, 'yyyy-MM-dd HH:mm:ss.ffffff') as string;
        expect(parseKustoDatetime(text)).toBe(ms);
        const us = at('format_datetime', ms, 'MM/dd/yyyy HH:mm:ss') as string;
        expect(parseKustoDatetime(us)).toBe(Math.floor(ms / 1000) * 1000);
        const d = new Date(Math.floor(ms));
        const parts = [
          d.getUTCFullYear(),
          d.getUTCMonth() + 1,
          d.getUTCDate(),
          d.getUTCHours(),
          d.getUTCMinutes(),
        ];
        const seconds = Number(at('format_datetime', ms, 's.ffffff'));
        expect(at('make_datetime', ...parts, seconds)).toBe(ms);
      }),
    );
  });

  it('rejects days a month does not have', () => {
    expect(f('make_datetime', 2024, 2, 30)).toBeNull();
    expect(parseKustoDatetime('02/30/2024')).toBeNull();
    expect(parseKustoDatetime('31 Apr 2024 10:00')).toBeNull();
    expect(parseKustoDatetime('2024-4-31')).toBeNull();
  });
});

describe('series_stats_dynamic ignore_nonfinite (Kusto: false gives null stats when a non-finite value is present)', () => {
  const stats = (a: unknown, ...flag: unknown[]) =>
    SERIES_FUNCTIONS.series_stats_dynamic([a, ...flag], ['dynamic', 'bool']) as Record<string, unknown>;

  it('false: any non-finite element nulls every statistic but len; finite series are unaffected', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.constantFrom(null, 'x', true),
        (xs, at, bad) => {
          expect(stats(xs, false)).toEqual(stats(xs));
          const withBad = [...xs];
          withBad.splice(at % (xs.length + 1), 0, bad as never);
          const strict = stats(withBad, false);
          expect(strict.len).toBe(withBad.length);
          for (const key of ['min', 'min_idx', 'max', 'max_idx', 'avg', 'stdev', 'variance', 'sum'])
            expect(strict[key]).toBeNull();
          // true and the omitted flag skip it: the statistics of the finite elements
          expect(stats(withBad, true).sum).toBe(xs.reduce((a, b) => a + b, 0));
          expect(stats(withBad).max).toBe(Math.max(...xs));
        },
      ),
    );
  });
});
