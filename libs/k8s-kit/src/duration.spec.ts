import { parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['5m', 300_000],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    [' 2m ', 120_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each(['', '5', 'm', '-5m', '0s', '5 m', '5d', '1h-3m'])('refuses %j, naming the setting', (text) => {
    expect(parseDuration(text, 'QUARRY_OPERATOR_RESYNC')).toEqual({
      ok: false,
      message: `QUARRY_OPERATOR_RESYNC: must be a positive duration like "30s", "5m" or "1h30m", got ${JSON.stringify(text)}`,
    });
  });
});
