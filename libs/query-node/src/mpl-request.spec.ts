import { mplFormatOf, parseMplRequest } from './mpl-request';

const NOW = Date.UTC(2025, 4, 1, 2, 0, 0);

describe('parseMplRequest', () => {
  it('reads mpl (or apl), the range and params from query string and body', () => {
    const request = parseMplRequest(
      {
        apl: 'ds:m',
        startTime: '2025-05-01T00:00:00Z',
        endTime: 'now',
        params: { step: '5m' },
        queryParams: { param__svc: '"b"' },
      },
      { format: 'metrics-v1', param__svc: '"a"', param__x: '1' },
      NOW,
    );
    expect(request).toEqual({
      mpl: 'ds:m',
      startSec: 1_746_057_600,
      endSec: NOW / 1000,
      params: { param__svc: '"b"', param__x: '1', param__step: '5m' },
    });
  });

  it('defaults to the hour up to and including now', () => {
    const request = parseMplRequest({ mpl: 'ds:m' }, {}, NOW);
    expect([request.startSec, request.endSec]).toEqual([NOW / 1000 + 1 - 3600, NOW / 1000 + 1]);
  });

  it.each([
    [undefined, /JSON object/],
    [{ mpl: '' }, /"mpl" is required/],
    [{ mpl: 'x', startTime: 'yesterday' }, /not an RFC 3339/],
    [{ mpl: 'x', startTime: 'now', endTime: 'now-1h' }, /endTime must be after startTime/],
    [{ mpl: 'x', params: ['a'] }, /"params" must be an object/],
  ])('rejects %j', (body, message) => {
    expect(() => parseMplRequest(body, {}, NOW)).toThrow(message);
  });
});

describe('mplFormatOf', () => {
  it('prefers ?format, then the Accept header, then metrics-v2', () => {
    expect(mplFormatOf('metrics-v1', 'application/vnd.metrics.v3+json')).toBe('metrics-v1');
    expect(mplFormatOf(undefined, 'application/vnd.metrics.v3+json')).toBe('metrics-v3');
    expect(mplFormatOf(undefined, 'application/json+metrics.v2')).toBe('metrics-v2');
    expect(mplFormatOf(undefined, undefined)).toBe('metrics-v2');
    expect(() => mplFormatOf('csv', undefined)).toThrow(/format must be/);
  });
});
