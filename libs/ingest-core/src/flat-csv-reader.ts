import { type EventBatchBuilder, TIME_FIELD } from '@quarry/contracts';
import { keyNeedsGeneralPath } from './flat-json-reader';
import { EARLIEST_EVENT_TIME_MS, type NormalizeContext } from './normalize-event';
import { parseTimestampBytes } from './timestamp';

/**
 * Reads an unquoted CSV row straight from the request bytes into an `EventBatchBuilder` row, as
 * `FlatJsonReader` does for NDJSON lines: each value goes to the builder as a byte range of the body
 * (`setUtf8`), never as a JS string, and no object is built per row.
 *
 * What the general path (`parseCsv` + `flattenRecord`) would decide per name is decided once, for the
 * header: `forHeader` gives no reader at all when a name needs the general path (a reserved or map field
 * name, one that looks like an array index or is over the length limit, a repeated name). A row is given
 * back (`read` returns false, nothing written) when it has more values than the header has names, a value
 * over the string limit, more fields than the limit, or a time that does not parse, so failures and their
 * messages stay exactly the general path's. The caller gives it only rows without quotes, in a body that
 * is valid UTF-8, with a one-byte delimiter.
 */
export class FlatCsvReader {
  /** Per column: the builder's field, -1 until a value is written. */
  private readonly fields: Int32Array;
  private readonly valueStart: Int32Array;
  private readonly valueEnd: Int32Array;
  private bytes: Buffer = Buffer.alloc(0);

  private constructor(
    private readonly ctx: NormalizeContext,
    private readonly builder: EventBatchBuilder,
    private readonly names: readonly string[],
    /** Per column: `ROLE_*`. */
    private readonly roles: Uint8Array,
    private readonly delimiter: number,
  ) {
    this.fields = new Int32Array(names.length).fill(-1);
    this.valueStart = new Int32Array(names.length);
    this.valueEnd = new Int32Array(names.length);
  }

  /** A reader for rows under `header`, or null when a name of it needs the general path. */
  static forHeader(
    ctx: NormalizeContext,
    builder: EventBatchBuilder,
    header: readonly string[],
    delimiter: number,
  ): FlatCsvReader | null {
    const roles = new Uint8Array(header.length);
    const seen = new Set<string>();
    for (let c = 0; c < header.length; c++) {
      const name = header[c];
      if (name === '') {
        roles[c] = ROLE_SKIP; // the general path drops a value without a name
        continue;
      }
      if (
        seen.has(name) ||
        keyNeedsGeneralPath(name, name, { underEmptyPrefix: true, topLevel: true }, ctx)
      ) {
        return null;
      }
      seen.add(name);
      roles[c] = name === ctx.timestampField ? ROLE_TIMESTAMP : name === TIME_FIELD ? ROLE_TIME : ROLE_VALUE;
    }
    return new FlatCsvReader(ctx, builder, header, roles, delimiter);
  }

  /** Reads the row `bytes[start, end)` into the builder; false, having written nothing, to give it back. */
  read(bytes: Buffer, start: number, end: number): boolean {
    this.bytes = bytes;
    const columns = this.names.length;
    const delimiter = this.delimiter;
    let values = 0;
    for (let p = start; ;) {
      let q = p;
      while (q < end && bytes[q] !== delimiter) q++;
      if (values === columns) return false; // more values than names: a failure the general path words
      this.valueStart[values] = p;
      this.valueEnd[values] = q;
      values++;
      if (q >= end) break;
      p = q + 1;
    }
    const limits = this.ctx.limits;
    let fieldCount = 0;
    let timestamp = -1;
    let time = -1;
    for (let c = 0; c < values; c++) {
      const length = this.valueEnd[c] - this.valueStart[c];
      if (length === 0) continue; // an empty cell is omitted: null
      if (length > limits.maxStringBytes) return false;
      const role = this.roles[c];
      if (role === ROLE_VALUE) fieldCount++;
      else if (role === ROLE_TIMESTAMP) timestamp = c;
      else if (role === ROLE_TIME) time = c;
    }
    if (fieldCount > limits.maxFieldsPerEvent) return false;
    const eventTime = this.resolveTime(timestamp >= 0 ? timestamp : time);
    // Before the epoch: given back, so the general path fails the event and says why.
    if (eventTime === null || eventTime < EARLIEST_EVENT_TIME_MS) return false;

    const builder = this.builder;
    builder.beginRow(eventTime, this.ctx.nowMs);
    for (let c = 0; c < values; c++) {
      if (this.roles[c] !== ROLE_VALUE || this.valueEnd[c] === this.valueStart[c]) continue;
      let field = this.fields[c];
      if (field < 0) field = this.fields[c] = builder.fieldIndex(this.names[c]);
      builder.setUtf8(field, bytes, this.valueStart[c], this.valueEnd[c]);
    }
    builder.endRow();
    return true;
  }

  /** The event time from column c's value (-1: none, so the receive time), or null to give the row back. */
  private resolveTime(c: number): number | null {
    if (c < 0) return this.ctx.nowMs;
    return parseTimestampBytes(this.bytes, this.valueStart[c], this.valueEnd[c], this.ctx.timestampFormat);
  }
}

const ROLE_VALUE = 0;
/** A column without a name: its values are dropped. */
const ROLE_SKIP = 1;
/** The `timestamp-field` column. */
const ROLE_TIMESTAMP = 2;
/** `_time`, when it is not the `timestamp-field`: the time of rows without a timestamp-field value. */
const ROLE_TIME = 3;
