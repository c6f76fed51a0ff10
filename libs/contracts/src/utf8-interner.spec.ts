import fc from 'fast-check';
import { StringInterner } from './string-interner';
import { decodeUtf8Dict, Utf8Interner, withCodes } from './utf8-interner';

/** The values' UTF-8 bytes back to back in one buffer, with a leading byte so offsets are not 0. */
function inOneBuffer(values: readonly string[]): { body: Uint8Array; ranges: [number, number][] } {
  const parts = values.map((v) => Buffer.from(v, 'utf8'));
  const body = Buffer.concat([Buffer.from('#'), ...parts]);
  const ranges: [number, number][] = [];
  let at = 1;
  for (const p of parts) {
    ranges.push([at, at + p.length]);
    at += p.length;
  }
  return { body, ranges };
}

function internAll(values: readonly string[], interner = new Utf8Interner()) {
  const { body, ranges } = inOneBuffer(values);
  const codes = ranges.map(([start, end]) => interner.intern(body, start, end));
  return { codes, dict: decodeUtf8Dict(interner.finish()) };
}

/** What the interner must equal: the codes `StringInterner` gives the same strings. */
function stringCodes(values: readonly string[]) {
  const interner = new StringInterner();
  const codes = values.map((v) => interner.intern(v));
  return { codes, dict: interner.values };
}

describe('Utf8Interner', () => {
  it('gives the codes StringInterner gives the same strings, for any well-formed text', () => {
    const value = fc.oneof(
      fc.constantFrom('GET', 'POST', '', 'a', 'é', '😀', 'São Paulo', '\ufeff', '\ufeffx'),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'grapheme', minLength: 40, maxLength: 120 }),
      fc.string({ minLength: 40, maxLength: 200 }),
      // Long values that repeat or differ in one byte (compared natively, copied natively).
      fc
        .tuple(
          fc.constantFrom('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'é'.repeat(30)),
          fc.nat(3),
        )
        .map(([v, k]) => v.slice(0, 20) + 'abcd'[k] + v.slice(21)),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 400 }), (values) => {
        expect(internAll(values)).toEqual(stringCodes(values));
      }),
      { numRuns: 300 },
    );
  });

  it('interns JS strings and byte ranges into one dictionary', () => {
    const interner = new Utf8Interner();
    const body = Buffer.from('xKölny');
    expect(interner.intern(body, 1, 6)).toBe(0);
    expect(interner.internString('Köln')).toBe(0);
    expect(interner.internString('Bonn')).toBe(1);
    expect(interner.valueAt(0)).toBe('Köln');
    expect(decodeUtf8Dict(interner.finish())).toEqual(['Köln', 'Bonn']);
  });

  it('keeps a leading U+FEFF (a byte order mark is a character inside a value)', () => {
    const interner = new Utf8Interner();
    interner.internString('\ufeffa');
    expect(interner.valueAt(0)).toBe('\ufeffa');
    expect(decodeUtf8Dict(interner.finish())).toEqual(['\ufeffa']);
  });

  it('stays exact, hashing every byte from then on, when long values differ only where the sampled hash does not look', () => {
    const values: string[] = [];
    for (let i = 0; i < 20_000; i++)
      values.push('x'.repeat(18) + String(i).padStart(5, '0') + 'y'.repeat(177));
    values.push(...values.slice(0, 100));
    const interner = new Utf8Interner();
    expect(internAll(values, interner)).toEqual(stringCodes(values));
    expect(interner.lookup).toBe('full hash');
  });

  it('hands over to a Map when even full hashes collide, and keeps every code', () => {
    const interner = new Utf8Interner();
    const { body, ranges } = inOneBuffer(['a', 'b', 'c', 'd', 'a', 'e', 'é']);
    const intern = ([start, end]: [number, number]) => interner.intern(body, start, end);
    expect(ranges.slice(0, 3).map(intern)).toEqual([0, 1, 2]);
    const degrade = (interner as unknown as { degrade(): void }).degrade.bind(interner);
    degrade();
    expect(interner.lookup).toBe('full hash');
    degrade();
    expect(interner.lookup).toBe('map');
    expect([ranges[2], ...ranges.slice(3)].map(intern)).toEqual([2, 3, 0, 4, 5]);
    expect(decodeUtf8Dict(interner.finish())).toEqual(['a', 'b', 'c', 'd', 'e', 'é']);
  });

  it('grows past its expected size and keeps every code', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => `value-${i % 30_000}`);
    const result = internAll(values, new Utf8Interner(4, 8));
    expect(result.dict).toHaveLength(30_000);
    expect(result).toEqual(stringCodes(values));
  });

  it("writes into the caller's buffer and keeps the dictionary a view of it; its own, mostly empty, is copied", () => {
    const given = Buffer.alloc(1024);
    const lent = new Utf8Interner(4, 16, given);
    lent.internString('abc');
    lent.internString('de');
    const view = lent.finish();
    expect(view.bytes.buffer).toBe(given.buffer);
    expect(Buffer.from(view.bytes).toString()).toBe('abcde');
    const own = new Utf8Interner(4, 1024);
    own.internString('abc');
    const copy = own.finish();
    expect(copy.bytes.buffer.byteLength).toBe(3);
    // Values that outgrow the given buffer move to a buffer of the interner's own, as before.
    const small = Buffer.alloc(4);
    const outgrown = new Utf8Interner(4, 4, small);
    outgrown.internString('abcdefgh');
    expect(outgrown.finish().bytes.buffer).not.toBe(small.buffer);
  });
});

describe('withCodes', () => {
  it('keeps the dictionary and its tokens for other rows', () => {
    const tokens = {
      tokens: { bytes: new Uint8Array(Buffer.from('ab')), ends: Int32Array.from([1, 2]) },
      counts: Int32Array.from([2]),
      codes: Int32Array.from([0, 1]),
    };
    const column = { kind: 'string' as const, codes: Int32Array.from([0, -1, 0]), dict: ['a b'], tokens };
    const picked = withCodes(column, Int32Array.from([0]));
    expect(picked.dict).toBe(column.dict);
    expect(picked.tokens).toBe(tokens);
    expect(
      withCodes({ kind: 'string', codes: Int32Array.from([0]), dict: ['x'] }, Int32Array.from([0])),
    ).toEqual({
      kind: 'string',
      codes: Int32Array.from([0]),
      dict: ['x'],
    });
  });
});
