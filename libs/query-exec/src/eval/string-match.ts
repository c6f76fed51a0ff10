/**
 * String operators (`contains`, `has`, `startswith`, `matches regex`, ... and their `_cs` / `!` forms).
 * A non-string left side is converted to text. A null left side is false for the positive operators and
 * true for the negated ones (Kusto strings are never null; apl.md §3.2 marks this UNSURE).
 */
import type { BoolColumn, Column } from '@quarry/contracts';
import { readValue, valueToString } from '../columns';
import { compileRegex } from '../regex';
import { hasTerms, termsOf } from './terms';

export type StringMatcher = (s: string) => boolean;

/** Builds the test for one operator and one right-hand value; `negated` is reported separately. */
export function stringMatcher(op: string, needle: string): { test: StringMatcher; negated: boolean } {
  const negated = op.startsWith('!');
  const base = negated ? op.slice(1) : op;
  const cs = base.endsWith('_cs');
  const name = cs ? base.slice(0, -3) : base;
  const n = cs ? needle : needle.toLowerCase();
  const fold = (s: string) => (cs ? s : s.toLowerCase());
  let test: StringMatcher;
  switch (name) {
    case 'contains':
      test = (s) => fold(s).includes(n);
      break;
    case 'startswith':
      test = (s) => fold(s).startsWith(n);
      break;
    case 'endswith':
      test = (s) => fold(s).endsWith(n);
      break;
    case 'has': {
      const needleTerms = termsOf(n);
      // Every term is a substring of the folded text, so a text without the first needle term cannot
      // have it: a cheap substring test spares tokenizing most rows.
      const first = needleTerms[0] ?? '';
      test = (s) => {
        const folded = fold(s);
        return folded.includes(first) && hasTerms(termsOf(folded), needleTerms);
      };
      break;
    }
    case 'hasprefix':
      test = (s) => {
        const folded = fold(s);
        return folded.includes(n) && termsOf(folded).some((t) => t.startsWith(n));
      };
      break;
    case 'hassuffix':
      test = (s) => {
        const folded = fold(s);
        return folded.includes(n) && termsOf(folded).some((t) => t.endsWith(n));
      };
      break;
    case 'matches regex': {
      const re = compileRegex(needle);
      test = (s) => re.test(s);
      break;
    }
    default:
      test = () => false;
  }
  return { test, negated };
}

/** Applies a string operator to a column; the right side is a column too (usually constant). */
export function stringMatch(
  op: string,
  left: Column,
  right: Column,
  n: number,
  rightConstant: boolean,
): BoolColumn {
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  if (rightConstant) {
    const needle = readValue(right, 0);
    if (needle === null) return { kind: 'bool', values: out, nulls: new Uint8Array(n).fill(1) };
    const { test, negated } = stringMatcher(op, valueToString(needle, right.kind));
    if (left.kind === 'string') {
      // Dictionary path: test each distinct string once, then map codes.
      const perCode = new Uint8Array(left.dict.length);
      for (let c = 0; c < left.dict.length; c++) perCode[c] = test(left.dict[c]) !== negated ? 1 : 0;
      const codes = left.codes;
      const onNull = negated ? 1 : 0;
      for (let i = 0; i < n; i++) {
        const c = codes[i];
        out[i] = c < 0 ? onNull : perCode[c];
      }
      return { kind: 'bool', values: out, nulls };
    }
    for (let i = 0; i < n; i++) {
      const v = readValue(left, i);
      if (v === null) out[i] = negated ? 1 : 0;
      else out[i] = test(valueToString(v, left.kind)) !== negated ? 1 : 0;
    }
    return { kind: 'bool', values: out, nulls };
  }
  for (let i = 0; i < n; i++) {
    const v = readValue(left, i);
    const r = readValue(right, i);
    if (r === null) {
      (nulls ??= new Uint8Array(n))[i] = 1;
      continue;
    }
    const { test, negated } = stringMatcher(op, valueToString(r, right.kind));
    if (v === null) out[i] = negated ? 1 : 0;
    else out[i] = test(valueToString(v, left.kind)) !== negated ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}
