/**
 * Row-wise helpers behind tabular operators the planner rewrites into expressions: `extend-valid`
 * (`is_valid_value`) and `redact` (`redact_text`). (`parse-kv` is a parse mode: operators/parse-kv.ts.)
 */
import { compileRegex } from '../regex';
import { isNullish, type ScalarImpl } from './scalar-impl';

/**
 * apl.md §7 extend-valid: a bag with at least one key, an array with at least one element, a non-empty
 * string, a number (also datetime / timespan) that is not 0, infinite or NaN, a `true` bool.
 */
function isValidValue(v: unknown): boolean {
  if (isNullish(v)) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0 && Number.isFinite(v);
  return v === true;
}

/**
 * apl.md §7 redact: each match (or, with `groups`, each capture group of a match) is replaced; a
 * one-character token replaces every character (length kept), a longer token replaces the whole text.
 */
export function redactText(text: string, token: string, groups: boolean, patterns: string[]): string {
  const mask = (s: string) => (token.length === 1 ? token.repeat([...s].length) : token);
  let out = text;
  for (const pattern of patterns) {
    const re = compileRegex(pattern, 'gd');
    re.lastIndex = 0;
    let result = '';
    let last = 0;
    for (let m = re.exec(out); m !== null; m = re.exec(out)) {
      const indices = (m as unknown as { indices: ([number, number] | undefined)[] }).indices;
      const spans = groups
        ? indices.slice(1).filter((x): x is [number, number] => x !== undefined)
        : [indices[0]!];
      for (const [s, e] of spans) {
        if (s < last) continue; // nested groups: the outer one was masked
        result += out.slice(last, s) + mask(out.slice(s, e));
        last = e;
      }
      if (m[0].length === 0) re.lastIndex++;
    }
    out = result + out.slice(last);
  }
  return out;
}

export const OPERATOR_HELPER_FUNCTIONS: Record<string, ScalarImpl> = {
  is_valid_value: ([v]) => isValidValue(v),
  redact_text: (args) => {
    const v = args[0];
    if (typeof v !== 'string') return v === undefined ? null : v;
    return redactText(v, String(args[1]), args[2] === true, args.slice(3).map(String));
  },
};
