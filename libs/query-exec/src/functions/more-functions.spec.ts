import { parseIp6, compareIp6, ip6InRange } from './ip6';
import { hashValue, parseJsonPath } from './more-rare-functions';
import { redactText } from './operator-helpers';
import { SERIES_FUNCTIONS, seriesStats } from './series-functions';

describe('IPv6 parsing', () => {
  it('reads full, compressed, IPv4-embedded and IPv4 forms', () => {
    expect(parseIp6('::1')?.value).toBe(1n);
    expect(parseIp6('1:2:3:4:5:6:7:8')?.value).toBe(0x00010002000300040005000600070008n);
    expect(parseIp6('::ffff:1.2.3.4')?.value).toBe(parseIp6('1.2.3.4')?.value);
    expect(parseIp6('1.2.3.4/24')?.prefix).toBe(120);
    expect(parseIp6('fe80::/10')?.prefix).toBe(10);
  });

  it('rejects malformed text', () => {
    for (const bad of ['', ':::', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1', '::1/129', '1.2.3.4/33'])
      expect(parseIp6(bad)).toBeNull();
  });

  it('compares over the shortest prefix and tests ranges', () => {
    const a = parseIp6('2001:db8::1')!;
    const b = parseIp6('2001:db8::2')!;
    expect(compareIp6(a, b)).toBe(-1);
    expect(compareIp6(b, a)).toBe(1);
    expect(compareIp6(a, b, 64)).toBe(0);
    expect(ip6InRange(a, parseIp6('2001:db8::/32')!)).toBe(true);
    expect(ip6InRange(a, parseIp6('2001:db9::/32')!)).toBe(false);
    expect(ip6InRange(a, parseIp6('::/0')!)).toBe(true);
  });
});

describe('redact', () => {
  it('masks per character, per match or per group; several patterns in order', () => {
    expect(redactText('id 42 and 7', '*', false, ['\\d+'])).toBe('id ** and *');
    expect(redactText('id 42 and 7', '<n>', false, ['\\d+'])).toBe('id <n> and <n>');
    expect(redactText('k=v1 k=v2', '#', true, ['k=(\\w+)'])).toBe('k=## k=##');
    expect(redactText('ab', '*', false, ['a', '\\*b'])).toBe('**');
    expect(redactText('abc', '*', false, ['x*'])).toBe('abc');
  });
});

describe('hash and JSON paths', () => {
  it('hash is deterministic, salted, and a safe integer', () => {
    expect(hashValue('abc', null)).toBe(hashValue('abc', null));
    expect(hashValue('abc', '1')).not.toBe(hashValue('abc', null));
    expect(Number.isSafeInteger(hashValue('x'.repeat(1000), null))).toBe(true);
  });
  it('parses the supported JSONPath subset', () => {
    expect(parseJsonPath("$[*].a['b'][-1]")).toEqual([
      { kind: 'all' },
      { kind: 'key', key: 'a' },
      { kind: 'key', key: 'b' },
      { kind: 'index', index: -1 },
    ]);
    expect(parseJsonPath('a.b')).toBeNull();
    expect(parseJsonPath('$[?(@.x)]')).toBeNull();
  });
});

describe('series', () => {
  it('stats of an empty or single-element series', () => {
    expect(seriesStats([])).toMatchObject({ min: null, avg: null, variance: null, stdev: null });
    expect(seriesStats([5])).toMatchObject({ min: 5, max: 5, avg: 5, variance: 0, stdev: 0 });
    expect(seriesStats('x')).toBeNull();
  });
  it('binary operators need at least one series', () => {
    expect(SERIES_FUNCTIONS.series_add([1, 2], ['long', 'long'])).toBeNull();
    expect(SERIES_FUNCTIONS.series_add(['x', [1]], ['string', 'dynamic'])).toBeNull();
  });
});
