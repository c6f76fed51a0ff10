import { applyJsonPatch, JsonPatchError } from './json-patch';
import { applyMergePatch } from './json-merge-patch';
import { parseLabelSelector } from './label-selector';

describe('applyJsonPatch (RFC 6902)', () => {
  const doc = { a: { b: [1, 2, 3] }, 'x/y': { '~z': 1 } };

  it.each([
    { op: { op: 'add', path: '/a/b/1', value: 9 }, result: { a: { b: [1, 9, 2, 3] } } },
    { op: { op: 'add', path: '/a/b/-', value: 4 }, result: { a: { b: [1, 2, 3, 4] } } },
    { op: { op: 'remove', path: '/a/b/0' }, result: { a: { b: [2, 3] } } },
    { op: { op: 'replace', path: '/x~1y/~0z', value: 2 }, result: { 'x/y': { '~z': 2 } } },
    { op: { op: 'move', from: '/a/b', path: '/c' }, result: { a: {}, c: [1, 2, 3] } },
    { op: { op: 'copy', from: '/a/b/2', path: '/d' }, result: { a: { b: [1, 2, 3] }, d: 3 } },
    { op: { op: 'test', path: '/a/b', value: [1, 2, 3] }, result: { a: { b: [1, 2, 3] } } },
  ])('$op.op $op.path', ({ op, result }) => {
    expect(applyJsonPatch(doc, [op])).toMatchObject(result);
  });

  it.each([
    [{ op: 'test', path: '/a/b', value: [1, 2] }, 'testing value /a/b failed'],
    [{ op: 'remove', path: '/missing' }, 'path /missing does not exist'],
    [{ op: 'replace', path: '/a/b/7', value: 1 }, 'array index 7 is out of range'],
    [{ op: 'add', path: 'no-slash', value: 1 }, 'invalid JSON pointer "no-slash"'],
  ])('fails %j with %s and leaves the input alone', (op, message) => {
    expect(() => applyJsonPatch(doc, [op])).toThrow(new JsonPatchError(message));
    expect(doc.a.b).toEqual([1, 2, 3]);
  });
});

describe('applyMergePatch (RFC 7386)', () => {
  it.each([
    [{ a: 1, b: { c: 2 } }, { b: { d: 3 } }, { a: 1, b: { c: 2, d: 3 } }],
    [{ a: 1, b: 2 }, { a: null }, { b: 2 }],
    [{ list: [1, 2] }, { list: [3] }, { list: [3] }],
    [{ a: 'x' }, { a: { b: 1 } }, { a: { b: 1 } }],
  ])('%j + %j = %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });
});

describe('parseLabelSelector', () => {
  it.each(['a b', 'a in b', '=x', 'a in (x'])('refuses %j', (text) => {
    expect(parseLabelSelector(text).ok).toBe(false);
  });

  it('matches everything when empty', () => {
    const parsed = parseLabelSelector('');
    expect(parsed.ok && parsed.matches(undefined)).toBe(true);
  });
});
