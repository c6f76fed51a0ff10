import { ByteWriter } from './bytes';
import type { EncodedStrings } from './encode-strings';
import { addHexTerms, addTerms, addTrigrams, foldValue } from './filter-keys';
import { BLOCK_BYTES, HashSet32, blocksFor, bloomInsert } from './split-bloom';
import type { Tokenized } from './token-values';

/**
 * Token filter of a string column (docs/block-format.md, "Token filters"):
 *
 *   u8 flags: bit 0 the terms part follows, bit 1 the trigrams part follows
 *   each part present: varint B, then B split-block Bloom filter blocks of 32 bytes
 *
 * A part left out (too many distinct keys to be worth its bytes) answers "maybe" for every key.
 */
export const FILTER_TERMS = 1;
export const FILTER_TRIGRAMS = 2;

/** Distinct terms beyond this many per row (+ a floor) are not worth a filter: nearly every term is new. */
const MAX_TERMS_PER_ROW = 2;
const MIN_KEY_CAP = 4096;
/** Distinct trigrams beyond this make a large filter that rejects little. */
const MAX_TRIGRAMS = 1 << 16;
/** Trigrams of plain values are collected only up to this many chars of distinct values (write cost). */
const TRIGRAM_CHARS = 1 << 18;

export function buildTokenFilter(strings: EncodedStrings, rows: number): Uint8Array {
  const terms = new HashSet32();
  let trigrams: HashSet32 | null = new HashSet32();
  if (strings.tokenized !== null) {
    tokenKeys(strings.tokenized, strings.dictSize, terms, trigrams);
  } else if (strings.hex !== null) {
    // Hex ids and uuids have nearly every trigram of their digits: a trigram filter would say "maybe".
    trigrams = null;
    addHexTerms(strings.hex, strings.dictSize, terms);
  } else {
    const { values } = strings;
    let chars = 0;
    for (let d = 0; d < values.length; d++) chars += values[d].length;
    if (chars > TRIGRAM_CHARS) trigrams = null;
    for (let d = 0; d < values.length; d++) {
      const { text, ascii } = foldValue(values[d]);
      addTerms(text, ascii, terms);
      if (trigrams !== null) addTrigrams(text, trigrams);
    }
  }
  const keepTerms = terms.size <= Math.max(MIN_KEY_CAP, rows * MAX_TERMS_PER_ROW);
  const keepTrigrams = trigrams !== null && trigrams.size <= MAX_TRIGRAMS;
  const w = new ByteWriter(16);
  w.u8((keepTerms ? FILTER_TERMS : 0) | (keepTrigrams ? FILTER_TRIGRAMS : 0));
  if (keepTerms) writeBloom(w, terms);
  if (keepTrigrams) writeBloom(w, trigrams!);
  return w.finish();
}

function writeBloom(w: ByteWriter, keys: HashSet32): void {
  const blocks = blocksFor(keys.size);
  const words = new Uint32Array(blocks * (BLOCK_BYTES / 4));
  keys.forEach((h) => bloomInsert(words, blocks, h));
  w.varint(blocks);
  w.bytes(new Uint8Array(words.buffer));
}

/**
 * Keys of token-encoded text without scanning every value: a value's folded text is its folded tokens
 * joined by spaces, so its terms are the tokens' terms, and each of its trigrams lies in the window of a
 * token and the text after it up to 3 units on (usually the next token). Windows repeat across values;
 * each distinct pair of tokens is scanned once.
 */
function tokenKeys(t: Tokenized, valueCount: number, terms: HashSet32, trigrams: HashSet32): void {
  const tokenCount = t.tokens.length;
  const folded: string[] = new Array(tokenCount);
  for (let k = 0; k < tokenCount; k++) {
    const { text, ascii } = foldValue(t.tokens[k]);
    folded[k] = text;
    addTerms(text, ascii, terms);
  }
  const seenSingle = new Uint8Array(tokenCount);
  const seenPairs = tokenCount <= 1024 ? new Uint8Array(tokenCount * tokenCount) : null;
  const pairSet = seenPairs === null ? new Set<number>() : null;
  const seenWindows = new Set<string>();
  const { counts, codes } = t;
  let o = 0;
  for (let d = 0; d < valueCount; d++) {
    const m = counts[d];
    if (m === 1) {
      const a = codes[o];
      if (seenSingle[a] === 0) {
        seenSingle[a] = 1;
        addTrigrams(folded[a], trigrams);
      }
      o++;
      continue;
    }
    for (let i = 0; i < m - 1; i++) {
      const a = codes[o + i];
      const b = codes[o + i + 1];
      if (folded[b].length >= 2) {
        // Trigrams starting in token a or at the space after it end within the next token.
        const key = a * tokenCount + b;
        if (seenPairs !== null) {
          if (seenPairs[key] === 1) continue;
          seenPairs[key] = 1;
        } else {
          if (pairSet!.has(key)) continue;
          pairSet!.add(key);
        }
        addTrigrams(folded[a] + ' ' + folded[b], trigrams);
        continue;
      }
      // A short next token: extend the window until 3 units follow token a (or the value ends).
      let window = folded[a];
      let after = 0;
      for (let j = i + 1; j < m && after < 3; j++) {
        const next = folded[codes[o + j]];
        window += ' ' + next;
        after += 1 + next.length;
      }
      if (!seenWindows.has(window)) {
        seenWindows.add(window);
        addTrigrams(window, trigrams);
      }
    }
    o += m;
  }
}
