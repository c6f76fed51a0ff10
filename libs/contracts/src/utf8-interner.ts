import { isAscii, isUtf8 } from 'node:buffer';
import { finishHash, HASH_SEED, MAX_PROBES, slotsFor } from './intern-table';
import type { StringColumn, Utf8Dict } from './columns';

/**
 * Dense codes for strings given as UTF-8 bytes, in first-appearance order: `StringInterner` for the ingest
 * path that reads values straight out of the request body (`ingest-core`'s flat NDJSON reader). A value
 * never becomes a JS string here: its bytes are hashed where they lie and copied once, when new, into one
 * growing buffer, which is then written to the ingest log as it is (`StringColumn.utf8`).
 *
 * Same defences as `StringInterner`: a value longer than 48 bytes is hashed on a sample of 48 of its bytes;
 * a probe that runs long rebuilds the table with every byte hashed, and if probes still run long (crafted
 * full-hash collisions), a `Map` keyed by the bytes as a latin1 string takes over.
 *
 *   const interner = new Utf8Interner();
 *   codes[i] = interner.intern(body, start, end);
 *   const dict = interner.finish();  // bytes of code c: dict.bytes[dict.ends[c - 1] ?? 0 .. dict.ends[c])
 */
export class Utf8Interner {
  /** A Buffer, for its native `compare` of byte ranges (`equals`). */
  private bytes: Buffer;
  /** Used bytes of `bytes`. */
  private used = 0;
  /** End offset (in `bytes`) of each code's value. */
  private ends: Int32Array;
  private hashes: Int32Array;
  private count = 0;
  /** Code + 1 per slot; 0 is empty. */
  private slots: Int32Array;
  private mask: number;
  private mode: 'sampled' | 'full' = 'sampled';
  private map: Map<string, number> | null = null;
  /** The caller's buffer, if it gave one: the dictionary stays a view of it (see `finish`). */
  private readonly given: Buffer | undefined;

  /**
   * `buffer`, when given, holds the values' bytes (the interner writes from its start) until they outgrow
   * it: a caller that reuses one buffer for many dictionaries saves faulting fresh pages in for each.
   */
  constructor(expectedDistinct = 16, expectedBytes = expectedDistinct * 16, buffer?: Buffer) {
    let capacity = 16;
    while (capacity < expectedDistinct * 2) capacity <<= 1;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.ends = new Int32Array(Math.max(8, expectedDistinct));
    this.hashes = new Int32Array(Math.max(8, expectedDistinct));
    this.given = buffer;
    this.bytes = buffer ?? Buffer.alloc(Math.max(64, expectedBytes));
  }

  /** Distinct values so far. */
  get size(): number {
    return this.count;
  }

  /** The code of the value whose UTF-8 bytes are `src[start, end)`, a new one if it was not seen before. */
  intern(src: Uint8Array, start: number, end: number): number {
    if (this.map !== null) return this.internInMap(src, start, end);
    const h = this.hash(src, start, end);
    const { slots, hashes, mask } = this;
    const length = end - start;
    let i = h & mask;
    for (let probes = 0; ; probes++) {
      const slot = slots[i];
      if (slot === 0) break;
      if (hashes[slot - 1] === h && this.equals(slot - 1, src, start, length)) return slot - 1;
      if (probes === MAX_PROBES) {
        this.degrade();
        return this.intern(src, start, end);
      }
      i = (i + 1) & mask;
    }
    const code = this.append(src, start, end);
    this.hashes[code] = h;
    slots[i] = code + 1;
    if (this.count * 2 > slots.length) this.rebuild(slots.length * 2);
    return code;
  }

  /** The code of a well-formed JS string (a lone surrogate would be encoded as U+FFFD). */
  internString(value: string): number {
    const scratch = scratchFor(value.length * 3);
    const { written } = ENCODER.encodeInto(value, scratch);
    return this.intern(scratch, 0, written);
  }

  /** The value of a code, decoded (for the rare caller that needs it as a string). */
  valueAt(code: number): string {
    return decodeUtf8(this.bytes, code === 0 ? 0 : this.ends[code - 1], this.ends[code]);
  }

  /** The dictionary, trimmed to size (the interner must not be used afterwards). */
  finish(): Utf8Dict {
    // A view of the used bytes when the buffer is the caller's (it decides how long the bytes live) or they
    // fill most of it (a flush's dictionary, sized up front from its parts): copying 100+ MB into fresh
    // memory costs about 4 ms per MB where pages fault in slowly, more than the unused quarter at most it
    // keeps. Otherwise a copy, so the spare capacity goes.
    const view = this.bytes === this.given || this.used * 4 >= this.bytes.length * 3;
    const bytes = view
      ? new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.used)
      : new Uint8Array(this.bytes.subarray(0, this.used));
    return { bytes, ends: this.ends.slice(0, this.count) };
  }

  /** How values are looked up now (for tests and diagnostics). */
  get lookup(): 'sampled hash' | 'full hash' | 'map' {
    return this.map !== null ? 'map' : this.mode === 'full' ? 'full hash' : 'sampled hash';
  }

  private equals(code: number, src: Uint8Array, start: number, length: number): boolean {
    const from = code === 0 ? 0 : this.ends[code - 1];
    if (this.ends[code] - from !== length) return false;
    // Natively for the longer values (a user agent, a URL): a byte loop costs about 1 ns a byte.
    if (length >= NATIVE_COMPARE_BYTES)
      return this.bytes.compare(src, start, start + length, from, from + length) === 0;
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[from + k] !== src[start + k]) return false;
    return true;
  }

  private append(src: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + length));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    // A loop beats `set(subarray)` for the short values most fields hold (no view allocated), not for a
    // ~100-byte message (measured on the bench events: 650 → 490 ns per event for six fields, with `equals`).
    if (length <= NATIVE_COPY_BYTES)
      for (let k = 0; k < length; k++) this.bytes[this.used + k] = src[start + k];
    else this.bytes.set(src.subarray(start, end), this.used);
    this.used += length;
    const code = this.count++;
    if (code === this.ends.length) {
      this.ends = grow(this.ends);
      this.hashes = grow(this.hashes);
    }
    this.ends[code] = this.used;
    return code;
  }

  private internInMap(src: Uint8Array, start: number, end: number): number {
    const key = latin1(src, start, end);
    let code = this.map!.get(key);
    if (code === undefined) {
      code = this.append(src, start, end);
      this.map!.set(key, code);
    }
    return code;
  }

  /** Murmur3-style, four bytes a step: the bytes of a long value sampled, unless a probe ran long before. */
  private hash(src: Uint8Array, start: number, end: number): number {
    const n = end - start;
    let h = HASH_SEED ^ n;
    if (n <= FULL_HASH_BYTES || this.mode === 'full') {
      let i = start;
      for (; i + 4 <= end; i += 4)
        h = mix(h, src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24));
      for (; i < end; i++) h = mix(h, src[i]);
    } else {
      // The first 16 bytes, 16 spread between, the last 16.
      for (let i = start; i < start + 16; i += 4) {
        h = mix(h, src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24));
      }
      const step = Math.floor((n - 32) / 16);
      for (let k = 0, i = start + 16; k < 16; k += 4, i += 4 * step) {
        h = mix(h, src[i] | (src[i + step] << 8) | (src[i + 2 * step] << 16) | (src[i + 3 * step] << 24));
      }
      for (let i = end - 16; i < end; i += 4) {
        h = mix(h, src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24));
      }
    }
    return finishHash(h);
  }

  /** A probe ran long: hash every byte from now on, or, if that is already the case, use a Map. */
  private degrade(): void {
    if (this.mode === 'sampled') {
      this.mode = 'full';
      for (let c = 0; c < this.count; c++) {
        this.hashes[c] = this.hash(this.bytes, c === 0 ? 0 : this.ends[c - 1], this.ends[c]);
      }
      this.rebuild(this.slots.length);
      return;
    }
    const map = new Map<string, number>();
    for (let c = 0; c < this.count; c++)
      map.set(latin1(this.bytes, c === 0 ? 0 : this.ends[c - 1], this.ends[c]), c);
    this.map = map;
    this.slots = new Int32Array(0);
  }

  private rebuild(capacity: number): void {
    this.slots = slotsFor(this.hashes, this.count, capacity);
    this.mask = capacity - 1;
  }
}

/**
 * No lone surrogate, which UTF-8 cannot hold (`String.prototype.isWellFormed`, in Node 20 but not in this
 * project's TS lib).
 */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** `src[start, end)` decoded (invalid sequences as U+FFFD). */
export function decodeUtf8(src: Uint8Array, start: number, end: number): string {
  return DECODER.decode(src.subarray(start, end));
}

/**
 * The values of a UTF-8 dictionary as strings. One decode per batch of values, then substrings (V8 makes
 * the longer ones slices of the batch's text): a decode per value costs several times more. Bytes that
 * are not valid UTF-8 decode value by value, invalid sequences as U+FFFD.
 */
export function decodeUtf8Dict(dict: Utf8Dict): string[] {
  const { bytes, ends } = dict;
  const out: string[] = new Array(ends.length);
  for (let first = 0; first < ends.length;) {
    const start = first === 0 ? 0 : ends[first - 1];
    let end = first + 1;
    while (end < ends.length && ends[end] - start <= DECODE_BATCH_BYTES) end++;
    decodeBatch(bytes, ends, first, end, out);
    first = end;
  }
  return out;
}

function decodeBatch(bytes: Uint8Array, ends: Int32Array, first: number, end: number, out: string[]): void {
  const start = first === 0 ? 0 : ends[first - 1];
  const batch = Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[end - 1] - start);
  if (isAscii(batch)) {
    // latin1 is a plain copy, and character offsets are byte offsets.
    const text = batch.toString('latin1');
    for (let d = first, o = 0; d < end; d++) {
      const next = ends[d] - start;
      out[d] = text.substring(o, next);
      o = next;
    }
    return;
  }
  if (isUtf8(batch) && startsOnCharacters(bytes, ends, first, end)) {
    const text = batch.toString('utf8');
    // UTF-16 length of each value from its bytes: one unit per lead byte, two for a 4-byte sequence.
    let char = 0;
    for (let d = first, byte = start; d < end; d++) {
      let units = 0;
      for (const stop = ends[d]; byte < stop; byte++) {
        const b = bytes[byte];
        if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
      }
      out[d] = text.substring(char, char + units);
      char += units;
    }
    return;
  }
  for (let d = first; d < end; d++) out[d] = decodeUtf8(bytes, d === 0 ? 0 : ends[d - 1], ends[d]);
}

/** Whether no value of a valid UTF-8 batch starts inside a character (each is valid UTF-8 on its own). */
function startsOnCharacters(bytes: Uint8Array, ends: Int32Array, first: number, end: number): boolean {
  for (let d = first; d < end; d++) {
    const from = d === 0 ? 0 : ends[d - 1];
    if (from !== ends[d] && (bytes[from] & 0xc0) === 0x80) return false;
  }
  return true;
}

/** The entries `used` of a UTF-8 dictionary, in that order, as a dictionary of their own. */
export function utf8Entries(dict: Utf8Dict, used: readonly number[]): Utf8Dict {
  const { bytes, ends } = dict;
  const outEnds = new Int32Array(used.length);
  let total = 0;
  for (let m = 0; m < used.length; m++) {
    const d = used[m];
    outEnds[m] = total += ends[d] - (d === 0 ? 0 : ends[d - 1]);
  }
  const out = new Uint8Array(total);
  for (let m = 0; m < used.length; m++) {
    const d = used[m];
    out.set(bytes.subarray(d === 0 ? 0 : ends[d - 1], ends[d]), m === 0 ? 0 : outEnds[m - 1]);
  }
  return { bytes: out, ends: outEnds };
}

/** Strings as a UTF-8 dictionary (lone surrogates as U+FFFD, as `TextEncoder` writes them). */
export function utf8DictOf(values: readonly string[]): Utf8Dict {
  const count = values.length;
  const ends = new Int32Array(count);
  const chunks: Uint8Array[] = [];
  let total = 0;
  // One join and one encode per batch of values is far cheaper than one per value. Safe only when the
  // batch is ASCII: a lone surrogate ending one value would pair with one starting the next.
  for (let first = 0; first < count;) {
    let end = first;
    let chars = 0;
    while (end < count && (end === first || chars + values[end].length <= DECODE_BATCH_BYTES))
      chars += values[end++].length;
    const joined = end - first === count ? values.join('') : values.slice(first, end).join('');
    const bytes = Buffer.from(joined, 'utf8');
    if (bytes.length === joined.length) {
      for (let d = first; d < end; d++) ends[d] = total += values[d].length;
      chunks.push(bytes);
    } else {
      for (let d = first; d < end; d++) {
        const encoded = Buffer.from(values[d], 'utf8');
        ends[d] = total += encoded.length;
        chunks.push(encoded);
      }
    }
    first = end;
  }
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, total), ends };
}

/**
 * A string column over a UTF-8 dictionary whose `dict` is decoded on first use: the ingest path writes the
 * bytes to its log and never needs the strings.
 */
export function utf8StringColumn(codes: Int32Array, utf8: Utf8Dict): StringColumn {
  let decoded: string[] | null = null;
  return {
    kind: 'string',
    codes,
    utf8,
    get dict(): string[] {
      return (decoded ??= decodeUtf8Dict(utf8));
    },
  };
}

/**
 * Other rows of a string column, with its dictionary: the UTF-8 one too, whose strings (decoded on first
 * use) the two columns then share, and its tokens.
 */
export function withCodes(column: StringColumn, codes: Int32Array): StringColumn {
  if (column.utf8 === undefined)
    return column.tokens === undefined
      ? { kind: 'string', codes, dict: column.dict }
      : { kind: 'string', codes, dict: column.dict, tokens: column.tokens };
  return {
    kind: 'string',
    codes,
    utf8: column.utf8,
    get dict(): string[] {
      return column.dict;
    },
  };
}

/** Values decoded or encoded in one piece, well below V8's longest string (2^29 − 24 chars). */
const DECODE_BATCH_BYTES = 1 << 24;
/** Values up to this many bytes are hashed whole. */
const FULL_HASH_BYTES = 48;
/** Values at least this long are compared natively (`Buffer.compare`), longer than this copied natively. */
const NATIVE_COMPARE_BYTES = 24;
const NATIVE_COPY_BYTES = 32;

/** One Murmur3 step: the 32-bit word `k` into the hash `h`. */
function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}
const ENCODER = new TextEncoder();
/** `ignoreBOM`: a value may start with U+FEFF, which a default decoder would drop. */
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

let scratch = new Uint8Array(256);
function scratchFor(bytes: number): Uint8Array {
  if (scratch.length < bytes) scratch = new Uint8Array(Math.max(bytes, scratch.length * 2));
  return scratch;
}

/** Bytes as a latin1 string: one char per byte, a Map key that is equal exactly when the bytes are. */
function latin1(src: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += 4096) {
    out += String.fromCharCode(...src.subarray(i, Math.min(end, i + 4096)));
  }
  return out;
}

function grow(a: Int32Array): Int32Array {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}
