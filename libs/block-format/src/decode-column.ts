import { internal } from '@quarry/common';
import type { Column, ColumnKind } from '@quarry/contracts';
import { ByteReader, readF64, unpackBits } from './bytes';
import { type ChunkEncoding, FLAG_HAS_NULLS } from './format';

const textDecoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes one uncompressed chunk payload back into a column of `n` rows. */
export function decodeColumn(
  payload: Uint8Array,
  encoding: ChunkEncoding,
  kind: ColumnKind,
  n: number,
  name: string,
): Column {
  const r = new ByteReader(payload, `chunk of column "${name}"`);
  const flags = r.u8();
  const nulls = flags & FLAG_HAS_NULLS ? unpackBits(r.bytes((n + 7) >>> 3), n) : null;
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
    case 'delta-varint-us': {
      expectKind('datetime', 'timespan');
      const values = new Float64Array(n);
      let prev = 0;
      for (let i = 0; i < n; i++) {
        const z = r.varint();
        // Un-zigzag with float arithmetic (values stay below 2^53).
        const delta = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
        prev += delta;
        values[i] = prev / 1000;
      }
      if (nulls) for (let i = 0; i < n; i++) if (nulls[i] !== 0) values[i] = 0;
      return { kind: kind as 'datetime', values, nulls };
    }
    case 'bitmap': {
      expectKind('bool');
      return { kind: 'bool', values: unpackBits(r.bytes((n + 7) >>> 3), n), nulls };
    }
    case 'dict': {
      expectKind('string');
      const size = r.varint();
      if (size > payload.length)
        throw internal(`corrupt block: column "${name}" claims ${size} dictionary entries`, {
          code: 'block_corrupt',
        });
      const dict: string[] = new Array(size);
      for (let d = 0; d < size; d++) dict[d] = utf8(r.bytes(r.varint()), name);
      const width = r.u8();
      if (width !== 1 && width !== 2 && width !== 4) {
        throw internal(`corrupt block: column "${name}" has code width ${width}`, { code: 'block_corrupt' });
      }
      const raw = new Uint8Array(r.bytes(n * width)); // aligned copy for the u16/u32 views
      const packed =
        width === 1
          ? raw
          : width === 2
            ? new Uint16Array(raw.buffer, 0, n)
            : new Uint32Array(raw.buffer, 0, n);
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const c = packed[i] - 1;
        if (c >= size)
          throw internal(`corrupt block: column "${name}" row ${i} has code ${c} past its dictionary`, {
            code: 'block_corrupt',
          });
        codes[i] = c;
      }
      return { kind: 'string', codes, dict };
    }
    case 'json': {
      expectKind('dynamic');
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
    default:
      throw internal(`corrupt block: column "${name}" has unknown encoding "${String(encoding)}"`, {
        code: 'block_corrupt',
      });
  }
}

function utf8(bytes: Uint8Array, name: string): string {
  try {
    return textDecoder.decode(bytes);
  } catch {
    throw internal(`corrupt block: column "${name}" has invalid UTF-8`, { code: 'block_corrupt' });
  }
}
