import type { ByteReader, ByteWriter } from './bytes';
import { bitWidth } from './bit-pack';
import { intStats, readIndexSeq, writeIntSeq } from './int-seq';
import { decodeUtf8Into, readPlainBlob, TEXT_BATCH_CHARS, writePlainValues } from './plain-values';

/**
 * Free text as tokens (docs/block-format.md, "strings", CLP-style): every value split on single spaces
 * (U+0020) into tokens, a dictionary of the distinct tokens, the token count of each value and the token
 * codes of all values in order. A value is its tokens joined by single spaces, so any string round-trips:
 * "" is one empty token, a double space an empty token between two others.
 *
 *   varint T, then the T tokens as plain values, then counts: integer sequence of D values (each ≥ 1),
 *   then codes: integer sequence of Σ counts values (each < T)
 */
export interface Tokenized {
  tokens: string[];
  /** Tokens per value. */
  counts: Uint32Array;
  /** Token codes of all values, in order. */
  codes: Uint32Array;
  total: number;
}

/** As an int32 (`| 0`), like every hash Math.imul returns: the table stores and compares int32s. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** Values tokenized before the first check that tokens repeat. */
const CHECK_EVERY = 1024;

/**
 * Splits every value into tokens, or returns null as soon as the tokens clearly do not repeat (more than
 * half of the tokens seen are distinct): then a token dictionary would be as large as the text.
 */
export function tokenize(values: readonly string[], expectedTokens = values.length * 4): Tokenized | null {
  const count = values.length;
  const table = new TokenTable();
  const counts = new Uint32Array(count);
  let codes = new Uint32Array(Math.max(16, expectedTokens));
  let total = 0;
  for (let d = 0; d < count; d++) {
    if (d % CHECK_EVERY === CHECK_EVERY - 1 && table.tokens.length * 2 > total) return null;
    const s = values[d];
    const length = s.length;
    // Room for every token of this value (at most length + 1).
    if (total + length + 1 > codes.length) {
      const grown = new Uint32Array(Math.max(codes.length * 2, total + length + 1));
      grown.set(codes.subarray(0, total));
      codes = grown;
    }
    const first = total;
    let start = 0;
    let h = FNV_OFFSET;
    for (let p = 0; p < length; p++) {
      const c = s.charCodeAt(p);
      if (c !== 32) h = Math.imul(h ^ c, FNV_PRIME);
      else {
        codes[total++] = table.code(s, start, p, h);
        start = p + 1;
        h = FNV_OFFSET;
      }
    }
    codes[total++] = table.code(s, start, length, h);
    counts[d] = total - first;
  }
  return { tokens: table.tokens, counts, codes, total };
}

/** Distinct tokens by FNV-1a hash (open addressing), each checked char by char on a hash match. */
class TokenTable {
  readonly tokens: string[] = [];
  private hashes: Int32Array = new Int32Array(256);
  private lengths: Int32Array = new Int32Array(256);
  private slots: Int32Array = new Int32Array(512).fill(-1);

  /** The code of the token s[start, end) whose hash is h, added when new. */
  code(s: string, start: number, end: number, h: number): number {
    const tokenLength = end - start;
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const k = this.slots[slot];
      if (k === -1) break;
      if (this.hashes[k] === h && this.lengths[k] === tokenLength) {
        const t = this.tokens[k];
        let q = 0;
        while (q < tokenLength && t.charCodeAt(q) === s.charCodeAt(start + q)) q++;
        if (q === tokenLength) return k;
      }
      slot = (slot + 1) & mask;
    }
    const code = this.tokens.length;
    this.tokens.push(s.substring(start, end));
    if (code === this.hashes.length) {
      this.hashes = grow(this.hashes);
      this.lengths = grow(this.lengths);
    }
    this.hashes[code] = h;
    this.lengths[code] = tokenLength;
    this.slots[slot] = code;
    if ((code + 1) * 2 > this.slots.length) this.rehash();
    return code;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let k = 0; k < this.tokens.length; k++) {
      let slot = this.hashes[k] & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = k;
    }
    this.slots = slots;
  }
}

function grow(a: Int32Array): Int32Array {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}

/** Estimated payload bytes of the token layout (before compression), to compare with plain values. */
export function tokenizedSize(t: Tokenized, valueCount: number): number {
  let tokenBytes = 0;
  for (const token of t.tokens) tokenBytes += token.length + 1;
  let maxCount = 0;
  for (let d = 0; d < valueCount; d++) if (t.counts[d] > maxCount) maxCount = t.counts[d];
  const codeBits = t.total * bitWidth(t.tokens.length - 1);
  return tokenBytes + Math.ceil((codeBits + valueCount * bitWidth(maxCount)) / 8);
}

export function writeTokenValues(out: ByteWriter, t: Tokenized, valueCount: number): void {
  out.varint(t.tokens.length);
  writePlainValues(out, t.tokens);
  writeIntSeq(out, t.counts, valueCount, intStats(t.counts, valueCount));
  // Token codes are what zstd entropy-codes best in whole bytes (a 24-word vocabulary: ~4.4 bits, not 5).
  // Their statistics are known without a pass: codes 0 to T − 1 all occur, and they neither run nor
  // climb, so `for` is the layout.
  const last = t.tokens.length - 1;
  const stats = { min: 0, max: last, runs: t.total, maxRun: 1, dmin: -last, dmax: last };
  writeIntSeq(out, t.codes, t.total, stats, { byteAligned: true });
}

/** More tokens than this could not be decoded into strings (V8's longest string is 2^29 − 24 chars). */
const MAX_TOKENS = 2 ** 29;

export function readTokenValues(r: ByteReader, count: number): string[] {
  const tokenCount = r.varint();
  // Distinct tokens: at most one is empty, every other takes a byte.
  r.check(tokenCount <= r.buf.length + 1, `claims ${tokenCount} tokens`);
  // Token bytes are copied into values as they are: the values' text is validated when it is decoded.
  const { lengths: tokenLengths, blob: tokenBlob } = readPlainBlob(r, tokenCount);
  // Int32 offsets and codes keep the copy loops below on small-integer arithmetic.
  const tokenStart = new Int32Array(tokenCount + 1);
  for (let t = 0; t < tokenCount; t++) tokenStart[t + 1] = tokenStart[t] + tokenLengths[t];
  const counts = readIndexSeq(r, count, MAX_TOKENS);
  let total = 0;
  for (let d = 0; d < count; d++) {
    const k = counts[d];
    if (!(k >= 1 && total + k <= MAX_TOKENS)) r.fail(`has a value of ${k} tokens`);
    total += k;
  }
  const codes = readIndexSeq(r, total, tokenCount);

  // Each value's UTF-8 bytes (tokens joined by 0x20), a batch at a time, then one decode per batch.
  const out: string[] = new Array(count);
  let d = 0;
  let c = 0;
  while (d < count) {
    const first = d;
    const firstCode = c;
    let bytes = 0;
    for (; d < count && (d === first || bytes < TEXT_BATCH_CHARS); d++) {
      const end = c + counts[d];
      bytes += counts[d] - 1;
      for (; c < end; c++) bytes += tokenStart[codes[c] + 1] - tokenStart[codes[c]];
    }
    const blob = new Uint8Array(bytes);
    const lengths = new Int32Array(d - first);
    let o = 0;
    c = firstCode;
    for (let v = first; v < d; v++) {
      const start = o;
      const end = c + counts[v];
      for (; c < end; c++) {
        const code = codes[c];
        const tokenEnd = tokenStart[code + 1];
        for (let b = tokenStart[code]; b < tokenEnd; b++) blob[o++] = tokenBlob[b];
        blob[o++] = 32;
      }
      o--; // no space after the last token
      lengths[v - first] = o - start;
    }
    decodeUtf8Into(blob, lengths, d - first, out, first, r);
  }
  return out;
}
