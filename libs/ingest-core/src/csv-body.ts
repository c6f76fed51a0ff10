import { invalid } from '@quarry/common';
import type { EventBatchBuilder } from '@quarry/contracts';
import { FlatCsvReader } from './flat-csv-reader';
import {
  checkEventCount,
  type FlatRecordSource,
  RecordError,
  recordsOf,
  type RecordSource,
} from './json-body';
import type { IngestLimits } from './limits';
import { newFieldMap, type NormalizeContext } from './normalize-event';

/**
 * Parses a CSV body (RFC 4180: `"` quotes, `""` inside quotes, LF or CRLF line ends, empty lines skipped)
 * into records of strings (CSV has no types; values stay strings, as in Axiom). The first line names the
 * fields unless `fields` is given (`X-Axiom-CSV-Fields`; empty means "header line", since the Go client
 * always sends the header, empty when it has no names). Empty cells are omitted, so they read as null
 * rather than as an empty string. Values are not trimmed (Go's CSV test lines keep leading tabs). A row
 * with more values than the header names fails alone; a quote out of place fails the whole body, with
 * its line.
 *
 * Hand-written because it is the ingest hot loop: records are found on the bytes; into columns, a record
 * without quotes is read from its bytes (`FlatCsvReader`), and any other is decoded to a string once and
 * split (the general-purpose parser we used before spent ~16 µs per bench event; this ~2 µs, and the
 * bytes path less, see docs/architecture.md, "Ingest parsing"). Rows with quotes are parsed up front,
 * the others when read.
 */
export function parseCsv(
  body: Buffer,
  start: number,
  delimiter: string,
  fields: readonly string[] | null,
  limits: IngestLimits,
): RecordSource {
  const delim = delimiter === '' ? ',' : delimiter;
  if (delim.length !== 1 || delim === '"' || delim === '\n' || delim === '\r') {
    throw invalid(
      `csv-delimiter must be one character other than a quote or a line break, not ${JSON.stringify(delim)}`,
      {
        code: 'ingest_csv_delimiter_invalid',
      },
    );
  }
  const rows = splitRecords(body, start);
  let header: readonly string[];
  let first = 0;
  if (fields && fields.length > 0) {
    header = fields;
  } else {
    if (rows.count === 0) return recordsOf([], () => '');
    header = parseFields(body, rows, 0, delim);
    first = 1;
  }
  checkEventCount(rows.count - first, limits);
  // Rows with quotes are parsed now, so a quote out of place fails the body before any row is read.
  const quotedFields = new Map<number, string[]>();
  for (let r = first; r < rows.count; r++) {
    if (rows.quoted[r]) quotedFields.set(r, parseFields(body, rows, r, delim));
  }
  return new CsvRows(body, rows, first, header, delim, quotedFields);
}

/**
 * The rows of a CSV body after its header, each parsed when read (`read`), or, when unquoted, read from
 * its bytes into columns (`flatReader`, `FlatCsvReader`).
 */
class CsvRows implements FlatRecordSource {
  constructor(
    private readonly body: Buffer,
    private readonly rows: CsvRecords,
    private readonly first: number,
    private readonly header: readonly string[],
    private readonly delimiter: string,
    /** The fields of the rows with quotes, by row. */
    private readonly quotedFields: ReadonlyMap<number, string[]>,
  ) {}

  get count(): number {
    return this.rows.count - this.first;
  }

  read(i: number): unknown {
    const r = i + this.first;
    const record = this.quotedFields.get(r) ?? parseFields(this.body, this.rows, r, this.delimiter);
    if (record.length > this.header.length) {
      return new RecordError(`has ${record.length} values but the header names ${this.header.length} fields`);
    }
    // A field map: `__proto__` in a header is a plain name, never the object's prototype.
    const obj = newFieldMap();
    for (let c = 0; c < record.length; c++) {
      const name = this.header[c];
      const value = record[c];
      if (name === '' || value === '') continue;
      obj[name] = value;
    }
    return obj;
  }

  where(i: number): string {
    return `line ${this.rows.lines[i + this.first]}`;
  }

  flatReader(ctx: NormalizeContext, builder: EventBatchBuilder): ((i: number) => boolean) | null {
    const delimiter = this.delimiter.charCodeAt(0);
    // A delimiter of several UTF-8 bytes is not one byte to split on.
    if (delimiter >= 0x80) return null;
    const reader = FlatCsvReader.forHeader(ctx, builder, this.header, delimiter);
    if (reader === null) return null;
    const { starts, ends, quoted } = this.rows;
    // A row with a quote needs the field parser (`""`, delimiters and line breaks inside quotes).
    return (i) =>
      !quoted[i + this.first] && reader.read(this.body, starts[i + this.first], ends[i + this.first]);
  }
}

/** Splits the `X-Axiom-CSV-Fields` header value; empty or absent gives null (the body has a header line). */
export function parseCsvFieldsHeader(header: string | readonly string[] | undefined): string[] | null {
  if (header === undefined) return null;
  const names = typeof header === 'string' ? header.split(',') : [...header];
  const trimmed = names.map((n) => n.trim());
  return trimmed.some((n) => n !== '') ? trimmed : null;
}

/** The body's non-empty records: where each is in the body (line end and a CR before it excluded). */
interface CsvRecords {
  count: number;
  starts: number[];
  ends: number[];
  /** 1-based line each record starts on. */
  lines: number[];
  /** Whether the record contains a quote (then it needs the full field parser). */
  quoted: boolean[];
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

function splitRecords(body: Buffer, start: number): CsvRecords {
  const out: CsvRecords = { count: 0, starts: [], ends: [], lines: [], quoted: [] };
  let line = 1;
  let pos = start;
  while (pos < body.length) {
    const recordLine = line;
    // Jump from quote to quote: a line break ends the record only outside quotes.
    let end = -1;
    let quoted = false;
    let nextLf = body.indexOf(LF, pos);
    if (nextLf < 0) nextLf = body.length;
    for (let i = pos; end < 0;) {
      const open = body.indexOf(QUOTE, i);
      if (open < 0 || open > nextLf) {
        end = nextLf;
        break;
      }
      quoted = true;
      const close = body.indexOf(QUOTE, open + 1);
      if (close < 0) throw malformed(recordLine, 'a quoted value is never closed');
      // Line breaks inside the quotes are data; the record goes on past them.
      while (nextLf < close) {
        line++;
        nextLf = body.indexOf(LF, nextLf + 1);
        if (nextLf < 0) nextLf = body.length;
      }
      i = close + 1;
    }
    let stop = end;
    if (stop > pos && body[stop - 1] === CR) stop--;
    if (stop > pos) {
      out.starts.push(pos);
      out.ends.push(stop);
      out.lines.push(recordLine);
      out.quoted.push(quoted);
      out.count++;
    }
    line++;
    pos = end + 1;
  }
  return out;
}

/** The fields of record r. */
function parseFields(body: Buffer, rows: CsvRecords, r: number, delim: string): string[] {
  const text = body.toString('utf8', rows.starts[r], rows.ends[r]);
  if (!rows.quoted[r]) return text.split(delim);
  const fields: string[] = [];
  const line = rows.lines[r];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close < 0) throw malformed(line, 'a quoted value is never closed');
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        value += text.slice(from, close);
        i = close + 1;
        break;
      }
      fields.push(value);
      if (i >= text.length) return fields;
      if (text[i] !== delim)
        throw malformed(line, `unexpected ${JSON.stringify(text[i])} after a closing quote`);
      i++;
      if (i === text.length) {
        fields.push('');
        return fields;
      }
      continue;
    }
    let next = text.indexOf(delim, i);
    if (next < 0) next = text.length;
    const value = text.slice(i, next);
    if (value.includes('"'))
      throw malformed(line, `a quote inside the unquoted value ${JSON.stringify(value.slice(0, 40))}`);
    fields.push(value);
    if (next >= text.length) return fields;
    i = next + 1;
    if (i === text.length) {
      fields.push('');
      return fields;
    }
  }
}

function malformed(line: number, what: string) {
  return invalid(`invalid CSV on line ${line}: ${what}`, { code: 'ingest_body_malformed' });
}
