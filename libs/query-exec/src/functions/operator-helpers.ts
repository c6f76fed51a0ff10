/**
 * Row-wise helpers behind tabular operators the planner rewrites into expressions: `extend-valid`
 * (`is_valid_value`), `parse-kv` (`parse_kv_value`) and `redact` (`redact_text`).
 */
import { compileRegex } from '../regex';
import { isNullish, str, type ScalarImpl } from './scalar-impl';

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

interface KvOptions {
  pair: string;
  kv: string;
  quote: string;
  escape: string;
  greedy: boolean;
}

/** Reads a quoted value starting at `i` (on the quote): the text up to the same quote, escapes applied. */
function readQuoted(text: string, i: number, o: KvOptions): { value: string; end: number } {
  const q = text[i];
  let out = '';
  let j = i + 1;
  while (j < text.length && text[j] !== q) {
    if (o.escape && text[j] === o.escape && j + 1 < text.length) j++;
    out += text[j++];
  }
  return { value: out, end: j + 1 };
}

/** Whether the text from `i` up to the next pair delimiter holds a key/value delimiter (a real pair). */
function startsPair(text: string, i: number, o: KvOptions): boolean {
  const next = text.indexOf(o.pair, i);
  const kv = text.indexOf(o.kv, i);
  return kv >= 0 && (next < 0 || kv < next);
}

/**
 * The value of `key` in `key<kv>value<pair>key<kv>value...` text (keys and unquoted values trimmed; the
 * first occurrence wins), or null. A value may be quoted with any character of `quote` (delimiters inside
 * are literal, `escape` escapes the next character). With `greedy`, an unquoted value runs up to the
 * pair delimiter that starts the next real pair, so it may contain pair delimiters.
 */
export function parseKvValue(text: string, key: string, o: KvOptions): string | null {
  let i = 0;
  while (i < text.length) {
    const kvAt = text.indexOf(o.kv, i);
    const pairAt = text.indexOf(o.pair, i);
    if (kvAt < 0) return null;
    if (pairAt >= 0 && pairAt < kvAt) {
      i = pairAt + o.pair.length; // a token without a key/value delimiter
      continue;
    }
    const name = text.slice(i, kvAt).trim();
    let j = kvAt + o.kv.length;
    while (j < text.length && text[j] === ' ') j++;
    let value: string;
    let end: number;
    if (o.quote && j < text.length && o.quote.includes(text[j])) {
      const q = readQuoted(text, j, o);
      value = q.value;
      const next = text.indexOf(o.pair, q.end);
      end = next < 0 ? text.length : next;
    } else {
      let next = text.indexOf(o.pair, j);
      if (o.greedy) {
        while (next >= 0 && !startsPair(text, next + o.pair.length, o)) next = text.indexOf(o.pair, next + 1);
      }
      end = next < 0 ? text.length : next;
      value = text.slice(j, end).trim();
    }
    if (name === key) return value;
    i = end + o.pair.length;
  }
  return null;
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
  parse_kv_value: (args, kinds) => {
    const text = str(args[0], kinds[0]);
    if (text === null) return null;
    return parseKvValue(text, String(args[1]), {
      pair: String(args[2]),
      kv: String(args[3]),
      quote: String(args[4]),
      escape: String(args[5]),
      greedy: args[6] === true,
    });
  },
  redact_text: (args) => {
    const v = args[0];
    if (typeof v !== 'string') return v === undefined ? null : v;
    return redactText(v, String(args[1]), args[2] === true, args.slice(3).map(String));
  },
};
