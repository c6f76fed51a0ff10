import { isQuarryError } from '@quarry/common';
import { mergePatch } from './dashboards.input';
import { BodyReader, listParam, parsePaging } from './resource-validation';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isQuarryError(err) && err.kind === 'invalid') return err.message;
    throw err;
  }
  throw new Error('expected an invalid error');
}

describe('BodyReader', () => {
  it('reports every problem at once, each with its field path', () => {
    const reader = new BodyReader({ name: '', count: 1.5, when: 'noon', nested: { url: 3 } });
    reader.string('name', { required: true });
    reader.number('count', { integer: true });
    reader.dateTime('when');
    reader.nested('nested')?.string('url');
    reader.string('missing', { required: true });
    expect(messageOf(() => reader.finish('thing', 'thing_invalid'))).toBe(
      'invalid thing: "name" must not be empty; "count" must be an integer; ' +
        '"when" is not an RFC 3339 date-time: "noon"; "nested.url" must be a string; "missing" is required',
    );
  });

  it('returns valid members, treats null as absent and Go zero time as no time', () => {
    const reader = new BodyReader({ name: 'n', tags: ['a'], at: '0001-01-01T00:00:00Z', gone: null });
    expect(reader.string('name', { required: true })).toBe('n');
    expect(reader.stringArray('tags', { minItems: 1 })).toEqual(['a']);
    expect(reader.dateTime('at')).toBeUndefined();
    expect(reader.string('gone')).toBeUndefined();
    expect(() => reader.finish('thing', 'thing_invalid')).not.toThrow();
  });
});

describe('parsePaging', () => {
  it('defaults to 100 from 0 and accepts the bounds', () => {
    expect(parsePaging({})).toEqual({ limit: 100, offset: 0 });
    expect(parsePaging({ limit: '1', offset: '0' })).toEqual({ limit: 1, offset: 0 });
    expect(parsePaging({ limit: '1000', offset: '5' })).toEqual({ limit: 1000, offset: 5 });
  });

  it.each([
    [{ limit: '0' }, '"limit" must be an integer 1 to 1000, not "0"'],
    [{ limit: '1001' }, '"limit"'],
    [{ limit: '1e2' }, '"limit"'],
    [{ offset: '-1' }, '"offset" must be an integer at least 0, not "-1"'],
  ])('rejects %j', (query, message) => {
    expect(messageOf(() => parsePaging(query))).toContain(message);
  });
});

describe('listParam', () => {
  it('reads comma-joined and repeated values alike', () => {
    expect(listParam('a,b')).toEqual(['a', 'b']);
    expect(listParam(['a', 'b,c'])).toEqual(['a', 'b', 'c']);
    expect(listParam('')).toBeUndefined();
    expect(listParam(undefined)).toBeUndefined();
  });
});

describe('mergePatch (RFC 7386)', () => {
  it('merges objects member by member, removes null members, replaces everything else', () => {
    const chart = {
      id: 'c1',
      name: 'a',
      query: { apl: 'x', queryOptions: { shownColumns: 'a' } },
      tags: [1, 2],
    };
    expect(mergePatch(chart, { name: null, query: { apl: 'y' }, tags: [3] })).toEqual({
      id: 'c1',
      query: { apl: 'y', queryOptions: { shownColumns: 'a' } },
      tags: [3],
    });
    expect(mergePatch(chart, 'scalar')).toBe('scalar');
    expect(mergePatch('scalar', { a: { b: null, c: 1 } })).toEqual({ a: { c: 1 } });
    expect(chart.name).toBe('a'); // the target is not modified
  });
});
