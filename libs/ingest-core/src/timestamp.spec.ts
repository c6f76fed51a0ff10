import fc from 'fast-check';
import { parseRfc3339 } from '@quarry/common';
import { parseWithGoLayout } from './go-time-layout';
import { epochToMs, parseCanonicalUtc, parseTimestamp } from './timestamp';

const T = Date.UTC(2024, 4, 1, 13, 4, 5);

describe('Go layouts', () => {
  it.each([
    ['2006-01-02 15:04:05', '2024-05-01 13:04:05', T],
    ['02/Jan/2006:15:04:05 -0700', '01/May/2024:15:04:05 +0200', T],
    ['02/Jan/2006:15:04:05 -0700', '01/may/2024:06:04:05 -0700', T],
    ['2006-01-02T15:04:05Z07:00', '2024-05-01T13:04:05Z', T],
    ['2006-01-02T15:04:05Z07:00', '2024-05-01T15:04:05+02:00', T],
    ['2006-01-02T15:04:05.000Z', '2024-05-01T13:04:05.123Z', T + 123],
    ['2006-01-02 15:04:05', '2024-05-01 13:04:05.123456', T + 123.456],
    ['Jan _2 2006 3:04:05PM', 'May  1 2024 1:04:05PM', T],
    ['Jan 2, 2006 at 3:04pm (MST)', 'May 1, 2024 at 3:04pm (PDT)', Date.UTC(2024, 4, 1, 22, 4)],
    ['January 2 06 15h04', 'May 1 24 13h04', Date.UTC(2024, 4, 1, 13, 4)],
    ['20060102150405', '20240501130405', T],
    ['RFC1123', 'Wed, 01 May 2024 13:04:05 GMT', T],
    ['RFC1123Z', 'Wed, 01 May 2024 13:04:05 +0000', T],
    ['UnixDate', 'Wed May  1 13:04:05 UTC 2024', T],
    ['RFC3339Nano', '2024-05-01T13:04:05.999999999Z', T + 1000],
    ['2006-01-02', '2024-05-01', Date.UTC(2024, 4, 1)],
  ])('%s parses %s', (layout, text, expected) => {
    expect(parseWithGoLayout(text, layout)).toBe(expected);
  });

  it.each([
    ['2006-01-02 15:04:05', '2024-05-01T13:04:05'],
    ['2006-01-02 15:04:05', '2024-02-30 13:04:05'],
    ['2006-01-02 15:04:05', '2024-05-01 25:04:05'],
    ['02/Jan/2006', '01/Foo/2024'],
    ['2006-01-02T15:04:05.000Z', '2024-05-01T13:04:05Z'],
  ])('%s rejects %s', (layout, text) => {
    expect(parseWithGoLayout(text, layout)).toBeNull();
  });
});

describe('parseTimestamp', () => {
  it('auto-detects RFC 3339 / ISO 8601 and named layouts', () => {
    expect(parseTimestamp('2024-05-01T13:04:05Z', undefined)).toBe(T);
    expect(parseTimestamp('2024-05-01T13:04:05.123456789Z', undefined)).toBe(T + 123.457);
    expect(parseTimestamp('2024-05-01 13:04:05', undefined)).toBe(T);
    expect(parseTimestamp('Wed, 01 May 2024 13:04:05 GMT', undefined)).toBe(T);
    expect(parseTimestamp('01/May/2024:13:04:05 +0000', undefined)).toBe(T);
    expect(parseTimestamp('yesterday', undefined)).toBeNull();
    expect(parseTimestamp('', undefined)).toBeNull();
    expect(parseTimestamp(true, undefined)).toBeNull();
  });

  it('reads epoch numbers by magnitude (s, ms, µs, ns), also as strings', () => {
    expect(parseTimestamp(T / 1000, undefined)).toBe(T);
    expect(parseTimestamp(T / 1000 + 0.5, undefined)).toBe(T + 500);
    expect(parseTimestamp(T, undefined)).toBe(T);
    expect(parseTimestamp(T * 1000 + 7, undefined)).toBe(T + 0.007);
    expect(parseTimestamp(T * 1e6, undefined)).toBe(T);
    expect(parseTimestamp(String(T / 1000), undefined)).toBe(T);
    expect(parseTimestamp('1714568645123', undefined)).toBe(1714568645123);
    expect(epochToMs(0)).toBe(0);
    expect(epochToMs(Infinity)).toBeNull();
  });

  it('applies the format to strings only', () => {
    expect(parseTimestamp('2024-05-01 13:04:05', '2006-01-02 15:04:05')).toBe(T);
    expect(parseTimestamp('2024-05-01T13:04:05Z', '2006-01-02 15:04:05')).toBeNull();
    expect(parseTimestamp(T, '2006-01-02 15:04:05')).toBe(T);
  });
});

describe('parseCanonicalUtc (fast path)', () => {
  it('agrees with the general RFC 3339 parser', () => {
    const samples = [
      '2024-05-01T13:04:05Z',
      '2024-05-01T13:04:05.1Z',
      '2024-05-01T13:04:05.926Z',
      '2024-05-01T13:04:05.123456Z',
      '2024-05-01T13:04:05.123456789Z',
      '2024-05-01T13:04:05.9999999Z',
      '1970-01-01T00:00:00Z',
      '0100-01-01T00:00:00Z',
      '2024-02-29T23:59:59.5Z',
    ];
    for (const s of samples) expect(parseCanonicalUtc(s)).toBe(parseRfc3339(s));
    for (const s of [
      '2024-02-30T00:00:00Z',
      '2024-05-01T13:04:05.Z',
      '2024-05-01T13:04:05+00:00',
      '2024-05-01 13:04:05Z',
      '2024-05-01T24:00:00Z',
    ]) {
      expect(parseCanonicalUtc(s)).toBeNull();
    }
  });

  it('refuses exactly the days a month does not have, leap years included (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const pad = (n: number, w: number) => String(n).padStart(w, '0');
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T12:34:56.5Z`;
          const exists = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
          expect(parseCanonicalUtc(text)).toBe(exists ? parseRfc3339(text) : null);
        },
      ),
    );
    expect(parseCanonicalUtc('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29));
    expect(parseCanonicalUtc('1900-02-29T00:00:00Z')).toBeNull();
  });

  it('agrees with the general parser on random instants (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(Date.UTC(100, 0, 1)),
          max: new Date(Date.UTC(9999, 11, 31)),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 9 }),
        (d, nanos, digitsKept) => {
          const base = d.toISOString().slice(0, 19);
          const frac = digitsKept === 0 ? '' : '.' + String(nanos).padStart(9, '0').slice(0, digitsKept);
          const text = `${base}${frac}Z`;
          expect(parseCanonicalUtc(text)).toBe(parseRfc3339(text));
        },
      ),
    );
  });
});
