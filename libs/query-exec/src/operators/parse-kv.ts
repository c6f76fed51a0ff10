/**
 * parse-kv (Kusto's parse-kv page; Axiom: absent keys are null): the key/value pairs of a text in one of
 * three modes — given pair and key/value delimiters, no delimiters (any non-alphanumeric character
 * separates), or a regex whose two groups are the key and the value. The first appearance of a key wins;
 * keys and unquoted values are trimmed. A quote option of two characters is an opening and a closing
 * quote (`'()'`), of one character the same quote on both sides; keys may be quoted too.
 */
import type { ParseKvOptions } from '@quarry/query-plan';
import { compileRegex } from '../regex';

interface Quote {
  open: string;
  close: string;
}

function quotesOf(spec: string): Quote[] {
  if (spec.length === 2) return [{ open: spec[0], close: spec[1] }];
  return [...spec].map((c) => ({ open: c, close: c }));
}

/** A quoted text starting at `i` (on the opening quote): the text up to the closing quote, escapes applied. */
function readQuoted(text: string, i: number, q: Quote, escape: string): { value: string; end: number } {
  let out = '';
  let j = i + 1;
  while (j < text.length && text[j] !== q.close) {
    if (escape && text[j] === escape && j + 1 < text.length) j++;
    out += text[j++];
  }
  return { value: out, end: j + 1 };
}

function quoteAt(text: string, i: number, quotes: Quote[]): Quote | undefined {
  return quotes.find((q) => q.open === text[i]);
}

function skipSpaces(text: string, i: number): number {
  while (i < text.length && text[i] === ' ') i++;
  return i;
}

/** The values of `keys` in `text` (null where a key does not appear). */
export function parseKv(text: string, keys: readonly string[], o: ParseKvOptions): (string | null)[] {
  const found = o.regex
    ? regexPairs(text, o.regex)
    : o.pairDelimiter !== undefined && o.kvDelimiter !== undefined
      ? delimitedPairs(text, o.pairDelimiter, o.kvDelimiter, o)
      : undelimitedPairs(text, keys, o);
  return keys.map((k) => found.get(k) ?? null);
}

function delimitedPairs(text: string, pair: string, kv: string, o: ParseKvOptions): Map<string, string> {
  const quotes = quotesOf(o.quote);
  const out = new Map<string, string>();
  /** Whether a real pair (a key/value delimiter before the next pair delimiter) starts at `i`. */
  const startsPair = (i: number) => {
    const next = text.indexOf(pair, i);
    const at = text.indexOf(kv, i);
    return at >= 0 && (next < 0 || at < next);
  };
  let i = 0;
  while (i < text.length) {
    i = skipSpaces(text, i);
    let name: string;
    let kvAt: number;
    const keyQuote = quoteAt(text, i, quotes);
    if (keyQuote) {
      const q = readQuoted(text, i, keyQuote, o.escape);
      name = q.value;
      kvAt = skipSpaces(text, q.end);
      if (!text.startsWith(kv, kvAt)) {
        const next = text.indexOf(pair, q.end);
        if (next < 0) break;
        i = next + pair.length;
        continue;
      }
    } else {
      kvAt = text.indexOf(kv, i);
      const pairAt = text.indexOf(pair, i);
      if (kvAt < 0) break;
      if (pairAt >= 0 && pairAt < kvAt) {
        i = pairAt + pair.length; // a token without a key/value delimiter
        continue;
      }
      name = text.slice(i, kvAt).trim();
    }
    const j = skipSpaces(text, kvAt + kv.length);
    let value: string;
    let end: number;
    const valueQuote = quoteAt(text, j, quotes);
    if (valueQuote) {
      const q = readQuoted(text, j, valueQuote, o.escape);
      value = q.value;
      const next = text.indexOf(pair, q.end);
      end = next < 0 ? text.length : next;
    } else {
      let next = text.indexOf(pair, j);
      if (o.greedy) {
        while (next >= 0 && !startsPair(next + pair.length)) next = text.indexOf(pair, next + 1);
      }
      end = next < 0 ? text.length : next;
      value = text.slice(j, end).trim();
    }
    if (!out.has(name)) out.set(name, value);
    i = end + pair.length;
  }
  return out;
}

const ALNUM = /[\p{L}\p{N}]/u;

/** No delimiters given: a key is a whole word followed by non-alphanumeric characters, then its value. */
function undelimitedPairs(text: string, keys: readonly string[], o: ParseKvOptions): Map<string, string> {
  const quotes = quotesOf(o.quote);
  const out = new Map<string, string>();
  for (const key of keys) {
    if (key === '') continue;
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
      if (at > 0 && ALNUM.test(text[at - 1])) continue;
      let j = at + key.length;
      if (j >= text.length || ALNUM.test(text[j])) continue;
      while (j < text.length && !ALNUM.test(text[j]) && !quoteAt(text, j, quotes)) j++;
      if (j >= text.length) continue;
      const q = quoteAt(text, j, quotes);
      if (q) {
        out.set(key, readQuoted(text, j, q, o.escape).value);
        break;
      }
      let end = j;
      while (end < text.length && ALNUM.test(text[end])) end++;
      out.set(key, text.slice(j, end));
      break;
    }
  }
  return out;
}

function regexPairs(text: string, pattern: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = compileRegex(pattern, 'g');
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const key = m[1]?.trim();
    if (key !== undefined && !out.has(key)) out.set(key, (m[2] ?? '').trim());
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}
