import fc from 'fast-check';
import { StringInterner } from './string-interner';

/** What the interner must equal: first-appearance codes from a Map. */
function mapCodes(values: readonly string[]): { codes: number[]; dict: string[] } {
  const index = new Map<string, number>();
  const dict: string[] = [];
  const codes = values.map((v) => {
    let code = index.get(v);
    if (code === undefined) {
      code = dict.length;
      dict.push(v);
      index.set(v, code);
    }
    return code;
  });
  return { codes, dict };
}

function internAll(values: readonly string[], expected?: number, interner = new StringInterner(expected)) {
  const codes = values.map((v) => interner.intern(v));
  return { codes, dict: interner.values };
}

describe('StringInterner', () => {
  it('gives the codes a Map gives, for any strings (short, long, repeated, unicode)', () => {
    const value = fc.oneof(
      fc.constantFrom('GET', 'POST', '', 'a', 'é', '😀'),
      fc.string({ maxLength: 8 }),
      fc.string({ minLength: 40, maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 400 }),
        fc.integer({ min: 1, max: 1000 }),
        (values, expected) => {
          expect(internAll(values, expected)).toEqual(mapCodes(values));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays exact, hashing every character from then on, when long strings differ only where the sampled hash does not look', () => {
    // 200-char strings differing only at position 20: every one has the same sampled hash.
    const values: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const middle = String(i).padStart(5, '0');
      values.push('x'.repeat(18) + middle + 'y'.repeat(177));
    }
    values.push(...values.slice(0, 100)); // repeats are found again after the rebuild
    const interner = new StringInterner();
    expect(internAll(values, undefined, interner)).toEqual(mapCodes(values));
    // A long probe switched it to hashing every character (else probing would be quadratic).
    expect(interner.lookup).toBe('full hash');
  });

  it('hands over to a Map when even full hashes collide', () => {
    const interner = new StringInterner();
    const values = ['a', 'b', 'c'];
    internAll(values, undefined, interner);
    // Force both degradations, as two floods of collisions would.
    const degrade = (interner as unknown as { degrade(): void }).degrade.bind(interner);
    degrade();
    expect(interner.lookup).toBe('full hash');
    degrade();
    expect(interner.lookup).toBe('map');
    const more = ['c', 'd', 'a', 'e'];
    expect(more.map((v) => interner.intern(v))).toEqual([2, 3, 0, 4]);
    expect(interner.values).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('grows past its expected size and keeps every code', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => `value-${i % 30_000}`);
    const result = internAll(values, 4);
    expect(result.dict).toHaveLength(30_000);
    expect(result).toEqual(mapCodes(values));
  });
});
