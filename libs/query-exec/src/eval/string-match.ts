/**
 * String operators (`contains`, `has`, `startswith`, `matches regex`, ... and their `_cs` / `!` forms).
 * A non-string left side is converted to text. A null left side is false for the positive operators and
 * true for the negated ones (Kusto strings are never null; apl.md §3.2 marks this UNSURE).
 */
import { decodeUtf8Dict, type BoolColumn, type Column, type DictTokens } from '@quarry/contracts';
import { readValue, valueToString } from '../columns';
import { compileRegex } from '../regex';
import { hasTerms, termsOf } from './terms';

export type StringMatcher = (s: string) => boolean;

/**
 * Builds the test for one operator and one right-hand value; `negated` is reported separately.
 * `byTokens`: a value passes exactly when one of its space-separated tokens does (`StringColumn.tokens`).
 * `contains` of text without a space cannot match across one, and a value's terms for `has` are its
 * tokens' terms (a space separates terms), so `has` of at most one term is decided token by token.
 * Lower-casing a value lower-cases each token alike (a space is neither cased nor case-ignorable, so
 * even a final sigma maps the same).
 */
export function stringMatcher(
  op: string,
  needle: string,
): { test: StringMatcher; negated: boolean; byTokens: boolean } {
  const negated = op.startsWith('!');
  const base = negated ? op.slice(1) : op;
  const cs = base.endsWith('_cs');
  const name = cs ? base.slice(0, -3) : base;
  const n = cs ? needle : needle.toLowerCase();
  const fold = (s: string) => (cs ? s : s.toLowerCase());
  let test: StringMatcher;
  let byTokens = false;
  switch (name) {
    case 'contains':
      test = (s) => fold(s).includes(n);
      byTokens = n.length > 0 && !n.includes(' ');
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
      byTokens = needleTerms.length <= 1;
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
  return { test, negated, byTokens };
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
    const { test, negated, byTokens } = stringMatcher(op, valueToString(needle, right.kind));
    if (left.kind === 'string') {
      // Dictionary path: test each distinct string once (or each distinct token of them), then map codes.
      // (Token columns make `dict` from the tokens on first use: the token path never reads it.)
      let perCode = left.tokens && byTokens ? matchByTokens(left.tokens, test) : null;
      if (perCode !== null) {
        if (negated) for (let c = 0; c < perCode.length; c++) perCode[c] ^= 1;
      } else {
        const dict = left.dict;
        perCode = new Uint8Array(dict.length);
        for (let c = 0; c < dict.length; c++) perCode[c] = test(dict[c]) !== negated ? 1 : 0;
      }
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

/**
 * Per dictionary value, 1 when one of its tokens passes `test`: each distinct token is tested once, then
 * each value ORs its tokens' answers (a loop over integer codes).
 */
function matchByTokens(tokens: DictTokens, test: StringMatcher): Uint8Array {
  const { counts, codes } = tokens;
  const dictSize = counts.length;
  const text = tokenText(tokens);
  const tokenPasses = new Uint8Array(text.length);
  let any = false;
  for (let t = 0; t < text.length; t++)
    if (test(text[t])) {
      tokenPasses[t] = 1;
      any = true;
    }
  const perValue = new Uint8Array(dictSize);
  if (!any) return perValue;
  let c = 0;
  for (let d = 0; d < dictSize; d++) {
    const end = c + counts[d];
    let hit = 0;
    for (; c < end; c++) hit |= tokenPasses[codes[c]];
    perValue[d] = hit;
  }
  return perValue;
}

/** The tokens as strings, decoded once per column (decoded columns are cached across queries). */
function tokenText(tokens: DictTokens): string[] {
  let text = TOKEN_TEXT.get(tokens);
  if (text === undefined) TOKEN_TEXT.set(tokens, (text = decodeUtf8Dict(tokens.tokens)));
  return text;
}
const TOKEN_TEXT = new WeakMap<DictTokens, string[]>();
