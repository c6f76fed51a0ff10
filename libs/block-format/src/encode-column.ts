import type { Column } from '@quarry/contracts';
import { ByteWriter } from './bytes';
import { encodeBool, encodeNumeric } from './encode-numeric';
import { type EncodedStrings, encodeStrings } from './encode-strings';
import type { EncodedColumn } from './encoded-column';

export interface ColumnChoice {
  /** Search for the smallest layout (hex/uuid/token strings); off for the ingest log. */
  search: boolean;
}

/** Encodes one column as a version-2 chunk payload (uncompressed). */
export function encodeColumn(
  column: Column,
  n: number,
  choice: ColumnChoice,
): EncodedColumn | EncodedStrings {
  switch (column.kind) {
    case 'string':
      return encodeStrings(column, n, choice);
    case 'dynamic':
      return encodeJson(column.values, n);
    case 'bool':
      return encodeBool(column, n, choice);
    default:
      return encodeNumeric(column, n, choice);
  }
}

/** `json`: per row, varint byte length of the JSON text then the text; length 0 = null (as in v1). */
function encodeJson(values: readonly unknown[], n: number): EncodedColumn {
  const w = new ByteWriter(16 + n * 8);
  w.u8(0);
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      nullCount++;
      w.varint(0);
      continue;
    }
    w.lengthPrefixedUtf8(JSON.stringify(v));
  }
  return { encoding: 'json', payload: w.finish(), nullCount };
}
