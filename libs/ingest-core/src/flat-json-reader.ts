import { type EventBatchBuilder, type FieldValue, isWellFormed, TIME_FIELD } from '@quarry/contracts';
import {
  EARLIEST_EVENT_TIME_MS,
  isReservedName,
  type NormalizeContext,
  sanitizeValue,
} from './normalize-event';
import { parseTimestamp, parseTimestampBytes } from './timestamp';

/**
 * Reads one NDJSON line straight from the request bytes into an `EventBatchBuilder` row: the ingest hot
 * path. Where `JSON.parse` + `flattenRecord` + `set` build an object per event, a JS string per value and a
 * dotted name per nested field, this walks the bytes once: field names are looked up by their bytes in a
 * table of paths, string values go to the builder as byte ranges of the body (`setUtf8`), and numbers are
 * read where they lie (docs/architecture.md, "Ingest parsing").
 *
 * It takes only the common case and gives every other line back (`read` returns null, nothing written),
 * for the general path to read, so results and errors stay exactly those of `flattenRecord`. A line is
 * given back when it is not a syntactically plain JSON object, or has: a repeated key or flattened name,
 * a key with an escape or that looks like an array index (JS orders those first), a reserved or map
 * field name at the top level, a top-level `data` object (maybe the grouped form), nesting deeper than
 * `maxDepth`, a name or string over its limit, more fields than the limit, a string with an escape that
 * decodes to a lone surrogate, or a time that does not parse. The body must be valid UTF-8 (the caller
 * checks once), since value bytes are copied as they are.
 */
export class FlatJsonReader {
  // Paths: a key under a parent path (-1 = top level), found by hash of (parent, key bytes).
  private pathParent: number[] = [];
  private pathKey: Uint8Array[] = [];
  private pathHash: number[] = [];
  private pathName: string[] = [];
  /** Path flags (PATH_*): what the path's name is to the normalizer. */
  private pathFlags: number[] = [];
  /** Index of the path's name among `names`. */
  private pathNameId: number[] = [];
  /** Event sequence that last used the path as a key (a repeat is a repeated key). */
  private pathSeen: Int32Array = new Int32Array(64);
  private pathSlots: Int32Array = new Int32Array(256);
  /** Per parent path + 1: the paths of its keys in the order the last line had them. */
  private readonly shapes: number[][] = [];
  // Distinct names (two paths may flatten to one name: `{"a.b":1}` and `{"a":{"b":2}}`).
  private readonly nameIds = new Map<string, number>();
  private readonly names: string[] = [];
  private nameSeen: Int32Array = new Int32Array(64);
  /** The builder's field index per name, -1 until a value is written. */
  private nameField: number[] = [];
  private seq = 0;

  // The current line's leaf values, written to the builder only once the whole line has been read.
  private entryCount = 0;
  private entryName = new Int32Array(64);
  private entryType = new Uint8Array(64);
  private entryNumber = new Float64Array(64);
  private entryStart = new Int32Array(64);
  private entryEnd = new Int32Array(64);
  private entryValue: FieldValue[] = [];
  // The time fields of the line (`timestampField` and `_time`), kept apart as `flattenRecord` does.
  private readonly timestamp = new TimeSlot();
  private readonly time = new TimeSlot();
  private body: Buffer = EMPTY;
  /**
   * The body as a plain Uint8Array: the interner copies new values out of it with `subarray`, which on a
   * Buffer goes through Node's Buffer subclass (a JS wrapper and a Buffer per value; measured ~4% of parsing).
   */
  private bytes: Uint8Array = EMPTY;

  constructor(
    private readonly ctx: NormalizeContext,
    private readonly builder: EventBatchBuilder,
  ) {}

  /**
   * Reads the line `body[start, end)` as one row of the builder and returns the event's time, or null,
   * having written nothing, when the line needs the general path.
   */
  read(body: Buffer, start: number, end: number): number | null {
    if (this.body !== body) {
      this.body = body;
      this.bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    }
    this.seq++;
    if (this.seq === 0x7fffffff) this.resetSeen();
    this.entryCount = 0;
    this.timestamp.present = false;
    this.time.present = false;
    let pos = skipSpace(body, start, end);
    if (body[pos] !== LBRACE) return null;
    pos = this.readObject(pos, end, -1, 1);
    if (pos < 0 || skipSpace(body, pos, end) !== end) return null;
    if (this.leafNames() > this.ctx.limits.maxFieldsPerEvent) return null;
    const time = this.resolveTime();
    // Before the epoch: given back, so `flattenRecord` fails the event and says why.
    if (time === null || time < EARLIEST_EVENT_TIME_MS) return null;
    this.commit(time);
    return time;
  }

  /** Reads the object at `pos` (a `{`); returns the position after its `}`, or -1 to give the line back. */
  private readObject(pos: number, end: number, parent: number, depth: number): number {
    const b = this.body;
    pos = skipSpace(b, pos + 1, end);
    if (b[pos] === RBRACE) return pos + 1;
    // The keys of the same object in the previous line, by position: lines of one shape repeat them, so
    // comparing bytes with the expected key replaces scanning, hashing and looking it up.
    let shape = this.shapes[parent + 1];
    if (shape === undefined) shape = this.shapes[parent + 1] = [];
    for (let k = 0; ; k++) {
      if (b[pos] !== QUOTE) return -1;
      const keyStart = pos + 1;
      let path = k < shape.length ? shape[k] : -1;
      let p = path < 0 ? -1 : matchKey(b, keyStart, end, this.pathKey[path]);
      if (p < 0) {
        for (p = keyStart; p < end; p++) {
          const c = b[p];
          if (c === QUOTE) break;
          if (c === BACKSLASH || c < 0x20) return -1;
        }
        if (p >= end) return -1;
        path = this.path(parent, keyStart, p, depth);
        if (path < 0) return -1;
        shape[k] = path;
      }
      if (this.pathSeen[path] === this.seq) return -1; // a repeated key
      this.pathSeen[path] = this.seq;
      pos = skipSpace(b, p + 1, end);
      if (b[pos] !== COLON) return -1;
      pos = skipSpace(b, pos + 1, end);
      if (pos >= end) return -1;
      const c = b[pos];
      if (c === LBRACE) {
        const flags = this.pathFlags[path];
        if ((flags & PATH_NOT_OBJECT) !== 0 || depth + 1 > this.ctx.limits.maxDepth) return -1;
        pos = this.readObject(pos, end, path, depth + 1);
      } else pos = this.readLeaf(pos, end, path, depth);
      if (pos < 0) return -1;
      pos = skipSpace(b, pos, end);
      if (b[pos] === COMMA) pos = skipSpace(b, pos + 1, end);
      else if (b[pos] === RBRACE) return pos + 1;
      else return -1;
    }
  }

  /** Reads a value that is not an object as the leaf `path`; returns the position after it, or -1. */
  private readLeaf(pos: number, end: number, path: number, depth: number): number {
    const b = this.body;
    const c = b[pos];
    let type: number;
    let number = 0;
    let value: FieldValue = null;
    // For a string without escapes: its bytes, between the quotes.
    let textStart = 0;
    let textEnd = 0;
    if (c === QUOTE) {
      let escaped = false;
      let p = pos + 1;
      for (; p < end; p++) {
        const x = b[p];
        if (STRING_SPECIAL[x] === 0) continue;
        if (x === QUOTE) break;
        if (x === BACKSLASH) {
          escaped = true;
          p++;
        } else return -1; // a control character
      }
      if (p >= end || p - pos - 1 > this.ctx.limits.maxStringBytes) return -1;
      type = T_STRING;
      textStart = pos + 1;
      textEnd = p;
      if (escaped) {
        const text = parseOrUndefined(this.body.toString('utf8', pos, p + 1));
        // A lone surrogate (`"\ud800"`) would turn the column's dictionary back into JS strings.
        if (typeof text !== 'string' || !isWellFormed(text)) return -1;
        type = T_VALUE;
        value = text;
      }
      pos = p + 1;
    } else if (c === LBRACKET) {
      const arrayEnd = skipArray(b, pos, end, this.ctx.limits.maxDepth);
      if (arrayEnd < 0) return -1;
      const parsed = parseOrUndefined(this.body.toString('utf8', pos, arrayEnd));
      if (parsed === undefined) return -1;
      type = T_VALUE;
      value = sanitizeValue(parsed, depth, this.ctx.limits);
      pos = arrayEnd;
    } else if (c === LETTER_T) {
      if (!matches(b, pos, end, TRUE)) return -1;
      type = T_TRUE;
      pos += TRUE.length;
    } else if (c === LETTER_F) {
      if (!matches(b, pos, end, FALSE)) return -1;
      type = T_FALSE;
      pos += FALSE.length;
    } else if (c === LETTER_N) {
      if (!matches(b, pos, end, NULL)) return -1;
      type = T_NULL;
      pos += NULL.length;
    } else {
      const numberEnd = scanNumber(b, pos, end);
      if (numberEnd < 0) return -1;
      number = numberValue(b, pos, numberEnd, this.body);
      // 1e400 parses to Infinity, which `sanitizeValue` stores as null.
      type = Number.isFinite(number) ? T_NUMBER : T_NULL;
      pos = numberEnd;
    }
    return this.addLeaf(path, type, number, textStart, textEnd, value) ? pos : -1;
  }

  private addLeaf(
    path: number,
    type: number,
    number: number,
    start: number,
    end: number,
    value: FieldValue,
  ): boolean {
    const nameId = this.pathNameId[path];
    if (this.nameSeen[nameId] === this.seq) return false; // a name repeated by flattening
    this.nameSeen[nameId] = this.seq;
    const flags = this.pathFlags[path];
    if ((flags & (PATH_TIMESTAMP | PATH_TIME)) !== 0) {
      const slot = (flags & PATH_TIMESTAMP) !== 0 ? this.timestamp : this.time;
      slot.set(type, number, start, end, value);
      return true;
    }
    const k = this.entryCount++;
    if (k === this.entryName.length) this.growEntries();
    this.entryName[k] = nameId;
    this.entryType[k] = type;
    this.entryNumber[k] = number;
    this.entryStart[k] = start;
    this.entryEnd[k] = end;
    this.entryValue[k] = value;
    return true;
  }

  /** Distinct leaf names of the line, the time fields included (as `FlattenState.count` has them). */
  private leafNames(): number {
    return this.entryCount + (this.timestamp.present ? 1 : 0) + (this.time.present ? 1 : 0);
  }

  /** The event time as `flattenRecord` resolves it, or null to give the line back. */
  private resolveTime(): number | null {
    const raw = this.timestamp.present ? this.timestamp : this.time.present ? this.time : null;
    if (raw === null || raw.type === T_NULL) return this.ctx.nowMs;
    if (raw.type === T_STRING)
      return parseTimestampBytes(this.body, raw.start, raw.end, this.ctx.timestampFormat);
    let value: unknown;
    if (raw.type === T_NUMBER) value = raw.number;
    else if (raw.type === T_VALUE && typeof raw.value === 'string') value = raw.value;
    else return null;
    return parseTimestamp(value, this.ctx.timestampFormat);
  }

  private commit(time: number): void {
    const builder = this.builder;
    builder.beginRow(time, this.ctx.nowMs);
    for (let k = 0; k < this.entryCount; k++) {
      const nameId = this.entryName[k];
      let field = this.nameField[nameId];
      if (field < 0) field = this.nameField[nameId] = builder.fieldIndex(this.names[nameId]);
      switch (this.entryType[k]) {
        case T_STRING:
          builder.setUtf8(field, this.bytes, this.entryStart[k], this.entryEnd[k]);
          break;
        case T_NUMBER:
          builder.setAt(field, this.entryNumber[k]);
          break;
        case T_TRUE:
          builder.setAt(field, true);
          break;
        case T_FALSE:
          builder.setAt(field, false);
          break;
        case T_NULL:
          builder.setAt(field, null);
          break;
        default:
          builder.setAt(field, this.entryValue[k]);
          this.entryValue[k] = null;
      }
    }
    builder.endRow();
  }

  /**
   * The path of key `bytes[keyStart, keyEnd)` under `parent`, added when new; -1 when such a key needs the
   * general path.
   */
  private path(parent: number, keyStart: number, keyEnd: number, depth: number): number {
    const b = this.body;
    let h = Math.imul(parent + 0x9e3779b9, FNV_PRIME);
    for (let i = keyStart; i < keyEnd; i++) h = Math.imul(h ^ b[i], FNV_PRIME);
    h ^= h >>> 15;
    const slots = this.pathSlots;
    const mask = slots.length - 1;
    const length = keyEnd - keyStart;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const slot = slots[i];
      if (slot === 0) break;
      const p = slot - 1;
      if (this.pathHash[p] !== h || this.pathParent[p] !== parent) continue;
      const key = this.pathKey[p];
      if (key.length !== length) continue;
      let k = 0;
      while (k < length && key[k] === b[keyStart + k]) k++;
      if (k === length) return this.pathFlags[p] & PATH_GENERAL ? -1 : p;
    }
    return this.addPath(parent, keyStart, keyEnd, depth, h);
  }

  private addPath(parent: number, keyStart: number, keyEnd: number, depth: number, h: number): number {
    // Paths are few (one per distinct key per level); a body that makes thousands is not the common case.
    if (this.pathName.length >= MAX_PATHS) return -1;
    const key = this.body.slice(keyStart, keyEnd);
    const keyText = this.body.toString('utf8', keyStart, keyEnd);
    // As `flattenInto` names them: under an empty prefix (the top level, or a key "") a key is its own name.
    const prefix = parent < 0 ? '' : this.pathName[parent];
    const name = prefix === '' ? keyText : `${prefix}.${keyText}`;
    const { timestampField } = this.ctx;
    let flags = 0;
    if (
      keyNeedsGeneralPath(keyText, name, { underEmptyPrefix: prefix === '', topLevel: depth === 1 }, this.ctx)
    ) {
      flags |= PATH_GENERAL;
    }
    if (depth === 1 && keyText === 'data') flags |= PATH_NOT_OBJECT; // `{data: {...}}` may be the grouped form
    if (name === timestampField) flags |= PATH_TIMESTAMP;
    else if (name === TIME_FIELD) flags |= PATH_TIME;
    let nameId = this.nameIds.get(name);
    if (nameId === undefined) {
      nameId = this.nameIds.size;
      this.nameIds.set(name, nameId);
      this.names.push(name);
      this.nameField.push(-1);
      if (nameId === this.nameSeen.length) this.nameSeen = growInt32(this.nameSeen);
    }
    const p = this.pathName.length;
    this.pathParent.push(parent);
    this.pathKey.push(key);
    this.pathHash.push(h);
    this.pathName.push(name);
    this.pathFlags.push(flags);
    this.pathNameId.push(nameId);
    if (p === this.pathSeen.length) this.pathSeen = growInt32(this.pathSeen);
    if ((p + 1) * 2 > this.pathSlots.length) this.rehashPaths();
    else this.placePath(p);
    return flags & PATH_GENERAL ? -1 : p;
  }

  private placePath(p: number): void {
    const mask = this.pathSlots.length - 1;
    let i = this.pathHash[p] & mask;
    while (this.pathSlots[i] !== 0) i = (i + 1) & mask;
    this.pathSlots[i] = p + 1;
  }

  private rehashPaths(): void {
    this.pathSlots = new Int32Array(this.pathSlots.length * 2);
    for (let p = 0; p < this.pathName.length; p++) this.placePath(p);
  }

  private growEntries(): void {
    const size = this.entryName.length * 2;
    this.entryName = growTo(this.entryName, new Int32Array(size));
    this.entryType = growTo(this.entryType, new Uint8Array(size));
    this.entryNumber = growTo(this.entryNumber, new Float64Array(size));
    this.entryStart = growTo(this.entryStart, new Int32Array(size));
    this.entryEnd = growTo(this.entryEnd, new Int32Array(size));
  }

  private resetSeen(): void {
    this.seq = 1;
    this.pathSeen.fill(0);
    this.nameSeen.fill(0);
  }
}

/** One of the line's time fields: its value as an entry would hold it. */
class TimeSlot {
  present = false;
  type = T_NULL;
  number = 0;
  start = 0;
  end = 0;
  value: FieldValue = null;

  set(type: number, number: number, start: number, end: number, value: FieldValue): void {
    this.present = true;
    this.type = type;
    this.number = number;
    this.start = start;
    this.end = end;
    this.value = value;
  }
}

const T_NULL = 0;
const T_STRING = 1;
const T_NUMBER = 2;
const T_TRUE = 3;
const T_FALSE = 4;
/** A JS value: an array (parsed and sanitized) or a string that had escapes. */
const T_VALUE = 5;

/** The path needs the general path (see `FlatJsonReader`). */
const PATH_GENERAL = 1;
/** An object value under this path needs the general path. */
const PATH_NOT_OBJECT = 2;
const PATH_TIMESTAMP = 4;
const PATH_TIME = 8;

const MAX_PATHS = 4096;
/**
 * Whether the general path treats the key `key` (named `name` once flattened) in a way a flat reader does
 * not: JS orders index-like keys first, a reserved name at the top level is renamed, a map field stays
 * one value, and an over-long name or one with NUL is refused. `underEmptyPrefix`: the key is its own
 * name (the top level, or under a key ""); `topLevel`: the key is in the event's own object.
 */
export function keyNeedsGeneralPath(
  key: string,
  name: string,
  where: { underEmptyPrefix: boolean; topLevel: boolean },
  ctx: NormalizeContext,
): boolean {
  return (
    INDEX_LIKE.test(key) ||
    (where.underEmptyPrefix && isReservedName(key)) ||
    (where.topLevel && ctx.mapFields.has(key)) ||
    Buffer.byteLength(name, 'utf8') > ctx.limits.maxFieldNameBytes ||
    key.includes('\u0000')
  );
}

/** Keys JS objects order before all others (array indices); only digits is a safe superset. */
const INDEX_LIKE = /^[0-9]+$/;
const FNV_PRIME = 0x01000193;
const EMPTY = Buffer.alloc(0);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LETTER_E = 0x65;
const LETTER_CAPITAL_E = 0x45;
const LETTER_T = 0x74;
const LETTER_F = 0x66;
const LETTER_N = 0x6e;
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
/** Bytes that end or escape a JSON string, or may not appear in one raw (control characters). */
const STRING_SPECIAL = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_SPECIAL[c] = 1;
STRING_SPECIAL[QUOTE] = 1;
STRING_SPECIAL[BACKSLASH] = 1;
/** Exact powers of ten (10^22 is the largest a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** `JSON.parse(text)`, or undefined when it is not JSON. */
function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first position from `pos` that is not JSON whitespace (space, tab, line feed, carriage return). */
export function skipSpace(b: Uint8Array, pos: number, end: number): number {
  while (pos < end) {
    const c = b[pos];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) break;
    pos++;
  }
  return pos;
}

/** Where the key `key` followed by its closing quote ends at `pos` (the quote's position), or -1. */
function matchKey(b: Uint8Array, pos: number, end: number, key: Uint8Array): number {
  const length = key.length;
  if (pos + length >= end || b[pos + length] !== QUOTE) return -1;
  for (let k = 0; k < length; k++) if (b[pos + k] !== key[k]) return -1;
  return pos + length;
}

function matches(b: Uint8Array, pos: number, end: number, word: readonly number[]): boolean {
  if (pos + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (b[pos + k] !== word[k]) return false;
  return true;
}

function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

/** The end of the JSON number at `pos` (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function scanNumber(b: Uint8Array, pos: number, end: number): number {
  let p = pos;
  if (b[p] === MINUS) p++;
  if (p >= end) return -1;
  if (b[p] === DIGIT_0) p++;
  else if (isDigit(b[p])) while (p < end && isDigit(b[p])) p++;
  else return -1;
  if (p < end && b[p] === DOT) {
    p++;
    if (p >= end || !isDigit(b[p])) return -1;
    while (p < end && isDigit(b[p])) p++;
  }
  if (p < end && (b[p] === LETTER_E || b[p] === LETTER_CAPITAL_E)) {
    p++;
    if (p < end && (b[p] === PLUS || b[p] === MINUS)) p++;
    if (p >= end || !isDigit(b[p])) return -1;
    while (p < end && isDigit(b[p])) p++;
  }
  return p;
}

/**
 * The value of a valid JSON number: exact by construction for up to 15 digits without an exponent (an
 * integer below 2^53 divided by an exact power of ten is correctly rounded, Clinger's fast path), else
 * JS's own conversion of the text.
 */
function numberValue(b: Uint8Array, start: number, end: number, buffer: Buffer): number {
  let p = start;
  const negative = b[p] === MINUS;
  if (negative) p++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; p < end; p++) {
    const c = b[p];
    if (c === DOT) fraction = 0;
    else if (isDigit(c)) {
      mantissa = mantissa * 10 + (c - DIGIT_0);
      digits++;
      if (fraction >= 0) fraction++;
    } else return Number(buffer.toString('latin1', start, end)); // an exponent
  }
  if (digits > 15) return Number(buffer.toString('latin1', start, end));
  const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
  return negative ? -value : value;
}

/** The end of the JSON array at `pos` (after its `]`), nesting at most `maxDepth` deep, or -1. */
function skipArray(b: Uint8Array, pos: number, end: number, maxDepth: number): number {
  let depth = 0;
  for (let p = pos; p < end; p++) {
    const c = b[p];
    if (c === QUOTE) {
      for (p++; p < end && b[p] !== QUOTE; p++) if (b[p] === BACKSLASH) p++;
      if (p >= end) return -1;
    } else if (c === LBRACKET || c === LBRACE) {
      if (++depth > maxDepth) return -1;
    } else if (c === RBRACKET || c === RBRACE) {
      if (--depth === 0) return c === RBRACKET ? p + 1 : -1;
    }
  }
  return -1;
}

function growInt32(a: Int32Array): Int32Array {
  return growTo(a, new Int32Array(a.length * 2));
}

function growTo<T extends Int32Array | Uint8Array | Float64Array>(a: T, out: T): T {
  out.set(a);
  return out;
}
