import { internal } from '@quarry/common';
import type { EventBatchBuilder } from '@quarry/contracts';
import { FlatJsonReader, skipSpace } from './flat-json-reader';
import { checkEventCount, type FlatRecordSource, parseJsonArray, type RecordSource } from './json-body';
import type { IngestLimits } from './limits';
import type { NormalizeContext } from './normalize-event';

/**
 * A JSON array body (`[{...},{...}]`, what `@axiomhq/js` sends) as its elements' byte ranges, found by one
 * scan of the bytes, so each element can go through the flat reader like an NDJSON line (`flatReader`) and
 * only the elements it gives back are parsed on their own (`read`). `JSON.parse` of the whole body and
 * then `flattenRecord` per element cost about 3× the flat reader's time per event.
 *
 * The scan checks the array's own syntax (brackets, commas, whitespace, nothing after `]`) and finds
 * where each element ends, skipping strings and counting nesting; it does not check the elements. Each
 * element is then checked where it is read: the flat reader takes only valid JSON, and `read` parses the
 * element's text. Elements are separated where the whole body's parse would separate them, so the body
 * is valid JSON exactly when the scan passes and every element parses. When either fails, the body fails
 * as a whole with the error `parseJsonArray` gives (its position in the body), as before: nothing is
 * ingested.
 */
export class JsonArrayElements implements FlatRecordSource {
  private constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly limits: IngestLimits,
    private readonly starts: readonly number[],
    private readonly ends: readonly number[],
  ) {}

  /**
   * The elements of the array that begins at the first non-space byte from `start` (a `[`), or, when the
   * array's own syntax is broken, the records `parseJsonArray` gives (it throws the body's error).
   */
  static of(body: Buffer, start: number, limits: IngestLimits): RecordSource {
    const found = scanElements(body, start);
    if (found === null) return parseJsonArray(body.toString('utf8', start), limits);
    checkEventCount(found.starts.length, limits);
    return new JsonArrayElements(body, start, limits, found.starts, found.ends);
  }

  get count(): number {
    return this.starts.length;
  }

  read(i: number): unknown {
    try {
      return JSON.parse(this.bytes.toString('utf8', this.starts[i], this.ends[i])) as unknown;
    } catch {
      throw this.wholeBodyError();
    }
  }

  flatReader(ctx: NormalizeContext, builder: EventBatchBuilder): (i: number) => boolean {
    const reader = new FlatJsonReader(ctx, builder);
    return (i) => reader.read(this.bytes, this.starts[i], this.ends[i]) !== null;
  }

  where(i: number): string {
    return `event ${i + 1}`;
  }

  /** The error of the whole body (an element of it is not JSON): the one `parseJsonArray` throws. */
  private wholeBodyError(): Error {
    try {
      parseJsonArray(this.bytes.toString('utf8', this.start), this.limits);
    } catch (err) {
      return err as Error;
    }
    // The scan separated elements where the parser does not: a bug here, not the client's mistake.
    return internal('a JSON array element did not parse on its own, but the whole array did');
  }
}

/**
 * Byte ranges of the array's elements (without surrounding whitespace), or null when the bytes are not
 * `ws [ ws (value (ws , ws value)*)? ws ] ws` for values that are balanced and whose strings end.
 */
function scanElements(b: Uint8Array, from: number): { starts: number[]; ends: number[] } | null {
  const end = b.length;
  let p = skipSpace(b, from, end);
  if (b[p] !== LBRACKET) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  p = skipSpace(b, p + 1, end);
  if (b[p] === RBRACKET) return skipSpace(b, p + 1, end) === end ? { starts, ends } : null;
  for (;;) {
    const valueEnd = skipValue(b, p, end);
    if (valueEnd < 0) return null;
    starts.push(p);
    ends.push(valueEnd);
    p = skipSpace(b, valueEnd, end);
    if (b[p] === COMMA) p = skipSpace(b, p + 1, end);
    else if (b[p] === RBRACKET) return skipSpace(b, p + 1, end) === end ? { starts, ends } : null;
    else return null;
  }
}

/**
 * Where the value at `pos` ends: after the `}`/`]` that closes it, after its string's closing quote, or,
 * for a number or literal, at the first byte that may follow a value. -1 when there is none before `end`.
 */
function skipValue(b: Uint8Array, pos: number, end: number): number {
  const c = b[pos];
  if (c === QUOTE) return skipString(b, pos, end);
  if (c !== LBRACE && c !== LBRACKET) {
    let p = pos;
    while (p < end && ENDS_SCALAR[b[p]] === 0) p++;
    return p > pos ? p : -1;
  }
  let depth = 0;
  for (let p = pos; p < end; p++) {
    const x = b[p];
    if (x === QUOTE) {
      p = skipString(b, p, end) - 1;
      if (p < 0) return -1;
    } else if (x === LBRACE || x === LBRACKET) depth++;
    else if ((x === RBRACE || x === RBRACKET) && --depth === 0) return p + 1;
  }
  return -1;
}

/** The position after the closing quote of the string at `pos`, or -1 when it does not end. */
function skipString(b: Uint8Array, pos: number, end: number): number {
  for (let p = pos + 1; p < end; p++) {
    const x = b[p];
    if (x === QUOTE) return p + 1;
    if (x === BACKSLASH) p++;
  }
  return -1;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
/** Bytes that end a number or literal inside an array: a separator, a closing bracket, whitespace. */
const ENDS_SCALAR = new Uint8Array(256);
for (const c of [COMMA, RBRACKET, RBRACE, 0x20, 0x09, 0x0a, 0x0d]) ENDS_SCALAR[c] = 1;
