import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['10s', 10_000],
    ['5m', 300_000],
    ['720h', 2_592_000_000],
    ['1h30m', 5_400_000],
    ['1h0m0s', 3_600_000],
    ['250ms', 250],
    ['1.5h', 5_400_000],
    ['0', 0],
  ])('%s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5', 'm', '5 m', '5d', '-5m', '1h 30m', 'soon'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats whole seconds like Go', () => {
    expect(formatDuration(3_600_000)).toBe('1h0m0s');
    expect(formatDuration(90_000)).toBe('1m30s');
  });
});
