import * as v8 from 'node:v8';
import { LazyColumns, type Column, type ColumnBatch } from '@quarry/contracts';
import { wireBatch } from './wire-batch';

describe('wireBatch', () => {
  it('reads lazy columns, cuts string dictionaries to the values used, and survives serialization', () => {
    const buffer = new Float64Array(10_000);
    buffer.set([1, 2, 3], 1);
    const columns: Record<string, Column> = {
      n: { kind: 'long', values: buffer.subarray(1, 4), nulls: Uint8Array.of(0, 1, 0) },
      s: { kind: 'string', codes: Int32Array.of(5, -1, 5), dict: ['a', 'b', 'c', 'd', 'e', 'f'] },
      d: { kind: 'dynamic', values: [[1], { a: 1 }, null] },
      b: { kind: 'bool', values: Uint8Array.of(1, 0, 1), nulls: null },
    };
    const lazy = new LazyColumns(Object.keys(columns), (name) => columns[name]);
    const batch: ColumnBatch = { length: 3, columns: lazy };
    const bytes = v8.serialize(wireBatch(batch));
    expect(bytes.length).toBeLessThan(1000); // not the 80 kB buffer behind the view
    const sent = v8.deserialize(bytes) as ColumnBatch;
    expect([...sent.columns.keys()].sort()).toEqual(['b', 'd', 'n', 's']);
    const n = sent.columns.get('n') as { values: Float64Array; nulls: Uint8Array };
    expect([...n.values]).toEqual([1, 2, 3]);
    expect([...n.nulls]).toEqual([0, 1, 0]);
    const str = sent.columns.get('s') as { codes: Int32Array; dict: string[] };
    expect({ codes: [...str.codes], dict: str.dict }).toEqual({ codes: [0, -1, 0], dict: ['f'] });
    expect(sent.columns.get('d')).toEqual({ kind: 'dynamic', values: [[1], { a: 1 }, null] });
  });
});
