import type { Column, ColumnBatch } from '@quarry/contracts';
import { readValue } from './columns';
import { concatBatches } from './concat';

const longs = (values: (number | null)[]): Column => ({
  kind: 'long',
  values: Float64Array.from(values, (v) => v ?? 0),
  nulls: values.some((v) => v === null) ? Uint8Array.from(values, (v) => (v === null ? 1 : 0)) : null,
});
const strings = (values: (string | null)[]): Column => {
  const dict = [...new Set(values.filter((v): v is string => v !== null))];
  return { kind: 'string', codes: Int32Array.from(values, (v) => (v === null ? -1 : dict.indexOf(v))), dict };
};
const batch = (n: Column, length: number): ColumnBatch => ({ length, columns: new Map([['n', n]]) });
const read = (b: ColumnBatch) =>
  Array.from({ length: b.length }, (_, i) => readValue(b.columns.get('n')!, i));

describe('concatBatches', () => {
  it('lets the parts with values decide the kind: an all-null part of another kind reads as nulls', () => {
    const out = concatBatches([batch(longs([1, null]), 2), batch(strings([null]), 1)]);
    expect(out.columns.get('n')!.kind).toBe('long');
    expect(read(out)).toEqual([1, null, null]);
  });

  it('keeps the kind all-null parts agree on, and is a string column when they do not', () => {
    expect(concatBatches([batch(longs([null]), 1), batch(longs([null]), 1)]).columns.get('n')!.kind).toBe(
      'long',
    );
    const mixed = concatBatches([batch(longs([null]), 1), batch(strings([null]), 1)]);
    expect(mixed.columns.get('n')!.kind).toBe('string');
    expect(read(mixed)).toEqual([null, null]);
  });

  it('gives the same kind however the batches were grouped first (rows split across nodes)', () => {
    const parts = [
      batch(longs([null]), 1),
      batch(strings([null]), 1),
      batch(strings([null]), 1),
      batch(longs([5]), 1),
    ];
    const whole = concatBatches(parts);
    for (let cut = 1; cut < parts.length; cut++) {
      const grouped = concatBatches([concatBatches(parts.slice(0, cut)), concatBatches(parts.slice(cut))]);
      expect(grouped.columns.get('n')!.kind).toBe(whole.columns.get('n')!.kind);
      expect(read(grouped)).toEqual(read(whole));
    }
    expect(read(whole)).toEqual([null, null, null, 5]);
  });

  it('still unifies kinds that both hold values (long and string: dynamic)', () => {
    const out = concatBatches([batch(longs([1]), 1), batch(strings(['a']), 1)]);
    expect(out.columns.get('n')!.kind).toBe('dynamic');
    expect(read(out)).toEqual([1, 'a']);
  });
});
