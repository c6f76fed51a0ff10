import type { Column, ColumnBatch } from '@quarry/contracts';

/**
 * A batch as it crosses to another node: every column read out of its lazy block (`LazyColumns`
 * decodes on access; the RPC's serializer would see an empty map), typed arrays copied to their exact
 * length (a view would carry its whole underlying buffer), and a string column's dictionary cut to the
 * values its rows use (a block's dictionary can be far larger than the few rows a take keeps).
 */
export function wireBatch(batch: ColumnBatch): ColumnBatch {
  const columns = new Map<string, Column>();
  for (const name of [...batch.columns.keys()]) {
    const column = batch.columns.get(name);
    if (column !== undefined) columns.set(name, wireColumn(column));
  }
  return { length: batch.length, columns };
}

function wireColumn(column: Column): Column {
  switch (column.kind) {
    case 'string': {
      const remap = new Int32Array(column.dict.length).fill(-1);
      const dict: string[] = [];
      const codes = new Int32Array(column.codes.length);
      for (let i = 0; i < codes.length; i++) {
        const code = column.codes[i];
        if (code < 0) {
          codes[i] = -1;
          continue;
        }
        if (remap[code] < 0) {
          remap[code] = dict.length;
          dict.push(column.dict[code]);
        }
        codes[i] = remap[code];
      }
      return { kind: 'string', codes, dict };
    }
    case 'dynamic':
      return { kind: 'dynamic', values: [...column.values] };
    case 'bool':
      return { kind: 'bool', values: column.values.slice(), nulls: column.nulls?.slice() ?? null };
    default:
      return { kind: column.kind, values: column.values.slice(), nulls: column.nulls?.slice() ?? null };
  }
}
