import { DEFAULT_RANGE, formatQueryState, parseQueryState, rangeToApi, spanMs } from './url-state';

describe('Query page URL state', () => {
  it('round-trips the query and a quick range as plain URL-encoded parameters', () => {
    const state = {
      apl: "['sample'] | where status >= 500 | take 20",
      range: { kind: 'quick' as const, span: '6h' },
    };
    const search = formatQueryState(state);
    expect(search).toBe('?apl=%5B%27sample%27%5D+%7C+where+status+%3E%3D+500+%7C+take+20&t_qr=6h');
    expect(new URLSearchParams(search).get('apl')).toBe(state.apl);
    expect(parseQueryState(search)).toEqual(state);
  });

  it('round-trips an absolute range and keeps unrelated parameters', () => {
    const state = {
      apl: 'x',
      range: { kind: 'absolute' as const, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
    };
    const search = formatQueryState(state, '?edit=1&t_qr=1h');
    const params = new URLSearchParams(search);
    expect(params.get('edit')).toBe('1');
    expect(params.get('t_qr')).toBeNull();
    expect(parseQueryState(search)).toEqual(state);
  });

  it('defaults to the last hour, and ignores malformed ranges', () => {
    expect(parseQueryState('')).toEqual({ apl: '', range: DEFAULT_RANGE });
    expect(DEFAULT_RANGE).toEqual({ kind: 'quick', span: '1h' });
    expect(parseQueryState('?t_qr=soon').range).toEqual(DEFAULT_RANGE);
    expect(parseQueryState('?t_ts=yesterday&t_te=now').range).toEqual(DEFAULT_RANGE);
  });

  it('turns ranges into the APL endpoint times', () => {
    expect(rangeToApi({ kind: 'quick', span: '15m' })).toEqual({ startTime: 'now-15m', endTime: 'now' });
    expect(rangeToApi({ kind: 'absolute', start: 'a', end: 'b' })).toEqual({ startTime: 'a', endTime: 'b' });
    expect(spanMs('7d')).toBe(7 * 86_400_000);
  });
});
