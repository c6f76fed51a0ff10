import { eventNumberOfFailure, eventsToNdjson } from './events-ndjson';

describe('events as NDJSON', () => {
  it('writes one line per event, so a failure on line n is event n-1', () => {
    const body = eventsToNdjson([{ a: 1 }, { b: 'x\ny' }]).toString('utf8');
    expect(body.split('\n')).toEqual(['{"a":1}', '{"b":"x\\ny"}']);
    expect(eventNumberOfFailure('line 2: event has 2000 fields; the limit is 1024')).toBe(1);
    expect(eventNumberOfFailure('event has too many fields')).toBeUndefined();
  });
});
