import { closestName, damerauLevenshtein } from './suggest';

describe('damerauLevenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['coutn', 'count', 1],
    ['summarise', 'summarize', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['where', 'where', 0],
  ])('%s → %s = %d', (a, b, d) => {
    expect(damerauLevenshtein(a, b)).toBe(d);
    expect(damerauLevenshtein(b, a)).toBe(d);
  });
});

describe('closestName', () => {
  const fns = ['count', 'countif', 'dcount', 'sum', 'avg', 'strlen', 'strcat'];
  it('suggests plausible typos', () => {
    expect(closestName('coutn', fns)).toBe('count');
    expect(closestName('strln', fns)).toBe('strlen');
    expect(closestName('summarise', ['summarize', 'sort', 'take'])).toBe('summarize');
  });
  it('prefers a case-insensitive exact match', () => {
    expect(closestName('Method', ['methods', 'method'])).toBe('method');
    expect(closestName('WHERE', ['where', 'here'])).toBe('where');
  });
  it('does not suggest unrelated names', () => {
    expect(closestName('frobnicate', ['where', 'summarize'])).toBeUndefined();
    expect(closestName('x', ['y', 'z'])).toBeUndefined();
    expect(closestName('count', ['count'])).toBeUndefined();
    expect(closestName('abc', [])).toBeUndefined();
  });
});
