import { concatenatedJson, parseHecEvents, parseHecRaw } from './hec-envelopes';
import { HecRejection } from './hec-status';

const rejection = (fn: () => unknown): HecRejection => {
  try {
    fn();
  } catch (err) {
    if (err instanceof HecRejection) return err;
    throw err;
  }
  throw new Error('expected a HecRejection');
};

describe('concatenatedJson', () => {
  it('splits objects written back to back, with braces and quotes inside strings', () => {
    const text = '{"a":"}{\\"x"}{"b":[{"c":1}]}  \n{"d":"\\\\"}';
    expect([...concatenatedJson(text)]).toEqual([{ a: '}{"x' }, { b: [{ c: 1 }] }, { d: '\\' }]);
  });

  it('stops with an error at a value that is not an object or not closed', () => {
    expect([...concatenatedJson('{"a":1} 42')].map((v) => v instanceof Error)).toEqual([false, true]);
    expect([...concatenatedJson('{"a":{"b":1}')][0]).toBeInstanceOf(Error);
  });
});

describe('parseHecEvents', () => {
  it('maps event, fields, metadata and time; fields and metadata win over event keys', () => {
    const { events, firstIndex } = parseHecEvents(
      JSON.stringify({
        event: { host: 'from-event', region: 'from-event', keep: 1 },
        fields: { region: 'from-fields' },
        host: 'from-envelope',
        time: 1_700_000_000.5,
        index: 'logs',
      }) + JSON.stringify({ event: ['a', 1], index: 'other' }),
    );
    expect(firstIndex).toBe('logs');
    expect(events.map((e) => ({ ...e }))).toEqual([
      { host: 'from-envelope', region: 'from-fields', keep: 1, _time: '2023-11-14T22:13:20.5Z' },
      { _raw: ['a', 1] },
    ]);
  });

  it('keeps a __proto__ key a plain field', () => {
    const { events } = parseHecEvents('{"event":{"__proto__":{"polluted":true}}}');
    expect(Object.keys(events[0])).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['', 5, undefined],
    ['  \n', 5, undefined],
    ['{"event":1}{"time":1}', 12, 1],
    ['{"event":null}', 12, 0],
    ['{"event":1}{"event":""}', 13, 1],
    ['{"event":1,"fields":"x"}', 15, 0],
    ['{"event":1,"time":"soon"}', 6, 0],
    ['{"event":1}[{"event":2}]', 6, 1],
  ])('refuses %j with code %i at event %p', (body, code, at) => {
    const err = rejection(() => parseHecEvents(body));
    expect({ code: err.hec.code, at: err.invalidEventNumber }).toEqual({ code, at });
  });
});

describe('parseHecRaw', () => {
  it('makes one event per non-blank line with the metadata', () => {
    const { events } = parseHecRaw('a\r\n\nb\n', 'text/plain', { host: 'h' });
    expect(events.map((e) => ({ ...e }))).toEqual([
      { _raw: 'a', host: 'h' },
      { _raw: 'b', host: 'h' },
    ]);
  });

  it('reads a JSON object body as one event, and other JSON as lines', () => {
    expect(parseHecRaw('{"a":1}', 'application/json', {}).events.map((e) => ({ ...e }))).toEqual([{ a: 1 }]);
    expect(parseHecRaw('[1]', 'application/json', {}).events.map((e) => ({ ...e }))).toEqual([
      { _raw: '[1]' },
    ]);
  });
});
