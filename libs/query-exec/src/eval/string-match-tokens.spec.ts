import fc from 'fast-check';
import { columnFromValues, type BoolColumn, type DictTokens, type StringColumn } from '@quarry/contracts';
import { stringMatch } from './string-match';

/**
 * A string column whose dictionary also carries its tokens (as a block's token layout decodes it): each
 * value split on single spaces, the distinct tokens as UTF-8.
 */
function withTokens(values: (string | null)[]): StringColumn {
  const column = columnFromValues(values, 'string') as StringColumn;
  const tokenCode = new Map<string, number>();
  const counts = new Int32Array(column.dict.length);
  const codes: number[] = [];
  column.dict.forEach((value, d) => {
    const parts = value.split(' ');
    counts[d] = parts.length;
    for (const part of parts) {
      if (!tokenCode.has(part)) tokenCode.set(part, tokenCode.size);
      codes.push(tokenCode.get(part)!);
    }
  });
  const encoded = [...tokenCode.keys()].map((t) => Buffer.from(t, 'utf8'));
  const ends = new Int32Array(encoded.length);
  encoded.reduce((end, bytes, k) => (ends[k] = end + bytes.length), 0);
  const tokens: DictTokens = {
    tokens: { bytes: new Uint8Array(Buffer.concat(encoded)), ends },
    counts,
    codes: Int32Array.from(codes),
  };
  return { ...column, tokens };
}

const OPS = ['contains', 'contains_cs', '!contains', '!contains_cs', 'has', 'has_cs', '!has', '!has_cs'];
/** Words with case, punctuation and Unicode whose lower-casing is special (İ, final Σ, ß, astral). */
const WORDS = [
  'Timeout',
  'timeout',
  'TIME',
  'out',
  'time-out',
  'a_b',
  'İstanbul',
  'ΟΔΟΣ',
  'straße',
  '😀x',
  '',
  'db.io',
];
const NEEDLES = [
  ...WORDS,
  'time',
  'İ',
  'i̇',
  'σ',
  'ς',
  'meou',
  'x',
  'out t',
  'Timeout timeout',
  '-',
  ' ',
  'a b',
];

const value = fc.option(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' ')),
  { nil: null },
);

const answers = (c: BoolColumn) => [...c.values];

describe('string operators decided token by token', () => {
  it('give the same answers as testing every value (contains and has, cased, negated, any needle)', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...OPS),
        fc.constantFrom(...NEEDLES),
        (values, op, needle) => {
          const needleColumn = columnFromValues([needle], 'string');
          const plain = columnFromValues(values, 'string');
          const tokens = withTokens(values);
          const n = values.length;
          expect(answers(stringMatch(op, tokens, needleColumn, n, true))).toEqual(
            answers(stringMatch(op, plain, needleColumn, n, true)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('uses the tokens when they decide the answer (a wrong token table changes it)', () => {
    const column = withTokens(['connection timeout', 'all good']);
    // Tokens that claim the second value is "timeout": only the token path can answer 1 for it.
    const lying: StringColumn = {
      ...column,
      tokens: { ...column.tokens!, codes: Int32Array.from([0, 1, 1]), counts: Int32Array.from([2, 1]) },
    };
    const needle = columnFromValues(['timeout'], 'string');
    expect(answers(stringMatch('has', lying, needle, 2, true))).toEqual([1, 1]);
    expect(answers(stringMatch('contains', lying, needle, 2, true))).toEqual([1, 1]);
    // A needle spanning a space is tested on the values themselves.
    const spanning = columnFromValues(['connection timeout'], 'string');
    expect(answers(stringMatch('contains', lying, spanning, 2, true))).toEqual([1, 0]);
  });

  it('never reads the values when the tokens decide (a token column makes them on first use)', () => {
    const column = withTokens(['connection timeout', 'all good']);
    const lazy: StringColumn = {
      kind: 'string',
      codes: column.codes,
      tokens: column.tokens,
      get dict(): string[] {
        throw new Error('values made');
      },
    };
    const needle = columnFromValues(['TIMEOUT'], 'string');
    expect(answers(stringMatch('has', lazy, needle, 2, true))).toEqual([1, 0]);
    expect(answers(stringMatch('!contains', lazy, needle, 2, true))).toEqual([0, 1]);
    expect(() => stringMatch('contains', lazy, columnFromValues(['n t'], 'string'), 2, true)).toThrow(
      'values made',
    );
  });
});
