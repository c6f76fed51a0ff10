import { ByteReader, type ByteWriter } from './bytes';
import { bitWidth } from './bit-pack';
import { intStats, readIndexSeq, writeIntSeq } from './int-seq';
import { isAscii, isUtf8 } from 'node:buffer';
import { type DictTokens, type StringColumn, utf8DictOf, type Utf8Dict } from '@quarry/contracts';
import { decodeUtf8Into, readPlainBlob, TEXT_BATCH_CHARS, writePlainUtf8 } from './plain-values';

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
  /** The tokens' UTF-8 bytes back to back (as written), and where each ends. */
  tokenBytes: Utf8Dict;
  /** Tokens per value. */
  counts: Uint32Array;
  /** Token codes of all values, in order. */
  codes: Uint32Array;
  total: number;
}

/**
 * Constants of the tokenizer's loop, as a `const enum` so the compiler writes them as literals: read from
 * module-level consts, the loop ran 20–25% slower (measured on the bench's messages).
 */
const enum Tok {
  /** FNV-1a's offset basis as an int32, like every hash Math.imul returns (the table stores int32s). */
  FnvOffset = -2128831035,
  FnvPrime = 0x01000193,
  Space = 0x20,
  /** Values tokenized between checks that tokens repeat. */
  CheckEvery = 1024,
}

/**
 * Splits every value into tokens, or returns null as soon as the tokens clearly do not repeat (more than
 * half of the tokens seen are distinct): then a token dictionary would be as large as the text.
 */
export function tokenize(values: readonly string[], expectedTokens = values.length * 4): Tokenized | null {
  return tokenizeUtf8(utf8DictOf(values), identity(values.length), expectedTokens);
}

/**
 * `tokenize` of the entries `used` of a UTF-8 dictionary, in that order. It works on the values' bytes: a
 * byte loop is faster than `charCodeAt` over strings, and a column read from the ingest log is never
 * decoded. A space byte never occurs inside a multi-byte sequence, so the tokens are the same.
 */
export function tokenizeUtf8(
  dict: Utf8Dict,
  used: ArrayLike<number>,
  expectedTokens = used.length * 4,
): Tokenized | null {
  const { bytes, ends } = dict;
  const count = used.length;
  const counts = new Uint32Array(count);
  let codes = new Uint32Array(Math.max(16, expectedTokens));
  let total = 0;
  // The distinct tokens, inline rather than in a class (a method call per token was a third of the cost):
  // token k's bytes are blob[starts[k], starts[k + 1]), its FNV-1a hash hashes[k]; slots hold codes by
  // hash (open addressing, linear probing), -1 when free.
  const tokens: string[] = [];
  let blob: Uint8Array = new Uint8Array(1024);
  let starts: Int32Array = new Int32Array(257);
  let hashes: Int32Array = new Int32Array(256);
  let slots: Int32Array = new Int32Array(512).fill(-1);
  let mask = slots.length - 1;
  for (let d = 0; d < count; d++) {
    if (d % Tok.CheckEvery === Tok.CheckEvery - 1 && tokens.length * 2 > total) return null;
    const u = used[d];
    const valueStart = u === 0 ? 0 : ends[u - 1];
    const end = ends[u];
    // Room for every token of this value (at most its length + 1).
    if (total + end - valueStart + 1 > codes.length)
      codes = grown(codes, total, total + end - valueStart + 1);
    const first = total;
    let start = valueStart;
    let h = Tok.FnvOffset;
    for (let p = valueStart; p <= end; p++) {
      const c = p < end ? bytes[p] : Tok.Space;
      if (c !== Tok.Space) {
        h = Math.imul(h ^ c, Tok.FnvPrime);
        continue;
      }
      const length = p - start;
      let slot = h & mask;
      let code = -1;
      for (;;) {
        const k = slots[slot];
        if (k === -1) break;
        if (hashes[k] === h) {
          const from = starts[k];
          if (starts[k + 1] - from === length) {
            let q = 0;
            while (q < length && blob[from + q] === bytes[start + q]) q++;
            if (q === length) {
              code = k;
              break;
            }
          }
        }
        slot = (slot + 1) & mask;
      }
      if (code === -1) {
        code = tokens.length;
        tokens.push(UTF8.decode(bytes.subarray(start, p)));
        const blobUsed = starts[code];
        if (blobUsed + length > blob.length) blob = grown(blob, blobUsed, blobUsed + length);
        blob.set(bytes.subarray(start, p), blobUsed);
        if (code + 2 > starts.length) {
          starts = grown(starts, code + 1, code + 2);
          hashes = grown(hashes, code, code + 1);
        }
        starts[code + 1] = blobUsed + length;
        hashes[code] = h;
        slots[slot] = code;
        if ((code + 1) * 2 > slots.length) {
          slots = slotsByHash(hashes, code + 1, slots.length * 2);
          mask = slots.length - 1;
        }
      }
      codes[total++] = code;
      start = p + 1;
      h = Tok.FnvOffset;
    }
    counts[d] = total - first;
  }
  const tokenBytes: Utf8Dict = {
    bytes: blob.slice(0, starts[tokens.length]),
    ends: starts.slice(1, tokens.length + 1),
  };
  return { tokens, tokenBytes, counts, codes, total };
}

/** A table of `capacity` slots holding codes 0..count-1 by their hashes. */
function slotsByHash(hashes: Int32Array, count: number, capacity: number): Int32Array {
  const slots = new Int32Array(capacity).fill(-1);
  const mask = capacity - 1;
  for (let k = 0; k < count; k++) {
    let slot = hashes[k] & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = k;
  }
  return slots;
}

/** A copy of `a[0, used)` in an array of at least `need` (twice as large at least). */
function grown<T extends Uint8Array | Int32Array | Uint32Array>(a: T, used: number, need: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, need));
  out.set(a.subarray(0, used));
  return out;
}

const UTF8 = new TextDecoder();

/** Estimated payload bytes of the token layout (before compression), to compare with plain values. */
export function tokenizedSize(t: Tokenized, valueCount: number): number {
  const tokenBytes = t.tokenBytes.bytes.length + t.tokens.length;
  let maxCount = 0;
  for (let d = 0; d < valueCount; d++) if (t.counts[d] > maxCount) maxCount = t.counts[d];
  const codeBits = t.total * bitWidth(t.tokens.length - 1);
  return tokenBytes + Math.ceil((codeBits + valueCount * bitWidth(maxCount)) / 8);
}

export function writeTokenValues(out: ByteWriter, t: Tokenized, valueCount: number): void {
  out.varint(t.tokens.length);
  writePlainUtf8(out, t.tokenBytes, identity(t.tokens.length));
  writeIntSeq(out, t.counts, valueCount, intStats(t.counts, valueCount));
  // Token codes are what zstd entropy-codes best in whole bytes (a 24-word vocabulary: ~4.4 bits, not 5).
  // Their statistics are known without a pass: codes 0 to T − 1 all occur, and they neither run nor
  // climb, so `for` is the layout.
  const last = t.tokens.length - 1;
  const stats = { min: 0, max: last, runs: t.total, maxRun: 1, dmin: -last, dmax: last };
  writeIntSeq(out, t.codes, t.total, stats, { byteAligned: true });
}

export function identity(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** More tokens than this could not be decoded into strings (V8's longest string is 2^29 − 24 chars). */
const MAX_TOKENS = 2 ** 29;

/** The values of a token layout, and the tokens themselves (`readTokens`, `tokenValues`). */
export function readTokenValues(r: ByteReader, count: number): { values: string[]; tokens: DictTokens } {
  const tokens = readTokens(r, count);
  return { values: tokenValues(tokens), tokens };
}

/**
 * A token layout as tokens (`StringColumn.tokens`), checked: every code and count in range and the tokens
 * valid UTF-8, so the values they make are valid too (tokens joined by ASCII spaces) and `tokenValues`
 * cannot fail. The token bytes are copied out of the block's buffer: a cached column must not keep the
 * block file alive.
 */
export function readTokens(r: ByteReader, count: number): DictTokens {
  const tokenCount = r.varint();
  // Distinct tokens: at most one is empty, every other takes a byte.
  r.check(tokenCount <= r.buf.length + 1, `claims ${tokenCount} tokens`);
  const { lengths: tokenLengths, blob } = readPlainBlob(r, tokenCount);
  const bytes = blob.slice();
  // Int32 offsets and codes keep the loops over them on small-integer arithmetic.
  const tokenStart = new Int32Array(tokenCount + 1);
  for (let t = 0; t < tokenCount; t++) tokenStart[t + 1] = tokenStart[t] + tokenLengths[t];
  if (!isAscii(bytes)) {
    // Valid text cut only where characters start: every token is whole characters.
    if (!isUtf8(bytes)) r.fail('has invalid UTF-8');
    for (let t = 0; t < tokenCount; t++)
      if (tokenStart[t] < tokenStart[t + 1] && (bytes[tokenStart[t]] & 0xc0) === 0x80)
        r.fail(`has token ${t} starting inside a character`);
  }
  const counts = readIndexSeq(r, count, MAX_TOKENS);
  let total = 0;
  for (let d = 0; d < count; d++) {
    const k = counts[d];
    if (!(k >= 1 && total + k <= MAX_TOKENS)) r.fail(`has a value of ${k} tokens`);
    total += k;
  }
  const codes = readIndexSeq(r, total, tokenCount);
  return { tokens: { bytes, ends: tokenStart.subarray(1) }, counts, codes };
}

/** The values the tokens make: each value's tokens joined by single spaces, a batch of values per decode. */
export function tokenValues(dictTokens: DictTokens): string[] {
  const { counts, codes } = dictTokens;
  const tokenBlob = dictTokens.tokens.bytes;
  const ends = dictTokens.tokens.ends;
  const tokenStart = new Int32Array(ends.length + 1);
  tokenStart.set(ends, 1);
  const count = counts.length;
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
    decodeUtf8Into(blob, lengths, d - first, out, first, VALIDATED);
  }
  return out;
}

/**
 * Estimated heap bytes of a token column's dictionary: its token arrays, and its values as strings once
 * made (two bytes per char plus an object's overhead, counting UTF-8 bytes as chars), without making them.
 */
export function tokenDictBytes(dictTokens: DictTokens): number {
  const { counts, codes, tokens } = dictTokens;
  const { ends } = tokens;
  const lengths = new Int32Array(ends.length);
  for (let t = 0; t < ends.length; t++) lengths[t] = ends[t] - (t === 0 ? 0 : ends[t - 1]);
  let chars = codes.length - counts.length; // the spaces between tokens
  for (let c = 0; c < codes.length; c++) chars += lengths[codes[c]];
  const arrays = tokens.bytes.byteLength + ends.byteLength + counts.byteLength + codes.byteLength;
  return arrays + 32 * counts.length + 2 * chars;
}

/** `decodeUtf8Into` reports invalid text through a reader; tokens were checked, so it never does. */
const VALIDATED = new ByteReader(new Uint8Array(0), 'checked tokens');

/**
 * A string column of a token layout whose `dict` is made from the tokens on first use: `contains` and
 * `has` answered token by token never need the values (string-match.ts).
 */
export function tokenStringColumn(codes: Int32Array, tokens: DictTokens): StringColumn {
  let values: string[] | null = null;
  return {
    kind: 'string',
    codes,
    tokens,
    get dict(): string[] {
      return (values ??= tokenValues(tokens));
    },
  };
}
