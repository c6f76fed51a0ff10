import { parseAplRequest } from './query-request';

const NOW = Date.UTC(2024, 4, 1, 12);

describe('parseAplRequest', () => {
  it('defaults to everything up to now', () => {
    const r = parseAplRequest({ apl: "['x']" }, NOW);
    expect(r.startMs).toBe(0);
    expect(r.endMs).toBe(NOW + 1);
  });

  it('accepts RFC 3339, relative bounds and the Go zero time', () => {
    const r = parseAplRequest({ apl: 'x', startTime: 'now-1h', endTime: '2024-05-01T14:00:00+02:00' }, NOW);
    expect(r.startMs).toBe(NOW - 3_600_000);
    expect(r.endMs).toBe(NOW);
    expect(parseAplRequest({ apl: 'x', startTime: '0001-01-01T00:00:00Z' }, NOW).startMs).toBe(0);
  });

  it.each([
    [null, /JSON object/],
    [{}, /"apl" is required/],
    [{ apl: '  ' }, /"apl" is required/],
    [{ apl: 'x', startTime: 'yesterday' }, /startTime "yesterday"/],
    [{ apl: 'x', endTime: 5 }, /endTime must be a string/],
    [{ apl: 'x', startTime: 'now', endTime: 'now-1h' }, /endTime must be after startTime/],
  ])('rejects %j', (body, message) => {
    expect(() => parseAplRequest(body, NOW)).toThrow(message);
  });
});
