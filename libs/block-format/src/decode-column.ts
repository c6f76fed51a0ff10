import { internal } from '@quarry/common';
import type { Column, ColumnKind } from '@quarry/contracts';
import { ByteReader, readF64 } from './bytes';
import { decodeBitmap, decodeDeltaVarintUs, decodeDict } from './decode-v1';
import { decodeInts } from './decode-ints';
import { decodeStrings } from './decode-strings';
import type { ChunkEncoding } from './format';
import { readNulls } from './null-section';
import { utf8 } from './utf8';

export interface DecodeOptions {
  /**
   * Plain string values stay UTF-8 (`StringColumn.utf8`, `dict` decoded on first use): for a reader that
   * mostly moves them on as bytes, such as the compactor building blocks from the ingest log.
   */
  utf8Strings?: boolean;
}

/** Decodes one uncompressed chunk payload (any supported version) back into a column of `n` rows. */
export function decodeColumn(
  payload: Uint8Array,
  encoding: ChunkEncoding,
  kind: ColumnKind,
  n: number,
  name: string,
  options: DecodeOptions = {},
): Column {
  const r = new ByteReader(payload, `chunk of column "${name}"`);
  const nulls = readNulls(r, n);
  const expectKind = (...kinds: ColumnKind[]) => {
    if (!kinds.includes(kind)) {
      throw internal(`corrupt block: column "${name}" has kind ${kind} but encoding ${encoding}`, {
        code: 'block_corrupt',
      });
    }
  };
  switch (encoding) {
    case 'plain-f64': {
      expectKind('long', 'real', 'datetime', 'timespan');
      const values = readF64(r.bytes(n * 8), n);
      return { kind: kind as 'long', values, nulls };
    }
    case 'ints':
      expectKind('long', 'real', 'datetime', 'timespan', 'bool');
      return decodeInts(r, kind, n, nulls);
    case 'strings':
      expectKind('string');
      return decodeStrings(r, n, nulls, options.utf8Strings === true);
    case 'json':
      expectKind('dynamic');
      return decodeJson(r, n, name);
    case 'delta-varint-us':
      expectKind('datetime', 'timespan');
      return decodeDeltaVarintUs(r, kind, n, nulls);
    case 'bitmap':
      expectKind('bool');
      return decodeBitmap(r, n, nulls);
    case 'dict':
      expectKind('string');
      return decodeDict(r, n, payload.length, name);
    default:
      throw internal(`corrupt block: column "${name}" has unknown encoding "${String(encoding)}"`, {
        code: 'block_corrupt',
      });
  }
}

function decodeJson(r: ByteReader, n: number, name: string): Column {
  const values: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = r.varint();
    if (len === 0) {
      values[i] = null;
      continue;
    }
    const text = utf8(r.bytes(len), name);
    try {
      values[i] = JSON.parse(text);
    } catch {
      throw internal(`corrupt block: column "${name}" row ${i} is not valid JSON`, {
        code: 'block_corrupt',
      });
    }
  }
  return { kind: 'dynamic', values };
}
