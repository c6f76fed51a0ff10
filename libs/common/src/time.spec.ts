import { formatRfc3339, parseGoDurationMs, parseRfc3339, parseTimeBound } from './time';

describe('time', () => {
  it('parses RFC 3339 forms to epoch ms', () => {
    expect(parseRfc3339('2024-05-01T00:03:16.926Z')).toBe(Date.UTC(2024, 4, 1, 0, 3, 16, 926));
    expect(parseRfc3339('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    expect(parseRfc3339('2024-05-01T12:00:00+02:00')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseRfc3339('2024-05-01 12:00')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(parseRfc3339('2024-05-01T00:00:00.123456789Z')).toBe(Date.UTC(2024, 4, 1) + 123.457);
    expect(parseRfc3339('not a time')).toBeNull();
    expect(parseRfc3339('2024-13-01')).toBeNull();
  });

  it('formats with trimmed fractions and microsecond precision', () => {
    expect(formatRfc3339(Date.UTC(2024, 4, 1))).toBe('2024-05-01T00:00:00Z');
    expect(formatRfc3339(Date.UTC(2024, 4, 1, 0, 0, 0, 500))).toBe('2024-05-01T00:00:00.5Z');
    expect(formatRfc3339(Date.UTC(2024, 4, 1) + 123.456)).toBe('2024-05-01T00:00:00.123456Z');
    expect(formatRfc3339(Date.UTC(2024, 4, 1) - 0.001)).toBe('2024-04-30T23:59:59.999999Z');
  });

  it('parses relative bounds', () => {
    const now = Date.UTC(2024, 4, 1, 12);
    expect(parseTimeBound('now', now)).toBe(now);
    expect(parseTimeBound('now-1h', now)).toBe(now - 3_600_000);
    expect(parseTimeBound('now-1w', now)).toBe(now - 7 * 86_400_000);
    expect(parseTimeBound('now+30m', now)).toBe(now + 1_800_000);
    expect(parseTimeBound('yesterday', now)).toBeNull();
  });
});

describe('parseGoDurationMs', () => {
  it.each([
    ['1h', 3_600_000],
    ['1h0m0s', 3_600_000],
    ['90m', 5_400_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['250ms', 250],
    ['1m30s', 90_000],
    ['2us', 0.002],
  ])('reads %s', (text, ms) => expect(parseGoDurationMs(text)).toBeCloseTo(ms, 9));

  it.each(['', '1', 'h', '1d', '-1h', '1h ', ' 1h', '1hx', '1 h'])('refuses %j', (text) =>
    expect(parseGoDurationMs(text)).toBeNull(),
  );
});
