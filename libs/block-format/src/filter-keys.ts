import type { HexValues } from './hex-values';
import { FNV_OFFSET, FNV_PRIME, fmix32, type HashSet32, hashString, hashTrigram } from './split-bloom';

/**
 * The keys of a token filter, shared by the writer and the reader so both sides fold text the same way:
 * - text is folded: lower-cased as `has`/`contains` compare (String#toLowerCase), with the final sigma ς
 *   as σ (the one context-dependent lower-casing; folding it makes a value's text the same whether it
 *   is folded whole or token by token), and lone surrogates as U+FFFD (what a block decodes them to);
 * - terms are the maximal runs of Unicode letters and digits of the folded text, as the engine's `has`
 *   splits them (libs/query-exec/src/eval/terms.ts);
 * - trigrams are the runs of 3 UTF-16 code units of the folded text.
 */
const TERM_RE = /[\p{L}\p{N}]+/gu;

/** ASCII letters and digits, the terms' fast path. */
const WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD[c] = 1;
for (let c = 65; c <= 90; c++) WORD[c] = WORD[c + 32] = 1;

/**
 * A value's folded text, and whether it is all ASCII (then terms need no regex). Lone surrogates become
 * U+FFFD as in the decoded value; a needle keeps its code units (`foldNeedle`): a query may well cut a
 * surrogate pair, and it is compared with the decoded text unit by unit.
 */
export function foldValue(s: string): { text: string; ascii: boolean } {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return { text: s.toLowerCase(), ascii };
  return { text: foldNeedle((s as unknown as { toWellFormed(): string }).toWellFormed()), ascii };
}

export function foldNeedle(s: string): string {
  const lower = s.toLowerCase();
  return lower.indexOf('ς') >= 0 ? lower.replaceAll('ς', 'σ') : lower;
}

/** Adds the hash of every term of folded text. */
export function addTerms(text: string, ascii: boolean, keys: HashSet32): void {
  if (!ascii) {
    for (const term of text.match(TERM_RE) ?? []) keys.add(hashString(term));
    return;
  }
  let h = FNV_OFFSET;
  let inTerm = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (WORD[c] === 1) {
      h = Math.imul(h ^ c, FNV_PRIME);
      inTerm = true;
    } else if (inTerm) {
      keys.add(fmix32(h));
      h = FNV_OFFSET;
      inTerm = false;
    }
  }
  if (inTerm) keys.add(fmix32(h));
}

/** The hashes of the terms of any text (the reader's side). */
export function termHashes(s: string): number[] {
  const text = foldNeedle(s);
  return (text.match(TERM_RE) ?? []).map(hashString);
}

/** Adds the hash of every trigram of folded text. */
export function addTrigrams(text: string, keys: HashSet32): void {
  if (text.length < 3) return;
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    keys.add(hashTrigram(a, b, c));
    a = b;
    b = c;
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The hashes of the trigrams of any text (the reader's side); empty (no judgement) when shorter than 3
 * units, or when the text has surrogates: a needle may cut a pair whose whole character lower-cases to
 * another pair, so a case-sensitive match would not be a case-insensitive one unit by unit.
 */
export function trigramHashes(s: string): number[] {
  if (SURROGATE.test(s)) return [];
  const text = foldNeedle(s);
  const out: number[] = [];
  for (let i = 0; i + 2 < text.length; i++)
    out.push(hashTrigram(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)));
  return out;
}

const LOWER_HEX = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));

/**
 * The terms of hex or uuid values straight from their bytes, without touching the strings: a hex value
 * is one term (its lower-case digits), a uuid five (the digit groups between its hyphens).
 */
export function addHexTerms(hex: HexValues, count: number, keys: HashSet32): void {
  const { bytes, width } = hex;
  const uuid = hex.kind === 'uuid';
  let o = 0;
  for (let d = 0; d < count; d++) {
    let h = FNV_OFFSET;
    for (let i = 0; i < width; i++) {
      // uuid groups end after bytes 4, 6, 8 and 10.
      if (uuid && (i === 4 || i === 6 || i === 8 || i === 10)) {
        keys.add(fmix32(h));
        h = FNV_OFFSET;
      }
      const b = bytes[o++];
      h = Math.imul(h ^ LOWER_HEX[b >> 4], FNV_PRIME);
      h = Math.imul(h ^ LOWER_HEX[b & 15], FNV_PRIME);
    }
    keys.add(fmix32(h));
  }
}
