import { parse } from 'csv-parse/sync';
import { invalid } from '@quarry/common';
import { checkEventCount, recordsOf, type RecordSource } from './json-body';
import type { IngestLimits } from './limits';

/**
 * Parses a CSV body into records of strings (CSV has no types; values stay strings, as in Axiom). The first
 * line names the fields unless `fields` is given (`X-Axiom-CSV-Fields`; empty means "header line", since
 * the Go client always sends the header, empty when it has no names). Empty cells are omitted, so they read
 * as null rather than as an empty string. Values are not trimmed (Go's CSV test lines keep leading tabs).
 */
export function parseCsv(
  text: string,
  delimiter: string,
  fields: readonly string[] | null,
  limits: IngestLimits,
): RecordSource {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      delimiter: delimiter === '' ? ',' : delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    throw invalid(`invalid CSV: ${(err as Error).message}`, { code: 'ingest_body_malformed' });
  }
  let header: readonly string[];
  let start = 0;
  if (fields && fields.length > 0) {
    header = fields;
  } else {
    if (rows.length === 0) return recordsOf([], () => '');
    header = rows[0].record;
    start = 1;
  }
  const count = rows.length - start;
  checkEventCount(count, limits);
  const values: unknown[] = new Array(count);
  const errors: (string | null)[] = new Array(count).fill(null);
  const lines = new Int32Array(count);
  for (let r = start; r < rows.length; r++) {
    const i = r - start;
    const { record, info } = rows[r];
    lines[i] = info.lines;
    if (record.length > header.length) {
      errors[i] = `has ${record.length} values but the header names ${header.length} fields`;
      continue;
    }
    const obj: Record<string, string> = Object.create(null);
    for (let c = 0; c < record.length; c++) {
      const name = header[c];
      const value = record[c];
      if (name === '' || value === '') continue;
      obj[name] = value;
    }
    values[i] = obj;
  }
  return recordsOf(values, (i) => `line ${lines[i]}`, errors);
}

/** Splits the `X-Axiom-CSV-Fields` header value; empty or absent gives null (the body has a header line). */
export function parseCsvFieldsHeader(header: string | readonly string[] | undefined): string[] | null {
  if (header === undefined) return null;
  const names = typeof header === 'string' ? header.split(',') : [...header];
  const trimmed = names.map((n) => n.trim());
  return trimmed.some((n) => n !== '') ? trimmed : null;
}
