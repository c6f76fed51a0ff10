import { findJsonErrorOffset } from './json-error-position';

describe('findJsonErrorOffset', () => {
  it.each([
    ['[1,2]', -1],
    ['{"a":[true,false,null,"x\\n",-1.5e3]}', -1],
    ['[1,]', 3],
    ['{"a" 1}', 5],
    ['{"a":tru}', 8],
    ['[1', 2],
    ['"abc', 4],
    ['[1] x', 4],
    ['{"a":1,}', 7],
    ['"\\x"', 2],
    ['[' + '['.repeat(50_000), 50_001],
  ])('%s → %d', (text, offset) => {
    expect(findJsonErrorOffset(text)).toBe(offset);
  });

  it('agrees with JSON.parse on validity', () => {
    for (const text of ['{}', '[]', '0', '-0.1', '"\\u00e9"', '{"a":{"b":[]}}', '01', '[.5]', '{"a":1}{']) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonErrorOffset(text) === -1).toBe(valid);
    }
  });
});
